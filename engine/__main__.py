"""``python -m engine``: replay, legal, random, demo (see engine.cli)."""

import sys

from engine.cli import main

sys.exit(main())
