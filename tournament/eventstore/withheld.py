"""Payloads a backup withholds: the events of a live hand still in play (F2).

A backup is read by people (an organiser who also plays, a copy on a club laptop), but
the deck of a hand being played is nobody's to read until the hand is over (rules.md,
"What a player may see"). So an export writes each event of such a hand (its stream
named by the caller's ``withhold``) with its payload *sealed*: XORed with a keystream
that only the seal key gives (HMAC-SHA256 of the key over the event's id and a block
counter), in a line that says so::

    {"position": 7, "event_id": "…", "stream_id": "hand-…", "version": 1,
     "type": "hand.dealt", "schema_version": 1,
     "payload": {"withheld": {"key_id": "k0074cb70d4f1", "sealed": "9f03…"}}, …, "hash": "…"}

Everything else of the line is as stored, the hash too: the hash is over the payload as
it was, so whoever restores the backup opens the payload with the seal key first and
then checks the chain as ever. An import (``tournament import``, ``POST /import``) and
``tournament verify`` of a file need the key the payload was sealed with: a machine
without it refuses the backup naming the line (nothing is stored), because a hand
whose deck is unknown could not be played on, and a chain whose payload cannot be read
cannot be checked.

    >>> key = SealKey(bytes(32))
    >>> text = '{"dealer":0,"deck":["QS","AH"],"variants":[]}'
    >>> sealed = seal_payload(key, "00000000-0000-0000-0000-000000000001", text)
    >>> "QS" in json.dumps(sealed)
    False
    >>> open_payload(sealed, "00000000-0000-0000-0000-000000000001", 3, key) == text
    True
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from tournament.eventstore.errors import ImportFormatError
from tournament.eventstore.seals import SealKey, SealKeyError, available_key

FIELD = "withheld"
_LABEL = b"schnapsen-withheld/1:"


def _keystream(key: SealKey, event_id: str, size: int) -> bytes:
    blocks = []
    for counter in range(-(-size // 32)):
        message = _LABEL + event_id.encode() + b":" + counter.to_bytes(4, "big")
        blocks.append(hmac.new(key.secret, message, hashlib.sha256).digest())
    return b"".join(blocks)[:size]


def _xor(data: bytes, stream: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, stream, strict=True))


def seal_payload(key: SealKey, event_id: str, payload_text: str) -> dict[str, Any]:
    """The line's payload for an event whose payload (its canonical text) is withheld."""
    data = payload_text.encode()
    sealed = _xor(data, _keystream(key, event_id, len(data)))
    return {FIELD: {"key_id": key.key_id, "sealed": sealed.hex()}}


def is_withheld(payload: Any) -> bool:
    """Whether a backup line's payload is a withheld one (and nothing else)."""
    return (
        isinstance(payload, dict)
        and set(payload) == {FIELD}
        and isinstance(payload[FIELD], dict)
        and set(payload[FIELD]) == {"key_id", "sealed"}
    )


def open_payload(
    payload: dict[str, Any], event_id: str, line: int, key: SealKey | None = None
) -> str:
    """The canonical text of a withheld payload, opened with the seal key (``key``, else
    this machine's); :class:`ImportFormatError` naming ``line`` without the right key."""
    held = payload[FIELD]
    key_id, sealed = held["key_id"], held["sealed"]
    if key is None:
        try:
            key = available_key()
        except SealKeyError as error:
            raise ImportFormatError(line, f"{_why(key_id)}: {error}; nothing imported") from None
    if key is None or key.key_id != key_id:
        key = _retired(key_id, line) or key  # a backup taken before a rotation (operator F8)
    if key is None or key.key_id != key_id:
        here = "no seal key here" if key is None else f"the seal key here is {key.key_id}"
        raise ImportFormatError(
            line,
            f"{_why(key_id)}, and {here}: restore it where that key is "
            "(SCHNAPSEN_SEAL_KEY, SCHNAPSEN_SEAL_KEY_FILE or instance/seal.key, or its keyring "
            "SCHNAPSEN_SEAL_KEYRING_DIR); nothing imported",
        )
    if not isinstance(sealed, str):
        raise ImportFormatError(line, "a withheld payload's 'sealed' is hex text")
    try:
        data = bytes.fromhex(sealed)
        text = _xor(data, _keystream(key, event_id, len(data))).decode()
        json.loads(text)
    except ValueError:
        raise ImportFormatError(line, "a withheld payload that does not open") from None
    return text


def _retired(key_id: Any, line: int) -> SealKey | None:
    """The keyring's retired key ``key_id`` (:mod:`.seal_keys`), if it is there."""
    from tournament.eventstore.seal_keys import retired_keys

    try:
        return retired_keys().get(str(key_id))
    except SealKeyError as error:
        raise ImportFormatError(line, f"{_why(key_id)}: {error}; nothing imported") from None


def _why(key_id: Any) -> str:
    return (
        "this event's payload (a hand still in play when the backup was taken) is "
        f"withheld under seal key {str(key_id)[:20]}"
    )
