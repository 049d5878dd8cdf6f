"""A backup carries the log's seals (format 3): an export seals the log first, an import
checks every seal against the file's events (and its MAC, where this machine has the key
it was made with), and the restored store keeps them."""

from __future__ import annotations

import json

import pytest

from tests.databases import Database
from tests.eventstore.test_backup_integrity import edited, exported, refused
from tests.eventstore.test_verify_backup import act, fill
from tournament.eventstore import ChainError, SQLEventStore
from tournament.eventstore.backup import import_store
from tournament.eventstore.backup_lines import parse_time
from tournament.eventstore.chain import GENESIS, canonical, event_hash
from tournament.eventstore.seals import Seal, available_key
from tournament.eventstore.verify import verify

#: Another machine's seal key (the tests' own is tests/conftest.py's TEST_SEAL_KEY).
ANOTHER_SEAL_KEY = "a7" * 32


@pytest.fixture
def source(sqlite_db: Database) -> SQLEventStore:
    """7 events sealed when a round ended (seal #1 @7), then one more not sealed yet."""
    store = SQLEventStore(sqlite_db.url)
    fill(store)
    store.seal("round 1 ended")
    store.append("c", [act()], 1)
    return store


@pytest.fixture
def backup(source: SQLEventStore) -> list[str]:
    """The source's export: header, 2 seals, 8 events, the key, the trailer (13 lines)."""
    return exported(source)


def refused_naming(target: SQLEventStore, lines: list[str], match: str) -> None:
    with pytest.raises(ChainError, match=match):
        import_store(target, lines, progress=False)
    assert target.read_all() == [] and target.seals() == []  # nothing stored


def test_an_export_seals_what_is_not_sealed_yet(source: SQLEventStore) -> None:
    exported(source)
    first, second = source.seals()
    assert (first.seq, first.position, first.reason) == (1, 7, "round 1 ended")
    assert (second.seq, second.position, second.events, second.reason) == (2, 8, 8, "export")


def test_an_export_of_a_sealed_log_adds_no_seal(source: SQLEventStore) -> None:
    exported(source)
    sealed = source.seals()
    exported(source)
    assert source.seals() == sealed


def test_an_export_carries_the_seals_and_the_last_ones_short_form(
    source: SQLEventStore, backup: list[str]
) -> None:
    latest = source.latest_seal()
    assert latest is not None
    assert [json.loads(line) for line in backup[1:3]] == [s.as_record() for s in source.seals()]
    assert json.loads(backup[3])["position"] == 1  # the events follow the seals
    trailer = json.loads(backup[-1])
    assert (trailer["seals"], trailer["seal"]) == (2, latest.short)


def test_a_restored_store_has_the_same_seals_and_verifies_with_them(
    source: SQLEventStore, backup: list[str], target: SQLEventStore
) -> None:
    notes: list[str] = []
    assert import_store(target, backup, progress=False, notes=notes) == 8
    assert notes == []
    assert target.seals() == source.seals()
    report = verify(target, key=available_key())
    assert report.ok, report.broken
    assert (report.seals, report.unsealed, report.unchecked) == (2, 0, [])


def _seal_edited(lines: list[str], index: int, **changes: object) -> list[str]:
    """The lines with the seal at ``index`` changed, and the trailer's short form made to
    match it: a thorough forger leaves only the MAC to give it away."""
    lines = edited(lines, index, **changes)
    record = json.loads(lines[index])
    short = Seal.from_record(record, parse_time(record["sealed_at"], index + 1)).short
    is_last = json.loads(lines[-1])["seals"] == record["seal"]
    return edited(lines, -1, seal=short) if is_last else lines


EDITED_SEALS = {
    "seal #1's head": (1, {"head": "0" * 64}),
    "seal #2's head": (2, {"head": "1" * 64}),
    "seal #2's digests": (2, {"digests": "8:" + "0" * 16}),
    "seal #2's mac": (2, {"mac": "0" * 64}),
    "seal #2's reason": (2, {"reason": "round 2 ended"}),
}


@pytest.mark.parametrize("case", sorted(EDITED_SEALS))
def test_a_backup_whose_seal_line_was_edited_is_refused_naming_the_seal(
    backup: list[str], target: SQLEventStore, case: str
) -> None:
    index, changes = EDITED_SEALS[case]
    refused_naming(
        target,
        _seal_edited(backup, index, **changes),
        rf"^line {index + 1}: log \(position \d\): seal #{index} \(.*\) does not "
        "authenticate with the seal key: the seal was changed or forged; nothing was imported$",
    )


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"head": "1" * 64}, "the log up to position 8 does not match seal #2 .*: head or count"),
        ({"digests": "8:" + "0" * 16}, r"seal #2 .* lists digests that are not its events'"),
    ],
)
def test_a_seal_made_with_another_key_must_still_match_the_events(
    backup: list[str],
    target: SQLEventStore,
    monkeypatch: pytest.MonkeyPatch,
    changes: dict[str, object],
    problem: str,
) -> None:
    # Without the key a forged seal cannot be told from a genuine one by its MAC; it
    # must still be a seal of the very events the file holds.
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY", ANOTHER_SEAL_KEY)
    refused_naming(target, _seal_edited(backup, 2, **changes), f"^line 3: log .*{problem}")


def test_a_seal_line_after_the_first_event_is_refused(
    backup: list[str], target: SQLEventStore
) -> None:
    moved = [backup[0], backup[1], backup[3], backup[2], *backup[4:]]
    refused(target, moved, "^line 4: a seal after the first event$")


def _rechained(lines: list[str], stream: str) -> list[str]:
    """The lines with ``stream``'s hash chain computed again over its events as they are
    now: what a forger who knows the chain's rule does after changing one of them."""
    out, prev = [], GENESIS
    for line in lines:
        data = json.loads(line)
        if data.get("stream_id") == stream and "hash" in data:
            data["prev_hash"] = prev
            data["hash"] = prev = event_hash(
                prev, stream, data["version"], data["event_id"], data["type"],
                data["schema_version"], data["recorded_at"], canonical(data["metadata"]),
                canonical(data["payload"]),
            )  # fmt: skip
            line = json.dumps(data, ensure_ascii=False)
        out.append(line)
    return out


def test_an_event_changed_and_its_chain_recomputed_is_refused_naming_its_line(
    backup: list[str], target: SQLEventStore
) -> None:
    # Line 5 is stream 'a' version 2 (position 2): seat 0 becomes seat 1, and the
    # stream's chain is made whole again; only the seal over it still knows.
    event = json.loads(backup[4])
    assert (event["stream_id"], event["version"], event["payload"]["seat"]) == ("a", 2, 0)
    forged = _rechained(edited(backup, 4, payload={"action": "close", "seat": 1}), "a")
    refused_naming(  # not "hash does not match": the chains hold
        target,
        forged,
        r"^line 5: stream 'a' version 2 \(position 2\): changed after seal #1 \(.*\); "
        "nothing was imported$",
    )


def test_a_backup_made_with_another_seal_key_imports_with_a_note(
    source: SQLEventStore,
    backup: list[str],
    target: SQLEventStore,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY", ANOTHER_SEAL_KEY)
    notes: list[str] = []
    assert import_store(target, backup, progress=False, notes=notes) == 8
    [note] = notes
    assert note.startswith(
        "2 of the backup's seals match its events but were made with another seal key, so "
        "their authenticity was not checked here (seal #1 ("
    )
    assert f"was made with key {source.seals()[0].key_id} (this machine's: k" in note
    assert target.seals() == source.seals()
