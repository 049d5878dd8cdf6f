"""Writing a backup file so that a crash never leaves half a backup, nor hidden debris.

``tournament export club.jsonl`` writes ``club.jsonl.unfinished-export`` beside the file,
flushes it to disk and renames it over ``club.jsonl`` when it is complete: the previous
backup stays whole until the new one replaces it. A process killed half-way (kill -9, a
power cut) leaves that visibly named file, never a hidden one; the next export removes
every such file in the folder that no running export holds (each export holds an
exclusive ``flock`` on its own while it writes).

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / ("old.jsonl" + SUFFIX)).write_text("{")  # what a killed export left
    1
    >>> with replacing(folder / "club.jsonl") as out:
    ...     _ = out.write('{"format": "schnapsen-eventstore/2"}\\n')
    >>> sorted(p.name for p in folder.iterdir())
    ['club.jsonl']
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from tournament.eventstore.errors import EventStoreError

#: What an export in progress, or one that was killed, is called beside its target.
SUFFIX = ".unfinished-export"


class ExportBusyError(EventStoreError):
    """Another export is writing the same file right now."""


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[IO[str]]:
    """A text file that becomes ``path`` when the block completes; nothing changes at
    ``path`` if it raises (and the unfinished file is removed)."""
    partial = path.with_name(path.name + SUFFIX)
    _remove_stale(path.parent, keep=partial)
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ExportBusyError(
                f"another export to {path} is running (it writes {partial.name}); nothing written"
            ) from None
        try:
            os.ftruncate(fd, 0)  # a killed export's leftover under this very name
            if path.is_file():  # the new backup keeps the old one's permissions
                os.chmod(partial, path.stat().st_mode & 0o7777)
            with os.fdopen(os.dup(fd), "w", encoding="utf-8") as out:
                yield out
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(partial)
            raise
        _sync_folder(path.parent)
    finally:
        os.close(fd)  # releases the lock


def _remove_stale(folder: Path, keep: Path) -> None:
    """Remove unfinished exports in ``folder`` that no export holds any more: killed ones
    (each is only ever a partial copy of a backup that was never completed)."""
    try:
        leftovers = [p for p in folder.glob(f"*{SUFFIX}") if p != keep and p.is_file()]
    except OSError:
        return
    for leftover in leftovers:
        with contextlib.suppress(OSError):
            fd = os.open(leftover, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held: a running export
                leftover.unlink()
            except BlockingIOError:
                pass
            finally:
                os.close(fd)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (the folder's entry), where the system allows."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
