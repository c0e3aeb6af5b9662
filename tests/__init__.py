"""The test suite of rummy, one folder a layer of the package (tests/support: the helpers they share)."""
