"""The ``rummy`` program: thin typer commands over rummy.reports (docs/cli.md)."""
