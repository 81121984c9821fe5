"""``python -m apps.cli …``: the ``env121`` command without its console script."""

from apps.cli.app import main

raise SystemExit(main())
