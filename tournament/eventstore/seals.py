"""Seals: the whole log's head at a position, authenticated with a key kept outside the
database.

Each stream's hash chain shows a row edited behind the store's back, but anyone who can
write rows can also recompute the chains. A seal closes that gap. It is written at
intervals (every :data:`EVERY_EVENTS` events or :data:`EVERY_SECONDS` seconds, checked
after each append), at the end of every round, and before anything is printed or
exported. It holds:

* ``position``: the log's last event it covers, and ``events``, how many there are up to
  it;
* ``head``: the log's head hash there, :func:`~.chain.log_link` folded over every event in
  position order, so that deleting, reordering, renumbering or rewriting any event of any
  stream changes it;
* ``digests``: ``position:hash16`` of each event since the previous seal, so that
  ``verify`` names the first event that no longer matches;
* ``mac``: HMAC-SHA256 of all of it with the seal key. The key is never in the database:
  ``SCHNAPSEN_SEAL_KEY`` (64 hex digits), the file ``SCHNAPSEN_SEAL_KEY_FILE``, or
  ``instance/seal.key`` (made on first use, readable by its owner only). Retired keys
  (the keyring) and rotating: :mod:`.seal_keys`.

Its short form (:attr:`Seal.short`, ``#12 @4211 7KQM-3XJ9``) goes on every printed sheet
and export: a sheet pinned on the wall proves later that the log behind it was not
rewritten (``tournament verify --seal '#12 @4211 7KQM-3XJ9'``).

    >>> key = SealKey(bytes(32))
    >>> key.key_id
    'k0074cb70d4f1'
    >>> s = Seal(1, 2, 2, "ab" * 32, "1:aa,2:bb", datetime(2026, 11, 22, tzinfo=UTC),
    ...          "test", key.key_id, "")
    >>> s = dataclasses.replace(s, mac=key.mac(s.message()))
    >>> s.short
    '#1 @2 MHB9-XFXR'
    >>> parse_short(s.short)
    (1, 2, 'MHB9XFXR')
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import os
import re
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tournament.eventstore.chain import GENESIS, canonical, format_time, log_link
from tournament.eventstore.errors import EventStoreError

if TYPE_CHECKING:
    from tournament.eventstore.store import SQLEventStore

FORMAT = "schnapsen-seal/1"
#: A seal after this many events since the last one, or this many seconds (checked
#: after each append; see SealPolicy).
EVERY_EVENTS = 1000
EVERY_SECONDS = 60.0
#: At most this many events in one seal (its digests stay small); more make more seals.
MAX_EVENTS = 10_000
KEY_FILE = "seal.key"
#: How much of each event's hash a seal's digests keep (64 bits).
DIGEST_CHARS = 16
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class SealKeyError(EventStoreError):
    """The seal key is missing, unreadable or malformed."""


@dataclasses.dataclass(frozen=True)
class SealKey:
    """The secret seals are authenticated with; ``key_id`` names it without revealing it."""

    secret: bytes = dataclasses.field(repr=False)

    @property
    def key_id(self) -> str:
        return "k" + hashlib.sha256(b"schnapsen-seal-key:" + self.secret).hexdigest()[:12]

    def mac(self, message: str) -> str:
        return hmac.new(self.secret, message.encode(), hashlib.sha256).hexdigest()


def key_path(environ: Mapping[str, str] | None = None) -> Path:
    """The file the key is read from unless ``SCHNAPSEN_SEAL_KEY`` gives it:
    ``SCHNAPSEN_SEAL_KEY_FILE``, else ``<instance>/seal.key``."""
    from tournament.config import instance_path

    env = os.environ if environ is None else environ
    named = env.get("SCHNAPSEN_SEAL_KEY_FILE", "").strip()
    return Path(named).expanduser() if named else instance_path(env) / KEY_FILE


def load_key(environ: Mapping[str, str] | None = None, *, create: bool = True) -> SealKey:
    """The seal key: ``SCHNAPSEN_SEAL_KEY`` (hex), else the file ``SCHNAPSEN_SEAL_KEY_FILE``,
    else ``<instance>/seal.key``, made (random, mode 0600) if ``create`` and missing."""
    env = os.environ if environ is None else environ
    text = env.get("SCHNAPSEN_SEAL_KEY", "").strip()
    if text:
        return parse_key(text, "SCHNAPSEN_SEAL_KEY")
    named = env.get("SCHNAPSEN_SEAL_KEY_FILE", "").strip()
    path = key_path(env)
    try:
        return parse_key(path.read_text().strip(), str(path))
    except FileNotFoundError:
        if named or not create:
            raise SealKeyError(f"the seal key file {path} does not exist") from None
    except OSError as error:
        raise SealKeyError(f"the seal key file {path} cannot be read: {error.strerror}") from None
    return _new_key_file(path)


def key_stamp(environ: Mapping[str, str] | None = None) -> tuple[object, ...]:
    """What :func:`load_key` would read, cheaply: the settings and the key file's identity
    (inode, change time, size; None: not there). A new stamp means the key may have
    changed (rotated, removed) and is read again."""
    env = os.environ if environ is None else environ
    text = env.get("SCHNAPSEN_SEAL_KEY", "").strip()
    path = key_path(env)
    try:
        seen = path.stat()
    except OSError:
        return (text, str(path), None)
    return (text, str(path), (seen.st_ino, seen.st_mtime_ns, seen.st_ctime_ns, seen.st_size))


def available_key(environ: Mapping[str, str] | None = None) -> SealKey | None:
    """The seal key if one is configured or kept here (never makes one: verify, import)."""
    from tournament.config import instance_path

    env = os.environ if environ is None else environ
    configured = (
        env.get("SCHNAPSEN_SEAL_KEY", "").strip() or env.get("SCHNAPSEN_SEAL_KEY_FILE", "").strip()
    )
    if configured or (instance_path(env) / KEY_FILE).is_file():
        return load_key(env, create=False)
    return None


def parse_key(text: str, where: str) -> SealKey:
    """The key written as hex in ``text`` (``where``: where it was read, for the error)."""
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        raise SealKeyError(f"{where}: a seal key is 64 hex digits") from None
    if len(secret) < 32:
        raise SealKeyError(f"{where}: a seal key is 64 hex digits, not {len(text)}")
    return SealKey(secret)


def _new_key_file(path: Path) -> SealKey:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:  # O_EXCL: two processes starting at once end up with the same key
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return parse_key(path.read_text().strip(), str(path))
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_hex(32) + "\n")
    return parse_key(path.read_text().strip(), str(path))


@dataclasses.dataclass(frozen=True)
class Seal:
    seq: int
    position: int
    events: int
    head: str
    digests: str
    sealed_at: datetime
    reason: str
    key_id: str
    mac: str

    def message(self) -> str:
        """The authenticated text: every field but the MAC (the digests by their hash)."""
        return canonical(
            [
                FORMAT, self.seq, self.position, self.events, self.head,
                hashlib.sha256(self.digests.encode()).hexdigest(),
                format_time(self.sealed_at), self.reason, self.key_id,
            ]
        )  # fmt: skip

    @property
    def code(self) -> str:
        """The MAC's first 40 bits in Crockford's base32: eight characters for paper."""
        number = int(self.mac[:10] or "0", 16)
        return "".join(_CROCKFORD[(number >> shift) & 31] for shift in range(35, -5, -5))

    @property
    def short(self) -> str:
        """``#seq @position CODE``: what printed sheets and exports carry."""
        return f"#{self.seq} @{self.position} {self.code[:4]}-{self.code[4:]}"

    def digest_list(self) -> list[tuple[int, str]]:
        """The sealed ``(position, hash16)`` of each event since the previous seal."""
        if not self.digests:
            return []
        out = []
        for item in self.digests.split(","):
            position, _, digest = item.partition(":")
            out.append((int(position), digest))
        return out

    @classmethod
    def from_record(cls, record: Mapping[str, Any], sealed_at: datetime) -> Seal:
        """A seal from its backup line (fields checked by .backup_lines)."""
        return cls(
            record["seal"], record["position"], record["events"], record["head"],
            record["digests"], sealed_at, record["reason"], record["key_id"], record["mac"],
        )  # fmt: skip

    def as_record(self) -> dict[str, Any]:
        """The seal as a backup line (``tournament export``)."""
        record = dataclasses.asdict(self)
        record["sealed_at"] = format_time(self.sealed_at)
        return {"seal": record.pop("seq"), **record}


