"""The end of every round seals the log (issue 8): the standings after a round are what
gets printed and pinned on the wall, so the log behind them is sealed right then."""

from __future__ import annotations

from tournament.eventstore import SQLEventStore
from tournament.eventstore.seals import available_key
from tournament.eventstore.verify import verify


def test_the_result_that_ends_a_round_seals_the_log(cli) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--best-of", "1")
    for name in ("Anna", "Berti", "Carla", "Doris"):
        cli("players", "add", name)
    cli("round", "start")
    store = SQLEventStore()
    cli("results", "enter", "1.1", "--tally", "7 5 4 1 0 / 7 6 3")
    assert not any(s.reason.startswith("end of round") for s in store.seals())  # 1.2 open
    cli("results", "enter", "1.2", "--tally", "7 5 4 1 0 / 7 6 3")
    last = store.latest_seal()
    assert last is not None and last.reason.startswith("end of round 1 of ")
    assert last.position == store.read_all()[-1].position
    assert verify(store, key=available_key()).ok
    store.close()


def test_an_export_names_the_seal_its_backup_carries(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    cli("create", "Cup", "--best-of", "1")
    cli("players", "add", "Anna")
    out = cli("export", str(tmp_path / "club.jsonl")).output
    store = SQLEventStore()
    last = store.latest_seal()
    assert last is not None and out.endswith(f"; seal {last.short}\n")
    trailer = (tmp_path / "club.jsonl").read_text().splitlines()[-1]
    assert f'"seal": "{last.short}"' in trailer
    store.close()


def test_verify_without_the_seal_key_says_the_seals_were_not_authenticated(  # type: ignore[no-untyped-def]
    cli, monkeypatch
) -> None:
    cli("create", "Cup", "--best-of", "1")
    cli("players", "add", "Anna")
    cli("seal")
    monkeypatch.setenv("SCHNAPSEN_SEAL_KEY", "ab" * 32)  # another machine's key
    out = cli("verify").output
    assert "NOT AUTHENTICATED seal #1" in out
    n = len(SQLEventStore().seals())
    assert out.endswith(
        f"all chains verify and every seal matches the log; {n} of {n} seals could not be "
        "authenticated here (their key is not this machine's: SCHNAPSEN_SEAL_KEY_FILE "
        "names it, or a retired key in SCHNAPSEN_SEAL_KEYRING_DIR)\n"
    )


def test_a_printed_seal_the_log_does_not_hold_fails_verify_saying_which(  # type: ignore[no-untyped-def]
    cli,
) -> None:
    cli("create", "Cup", "--best-of", "1")
    held = SQLEventStore().latest_seal()
    assert held is not None
    gone = cli("verify", "--seal", "#9 @5 ABCD-EFGH", ok=False)
    assert gone.exit_code == 1
    assert (
        "BROKEN seal #9 @5 (printed) is not in the log, whose seals end at #1: check the "
        "sheet for a misread; if it is right, seals were removed"
    ) in gone.output
    other = "ZZZZ-ZZZZ" if held.code != "ZZZZZZZZ" else "0000-0000"
    replaced = cli("verify", "--seal", f"#1 @{held.position} {other}", ok=False)
    assert replaced.exit_code == 1
    assert (
        f"BROKEN seal #1 @{held.position} {other} (printed) is {held.short} in the log: the "
        "seal was replaced"
    ) in replaced.output
