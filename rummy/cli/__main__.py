"""``python -m rummy.cli ...`` runs the ``rummy`` program too."""

from rummy.cli.app import main

raise SystemExit(main())