_SHORT = re.compile(r"^\s*#?\s*(\d+)\s*@?\s*(\d+)\s+([0-9A-Za-z]{4})-?([0-9A-Za-z]{4})\s*$")


def parse_short(text: str) -> tuple[int, int, str]:
    """``(seq, position, code)`` of a seal's short form as printed (``#12 @4211 7KQM-3XJ9``;
    case and the ``#``/``@``/``-`` do not matter; O reads as 0, I and L as 1)."""
    match = _SHORT.match(text)
    if match is None:
        raise SealKeyError(
            f"{text!r:.60} is not a seal's short form: '#SEAL @EVENT CODE', e.g. "
            "'#12 @4211 7KQM-3XJ9' as printed on a sheet"
        )
    code = (match.group(3) + match.group(4)).upper()
    code = code.replace("O", "0").replace("I", "1").replace("L", "1")
    return int(match.group(1)), int(match.group(2)), code


def digests_text(rows: Iterable[tuple[int, str]]) -> str:
    """A seal's ``digests``: ``position:hash16`` of each ``(position, hash)``."""
    return ",".join([f"{position}:{digest[:DIGEST_CHARS]}" for position, digest in rows])


def fold(head: str, rows: Sequence[tuple[int, str]]) -> tuple[str, int, str]:
    """The log's head after ``(position, hash)`` rows, how many, and their digests text."""
    for position, digest in rows:
        head = log_link(head, position, digest)
    return head, len(rows), digests_text(rows)


