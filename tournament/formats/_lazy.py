"""networkx, imported when a draw first needs it rather than with the formats.

networkx takes 75-150 ms to import, and only pairing itself uses it (the blossom matching
of a Swiss or lives round, spreading a group's qualifiers over the bracket). A command that
only reads the formats -- the standings of a lives or knockout tournament -- would pay for
it at every start otherwise (tests/cli/test_startup.py, bench/cli.py).
"""

from __future__ import annotations

from typing import Any


class _Networkx:
    """Stands for the ``networkx`` module: the first attribute read imports it."""

    def __getattr__(self, name: str) -> Any:
        import networkx  # type: ignore[import-untyped]

        return getattr(networkx, name)


nx: Any = _Networkx()
