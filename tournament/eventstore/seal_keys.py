"""Seal keys over time: the current key, the keyring of retired keys that only
authenticate old seals, and rotating from one to the next (operator F8, attack F11).

* The current key seals: ``SCHNAPSEN_SEAL_KEY`` (hex), else the file
  ``SCHNAPSEN_SEAL_KEY_FILE``, else ``<instance>/seal.key`` (:func:`.seals.load_key`).
* The keyring, ``SCHNAPSEN_SEAL_KEYRING_DIR`` (default: ``seal-keyring/`` next to the
  current key's file), holds retired keys, one file each (``<key_id>.key``, 64 hex
  digits, mode 0600). They never seal; ``verify`` uses them to authenticate the seals
  they once made, so a rotation (a board member leaves, a laptop is stolen) keeps every
  printed sheet checkable.
* A key that is *configured* but cannot be read is a fault, never "sealing off": the web
  service refuses to start (:func:`check_at_start`), ``/readyz`` says not ready
  (:func:`configured_key_problem`) and ``verify`` exits 1.

Rotating (:func:`rotate`): the current key is copied into the keyring first (a crash
after that loses nothing), then a new key replaces the file atomically, then the log is
sealed under the new key even if no event came since the last seal, so that the head
every tournament has now carries a seal by the new key. Running processes read the key
file again when it changes (:class:`.seals.SealPolicy`): no restart is needed.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from tournament.eventstore.seals import Seal, SealKey, SealKeyError, key_path, load_key, parse_key

if TYPE_CHECKING:
    from tournament.eventstore.store import SQLEventStore

KEYRING_DIR = "seal-keyring"


def _env(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def is_configured(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the operator named a key (else the instance's own is made on first use)."""
    env = _env(environ)
    return bool(
        env.get("SCHNAPSEN_SEAL_KEY", "").strip() or env.get("SCHNAPSEN_SEAL_KEY_FILE", "").strip()
    )


def key_file(environ: Mapping[str, str] | None = None) -> Path | None:
    """The current key's file (None: ``SCHNAPSEN_SEAL_KEY`` gives the key itself)."""
    env = _env(environ)
    if env.get("SCHNAPSEN_SEAL_KEY", "").strip():
        return None
    return key_path(env)


def keyring_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``SCHNAPSEN_SEAL_KEYRING_DIR``, else ``seal-keyring/`` beside the current key."""
    from tournament.config import instance_path

    env = _env(environ)
    named = env.get("SCHNAPSEN_SEAL_KEYRING_DIR", "").strip()
    if named:
        return Path(named).expanduser()
    current = key_file(env)
    return (current.parent if current is not None else instance_path(env)) / KEYRING_DIR


def retired_keys(environ: Mapping[str, str] | None = None) -> dict[str, SealKey]:
    """The keyring's keys by id ({}: no keyring); a file that cannot be read is an error
    naming it (a keyring that silently lost a key would un-authenticate old sheets)."""
    ring = keyring_dir(environ)
    if not ring.is_dir():
        return {}
    keys: dict[str, SealKey] = {}
    for path in sorted(ring.glob("*.key")):
        try:
            text = path.read_text().strip()
        except OSError as error:
            raise SealKeyError(
                f"the retired seal key {path} cannot be read: {error.strerror}"
            ) from None
        key = parse_key(text, str(path))
        keys[key.key_id] = key
    return keys


def configured_key_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """Why the configured seal key cannot be used now (None: it can, or none is
    configured and the instance's own is made on the first seal)."""
    if not is_configured(environ):
        return None
    try:
        load_key(environ, create=False)
    except SealKeyError as error:
        return str(error)
    return None


def check_at_start(environ: Mapping[str, str] | None = None) -> None:
    """Refuse to start a service whose configured seal key is missing or unreadable: it
    would run unsealed, the tamper evidence gone without anyone noticing (attack F11)."""
    problem = configured_key_problem(environ)
    if problem is not None:
        raise SealKeyError(
            f"{problem}: the log cannot be sealed; make it (tournament seal-key new) or fix "
            "SCHNAPSEN_SEAL_KEY_FILE"
        )


def write_key_file(path: Path, key: SealKey | None = None, owner: str | None = None) -> SealKey:
    """A new key file at ``path`` (never over an existing one), mode 0600, owned by
    ``owner`` (``user`` or ``user:group``) if given; ``key``: else a random one."""
    key = key if key is not None else SealKey(secrets.token_bytes(32))
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise SealKeyError(f"{path} exists already: a seal key is never overwritten") from None
    except OSError as error:
        raise SealKeyError(f"cannot write the seal key file {path}: {error.strerror}") from None
    with os.fdopen(fd, "w") as out:
        out.write(key.secret.hex() + "\n")
        out.flush()
        os.fsync(out.fileno())
    if owner:
        _chown(path, owner)
    return key


def _chown(path: Path, owner: str, *, remove: bool = True) -> None:
    """Give ``path`` to ``owner``; ``remove``: a file that cannot be given is removed
    (no key left behind for the wrong owner)."""
    user, _, group = owner.partition(":")
    try:
        if user and group:
            shutil.chown(path, user, group)
        elif user:
            shutil.chown(path, user=user)
        else:
            shutil.chown(path, group=group)
    except (LookupError, OSError) as error:
        if remove:
            path.unlink(missing_ok=True)
        raise SealKeyError(f"cannot give {path} to {owner}: {error}") from None


def _same_owner(path: Path, like: Path) -> None:
    """Give ``path`` the owner of ``like`` when this process may (root rotating the
    service's key): the service must still read its key after the rotation."""
    seen = like.stat()
    if os.geteuid() == 0 and (seen.st_uid, seen.st_gid) != (os.getuid(), os.getgid()):
        os.chown(path, seen.st_uid, seen.st_gid)


@dataclasses.dataclass(frozen=True)
class Rotation:
    old: SealKey
    new: SealKey
    retired_to: Path
    #: The first seal under the new key (None: the log is empty, nothing to seal).
    seal: Seal | None


def rotate(
    store: SQLEventStore, environ: Mapping[str, str] | None = None, owner: str | None = None
) -> Rotation:
    """Retire the current key into the keyring, make a new current key and seal the log
    with it (module docstring)."""
    path = key_file(environ)
    if path is None:
        raise SealKeyError(
            "the seal key is given in SCHNAPSEN_SEAL_KEY: rotating needs a key file "
            "(SCHNAPSEN_SEAL_KEY_FILE); see docs/operations.md, 'Rotating the seal key'"
        )
    old = load_key(environ, create=False)
    ring = keyring_dir(environ)
    if not ring.is_dir():
        ring.mkdir(mode=0o700, parents=True)
        # The keys' owner must be able to list their folder (verify and import run as
        # the service's user): a folder left to root would hide every retired key.
        try:
            if owner:
                _chown(ring, owner, remove=False)
            else:
                _same_owner(ring, path)
        except BaseException:
            ring.rmdir()  # made just now, empty: the next try makes it and gives it again
            raise
    retired_to = ring / f"{old.key_id}.key"
    if not (retired_to.is_file() and parse_key(retired_to.read_text().strip(), "") == old):
        write_key_file(retired_to, old, owner)
        _same_owner(retired_to, path)
    fresh = path.with_name(path.name + ".new")
    fresh.unlink(missing_ok=True)  # a rotation that stopped before the swap
    new = write_key_file(fresh, owner=owner)
    _same_owner(fresh, path)
    os.replace(fresh, path)  # atomic: a process reads the old key or the new, never half
    _sync_dir(path.parent)
    return Rotation(old, new, retired_to, store.seal("seal key rotated", key=new))


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
