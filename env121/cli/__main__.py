"""``python -m env121.cli …``: the old path of ``python -m apps.cli``."""

from apps.cli.app import main

raise SystemExit(main())
