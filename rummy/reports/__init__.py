"""Answers as rummy words them: the layer below the command line and the server.

Each module takes positions (or their text) and returns what the adapters
print or send: ``Styled`` lines (``lines``), ``--json`` objects, exit codes
(``exit_codes``). Nothing here knows a terminal or a web framework:
``rummy.cli`` renders the lines on a terminal and parses options,
``rummy.web`` serves the same answers over HTTP, and neither is ever
imported from here (tests/core/test_layers.py; the modules: docs/architecture.md).

This file imports nothing: ``lines`` and ``exit_codes`` are loaded at every
start of the command line and must stay cheap.
"""
