"""``python -m rummy ...`` runs the ``rummy`` program."""

import sys

try:
    from rummy.cli.app import main
except KeyboardInterrupt:  # Ctrl-C while the program is still loading: said as for any interrupt
    sys.stderr.write("rummy: interrupted\n")
    raise SystemExit(130) from None

raise SystemExit(main())
