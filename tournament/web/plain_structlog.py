"""structlog, imported without ``rich`` (start-up speed, speed P10).

Importing structlog imports its development console renderer (``structlog.dev``), which
imports ``rich`` when it is installed (it is in a development checkout, pulled in by a
test tool): some 70 ms of a ``tournament serve`` start for a renderer this service never
uses -- its logs are JSON lines (:mod:`tournament.web.ops`). While structlog is first
imported here, ``rich`` is hidden (``sys.modules[name] = None`` makes its import fail
as if it were not installed), then unhidden: anything that imports rich later gets it,
and structlog's console renderer works as without rich. Where rich was imported already,
nothing is hidden.
"""

from __future__ import annotations

import sys

#: What structlog.dev imports only for its console renderer's colours and tracebacks.
OPTIONAL = ("rich", "better_exceptions")

if "structlog" not in sys.modules:
    _hidden = [name for name in OPTIONAL if name not in sys.modules]
    for _name in _hidden:
        sys.modules[_name] = None  # type: ignore[assignment]
    try:
        import structlog
    finally:
        for _name in _hidden:
            if sys.modules.get(_name, False) is None:
                del sys.modules[_name]
else:
    import structlog

__all__ = ["structlog"]
