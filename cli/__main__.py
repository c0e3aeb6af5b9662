"""``python -m cli ...`` runs the ``rummy`` program."""

from cli.app import main

raise SystemExit(main())
