"""The seal a printed sheet, an export or an API answer carries (issue 8): the log is
sealed after what the sheet shows was read and before it is written out, so the seal
covers everything on it; ``tournament verify --seal SHORT`` checks it later.

A store that cannot be sealed now (no seal key, a read-only file or drive, a PostgreSQL
role without EXECUTE on ``es_seal``) still gives the sheet a seal: the log's last, which
covers the log up to its position only (``now`` is False), or none. Never an error: the
sheet matters more; ``error`` says why, for the caller to warn about.

    sheet = seal_for_sheet(store, "standings of club printed")
    sheet.short     # '#12 @4211 7KQM-3XJ9', or None: the log has no seal
"""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class SheetSeal:
    """The seal a sheet carries: its short form (None: the log has none), whether it
    covers the whole log as read (else it is the log's last and events came after it),
    and why the log could not be sealed now (None: it was)."""

    short: str | None
    now: bool = True
    error: Exception | None = None


def seal_for_sheet(store: Any, reason: str) -> SheetSeal:
    """Seal the log of ``store`` for a sheet about to be written (``reason``: what, for the
    seal's record); a store that cannot be sealed gives its last seal and the error."""
    try:
        seal = store.seal(reason)
    except Exception as error:  # whatever stops it, the sheet is written (module docstring)
        failure = error
    else:
        return SheetSeal(seal.short if seal is not None else None)
    try:
        last = store.latest_seal()
        # Nothing appended after it (a read-only store sealed before): it covers the sheet.
        covers = last is not None and not store.read_all(last.position, limit=1)
    except Exception:  # a store that cannot even be read was refused before this
        last, covers = None, False
    return SheetSeal(last.short if last is not None else None, now=covers, error=failure)