def seal(store: SQLEventStore, key: SealKey, reason: str) -> Seal | None:
    """Seal every event not sealed yet (several seals if there are more than
    :data:`MAX_EVENTS`); returns the latest seal (None: an empty log, nothing to seal).

    Another process sealing at the same moment is no error: its seal stands and this one
    is computed again on top of it.
    """
    backend = store._backend
    for _ in range(100):
        last = backend.last_seal()
        after = last.position if last else 0
        rows = backend.read_all(after, MAX_EVENTS)
        if not rows and (last is None or last.key_id == key.key_id):
            return last
        # No new event but the last seal is another key's (the key was rotated): the same
        # head sealed again, so that a log at rest carries a seal by the current key.
        head, count, digests = fold(last.head if last else GENESIS, [(r[0], r[10]) for r in rows])
        sealed_at = backend.clock()
        if last is not None and sealed_at < last.sealed_at:
            sealed_at = last.sealed_at  # a clock set back: seals never go back in time
        new = Seal(
            (last.seq if last else 0) + 1, rows[-1][0] if rows else after,
            (last.events if last else 0) + count,
            head, digests, sealed_at, reason[:200], key.key_id, "",
        )  # fmt: skip
        new = dataclasses.replace(new, mac=key.mac(new.message()))
        if backend.add_seal(new) and len(rows) < MAX_EVENTS:
            return new
    raise EventStoreError("could not seal the log: other processes kept sealing first")


@dataclasses.dataclass
class SealPolicy:
    """When appends seal the log: every ``every_events`` events or ``every_seconds``
    seconds since the last seal. Remembers the last seal it knows of, so that most
    appends ask the database nothing."""

    #: None: :func:`load_key` when a seal is due (a read needs no key), and again whenever
    #: the key file changed since (:func:`key_stamp`): a rotated key is used without a
    #: restart, and a key file removed stops the sealing loudly (warnings, ``/readyz``).
    given_key: SealKey | None = None
    every_events: int = EVERY_EVENTS
    every_seconds: float = EVERY_SECONDS
    _known: tuple[int, float] | None = None  # (position, monotonic time) of the last seal
    _loaded: tuple[tuple[object, ...], SealKey] | None = None  # (key_stamp, key)

    @property
    def key(self) -> SealKey:
        if self.given_key is not None:
            return self.given_key
        stamp = key_stamp()
        if self._loaded is None or self._loaded[0] != stamp:
            self._loaded = (stamp, load_key())
        return self._loaded[1]

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> SealPolicy:
        """``SCHNAPSEN_SEAL_EVERY_EVENTS`` and ``SCHNAPSEN_SEAL_EVERY_SECONDS`` (defaults
        :data:`EVERY_EVENTS`, :data:`EVERY_SECONDS`); the key as :func:`load_key`."""
        env = os.environ if environ is None else environ
        try:
            events = int(env.get("SCHNAPSEN_SEAL_EVERY_EVENTS") or EVERY_EVENTS)
            seconds = float(env.get("SCHNAPSEN_SEAL_EVERY_SECONDS") or EVERY_SECONDS)
        except ValueError:
            raise SealKeyError(
                "SCHNAPSEN_SEAL_EVERY_EVENTS and SCHNAPSEN_SEAL_EVERY_SECONDS are numbers"
            ) from None
        return cls(None, max(events, 1), max(seconds, 0.0))

    def after_append(self, store: SQLEventStore, position: int) -> Seal | None:
        now = time.monotonic()
        if self._known is None:
            last = store._backend.last_seal()
            if last is None:  # never sealed: now
                self._known = (0, float("-inf"))
            else:
                age = (datetime.now(UTC) - last.sealed_at).total_seconds()
                self._known = (last.position, now - max(age, 0.0))
        sealed, since = self._known
        if position - sealed < self.every_events and now - since < self.every_seconds:
            return None
        done = seal(store, self.key, "interval")
        self._known = (done.position if done else 0, time.monotonic())
        return done
