"""``python -m engine``: the stable command line that other tools depend on."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.randomplay import random_records

from .decks import deck_for

DATA = Path(__file__).resolve().parent / "data"
GOOD = random_records(seed=3, count=1).__next__().to_json()


def run(*args: str, stdin: str = "") -> tuple[int, list[str]]:
    result = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, result.stdout.splitlines()


def run_in_process(
    *args: str, stdin: str = "", monkeypatch: pytest.MonkeyPatch
) -> tuple[int, list[str]]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(args), out=out)
    return status, out.getvalue().splitlines()


def test_replay_prints_one_outcome_per_record(tmp_path: Path) -> None:
    status, lines = run("replay", str(DATA / "independent-engine-hands.jsonl"))
    assert status == 0 and len(lines) == 500
    first = json.loads((DATA / "independent-engine-hands.jsonl").read_text().splitlines()[0])
    assert json.loads(lines[0]) == first["outcome"]


def test_replay_reads_stdin_and_a_single_json_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(GOOD, indent=2))
    status, lines = run_in_process("replay", str(path), monkeypatch=monkeypatch)
    assert status == 0 and [json.loads(x) for x in lines] == [GOOD["outcome"]]
    status, lines = run_in_process(
        "replay", "-", stdin=json.dumps(GOOD) + "\n\n", monkeypatch=monkeypatch
    )
    assert status == 0 and [json.loads(x) for x in lines] == [GOOD["outcome"]]


def test_an_unfinished_hand_lists_who_is_to_act(monkeypatch: pytest.MonkeyPatch) -> None:
    record = dict(GOOD, actions=[])
    status, lines = run_in_process("replay", "-", stdin=json.dumps(record), monkeypatch=monkeypatch)
    outcome = json.loads(lines[0])
    assert status == 0 and outcome["complete"] is False
    assert outcome["to_act"] == [1 - record["dealer"]]


@pytest.mark.parametrize(
    "line, rule, index",
    [
        ("{not json", "format", None),
        ('{"format": "schnapsen-record/2"}', "format", None),
        ("[1, 2]", "format", None),
        (json.dumps(dict(GOOD, deck=["ZZ"] * 20)), "R1", None),
        (json.dumps(dict(GOOD, dealer=5)), "R2", None),
        (json.dumps(dict(GOOD, variants=["no-such-variant"])), "format", None),
        (json.dumps(dict(GOOD, actions=[{"seat": 0, "action": "play", "card": "XY"}])), "R0", 0),
        (json.dumps(dict(GOOD, actions=[{"seat": 0, "action": "dance"}])), "R0", 0),
        (
            json.dumps(dict(GOOD, actions=[*GOOD["actions"], GOOD["actions"][0]])),
            "R0",
            len(GOOD["actions"]),
        ),
    ],
)
def test_a_bad_record_prints_an_error_object_and_exits_1(
    line: str, rule: str, index: int | None
) -> None:
    status, lines = run("replay", "-", stdin=f"{line}\n{json.dumps(GOOD)}\n")
    assert status == 1
    error = json.loads(lines[0])["error"]
    assert (error["rule"], error["index"]) == (rule, index) and error["message"]
    assert json.loads(lines[1]) == GOOD["outcome"]  # the good record after it is still replayed


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[" * 200_000, "nested too deeply"),
        ('{"format": 1' + "0" * 5000 + "}", "digits"),
        ('{"format": "schnapsen-record/1", "format": "x"}', "appears twice"),
        ('{"format": "schnapsen-record/1", "x": NaN}', "NaN"),
        ('{"format": "schnapsen-record/1", "x": -Infinity}', "Infinity"),
    ],
)
def test_hostile_json_is_an_error_object(tmp_path: Path, text: str, fragment: str) -> None:
    for name in ("hands.jsonl", "hand.json"):
        (tmp_path / name).write_text(text + "\n")
        status, lines = run("replay", str(tmp_path / name))
        error = json.loads(lines[0])["error"]
        assert status == 1 and error["rule"] == "format" and fragment in error["message"]


def test_a_file_that_is_not_utf8_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_bytes(b"\xff\xfe\n")
    status, lines = run("legal", str(tmp_path / "bad.jsonl"))
    assert status == 1 and "cannot read" in json.loads(lines[0])["error"]["message"]


def test_one_line_that_is_not_utf8_is_an_error_for_that_line_only(tmp_path: Path) -> None:
    good = json.dumps(GOOD).encode()
    latin1 = json.dumps(dict(GOOD, player="Jörg"), ensure_ascii=False).encode("latin-1")
    data = b"\n".join([good, latin1, good]) + b"\n"
    (tmp_path / "hands.jsonl").write_bytes(data)
    for status, lines in [
        run("replay", str(tmp_path / "hands.jsonl")),
        run_bytes("replay", "-", stdin=data),
    ]:
        assert status == 1 and len(lines) == 3
        assert json.loads(lines[0]) == json.loads(lines[2]) == GOOD["outcome"]
        error = json.loads(lines[1])["error"]
        assert (error["rule"], error["index"]) == ("format", None)
        assert error["message"].startswith("line 2: cannot read it as UTF-8: byte 0xf6")


def run_bytes(*args: str, stdin: bytes) -> tuple[int, list[str]]:
    result = subprocess.run(
        [sys.executable, "-m", "engine", *args], input=stdin, capture_output=True
    )
    assert b"Traceback" not in result.stderr, result.stderr
    return result.returncode, result.stdout.decode().splitlines()


def test_a_missing_file_is_an_error_not_a_traceback() -> None:
    status, lines = run("replay", "/no/such/file.jsonl")
    assert status == 1 and json.loads(lines[0])["error"]["rule"] == "format"


def test_usage_errors_exit_2_without_a_traceback() -> None:
    assert run("random", "--seed", "x", "--count", "1")[0] == 2
    assert run("frobnicate")[0] == 2


def test_legal_lists_both_seats_after_a_marriage_lead(monkeypatch: pytest.MonkeyPatch) -> None:
    record = {
        "format": "schnapsen-record/1",
        "variants": [],
        "dealer": 0,
        "deck": deck_for("KS QS KH QH JC", "AS TS AC TC JS", "AH"),
        "actions": [{"seat": 1, "action": "play", "card": "KS", "marriage": True}],
    }
    status, lines = run_in_process("legal", "-", stdin=json.dumps(record), monkeypatch=monkeypatch)
    legal = json.loads(lines[0])
    assert status == 0
    assert {"seat": 1, "action": "claim"} in legal
    assert {"seat": 0, "action": "play", "card": "AS"} in legal
    assert all(a["seat"] in (0, 1) for a in legal)


def test_legal_is_empty_after_a_claim_and_errors_like_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ended = [r.to_json() for r in random_records(5, 30)]
    lines = run_in_process(
        "legal", "-", stdin="\n".join(json.dumps(r) for r in ended), monkeypatch=monkeypatch
    )[1]
    for record, line in zip(ended, lines, strict=True):
        if record["actions"][-1]["action"] == "claim":
            assert json.loads(line) == []
    status, lines = run_in_process("legal", "-", stdin="{oops", monkeypatch=monkeypatch)
    assert status == 1 and "error" in json.loads(lines[0])


def test_random_is_deterministic_and_exercises_every_kind_of_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    a = run_in_process("random", "--seed", "11", "--count", "300", monkeypatch=monkeypatch)[1]
    b = run_in_process("random", "--seed", "11", "--count", "300", monkeypatch=monkeypatch)[1]
    assert a == b and len(a) == 300
    records = [json.loads(line) for line in a]
    kinds = {x["action"] for r in records for x in r["actions"]}
    assert kinds == {"play", "exchange", "close", "claim"}
    assert any(x.get("marriage") for r in records for x in r["actions"])
    reasons = {r["outcome"]["reason"] for r in records}
    assert reasons == {"claim", "false_claim", "last_trick", "closer_failed"}
    status, replayed = run_in_process("replay", "-", stdin="\n".join(a), monkeypatch=monkeypatch)
    assert status == 0 and [json.loads(x) for x in replayed] == [r["outcome"] for r in records]


def test_random_takes_variants(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = run_in_process(
        "random",
        "--seed",
        "2",
        "--count",
        "5",
        "--variant",
        "no-close-at-two",
        "--variant",
        "marriage-king-lead",
        monkeypatch=monkeypatch,
    )[1]
    assert all(
        json.loads(x)["variants"] == ["no-close-at-two", "marriage-king-lead"] for x in lines
    )
