"""Helpers the tests share: oracles, dealers of random positions, servers, paths (not tests themselves)."""
