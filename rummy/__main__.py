"""``python -m rummy ...`` runs the ``rummy`` program."""

from rummy.cli.app import main

raise SystemExit(main())
