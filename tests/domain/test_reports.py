"""Players report from the table (T-code): matching reports record the result once with
source players; a mismatch or a dispute goes to the organiser's queue; expired and
revoked codes are refused; a result reported twice is stored once."""

from __future__ import annotations

import pytest

from tournament.domain.commands.reports import (
    accept_report,
    confirm_report,
    dismiss,
    dispute_report,
    queue,
    reports_of,
    revoke_codes,
    submit_report,
)
from tournament.domain.commands.results import record_tallies
from tournament.domain.commands.tablecodes import match_codes
from tournament.domain.model import events as ev
from tournament.domain.model.errors import ConflictError, DomainError, NotFoundError
from tournament.domain.testing import Builder, paired

SECRET = b"club secret"
#: Seat 0 wins both Bummerl, the opponent scoring in each (no Schneider, R19): 2:0.
SHEET = ["7 4 1 0 / 7 6", "7 5 2 0 / 7 6"]
OTHER_SHEET = ["7 4 1 0 / 7 6", "7 6 / 7 4 1 0", "7 5 2 0 / 7 6"]


def started() -> tuple[Builder, str, str]:
    b = Builder(paired(players=4, best_of=3))
    a, o = match_codes(SECRET, b.state, b.state.matches["1.1"])
    return b, a, o


def test_a_report_waits_for_the_opponent_and_records_nothing_yet() -> None:
    b, a, _ = started()
    new = b.add(submit_report(b.state, SECRET, a, SHEET, actor="table"))
    assert [e.type for e in new] == [ev.REPORT_SUBMITTED]
    assert new[0].metadata["source"] == "players"
    match = b.state.matches["1.1"]
    assert not match.entries
    assert reports_of(b.state, match).reports[0].texts == tuple(SHEET)


def test_the_opponent_confirms_and_the_result_is_recorded_with_source_players() -> None:
    b, a, o = started()
    b.add(submit_report(b.state, SECRET, a, SHEET))
    new = b.add(confirm_report(b.state, SECRET, o))
    assert [e.type for e in new] == [ev.REPORT_CONFIRMED] + [ev.TALLY_RECORDED] * 2
    assert {e.metadata["source"] for e in new} == {"players"}
    match = b.state.matches["1.1"]
    assert match.decided and match.winner == match.players[0]
    assert match.summary.bummerl == (2, 0)
    book = reports_of(b.state, match)
    assert book.recorded and book.reports[0].confirmed_by == 1
    assert not queue(b.state)


def test_matching_reports_from_both_phones_record_the_result_once() -> None:
    b, a, o = started()
    b.add(submit_report(b.state, SECRET, a, SHEET))
    new = b.add(submit_report(b.state, SECRET, o, [" 7 4 1 0/7 6 ", "7 5 2 0 / 7 6", ""]))
    assert [e.type for e in new][:2] == [ev.REPORT_SUBMITTED, ev.REPORT_CONFIRMED]
    assert len(b.state.matches["1.1"].entries) == 2


def test_a_result_reported_twice_is_stored_once() -> None:
    b, a, o = started()
    b.add(submit_report(b.state, SECRET, a, SHEET))
    assert submit_report(b.state, SECRET, a, SHEET) == []  # the same report again
    b.add(confirm_report(b.state, SECRET, o))
    assert confirm_report(b.state, SECRET, o) == []
    assert submit_report(b.state, SECRET, o, SHEET) == []
    assert len(b.state.matches["1.1"].entries) == 2


def test_a_result_reported_otherwise_than_recorded_is_disputed() -> None:
    b, a, o = started()
    b.add(submit_report(b.state, SECRET, a, SHEET))
    b.add(confirm_report(b.state, SECRET, o))
    new = b.add(submit_report(b.state, SECRET, o, OTHER_SHEET))
    assert [e.type for e in new] == [ev.REPORT_SUBMITTED, ev.RESULT_DISPUTED]
    assert [m.match_id for m, _ in queue(b.state)] == ["1.1"]
    assert b.state.matches["1.1"].summary.bummerl == (2, 0)  # the recorded result stays


def test_reports_that_differ_go_to_the_queue_and_record_nothing() -> None:
    b, a, o = started()
    b.add(submit_report(b.state, SECRET, a, SHEET))
    new = b.add(submit_report(b.state, SECRET, o, OTHER_SHEET))
    assert [e.type for e in new] == [ev.REPORT_SUBMITTED, ev.RESULT_DISPUTED]
    assert new[1].payload["mismatch"] is True
    assert not b.state.matches["1.1"].entries
    [(match, book)] = queue(b.state)
    assert match.match_id == "1.1" and set(book.reports) == {0, 1}


def test_a_dispute_with_a_reason_goes_to_the_queue() -> None:
    b, a, o = started()
    b.add(submit_report(b.state, SECRET, a, SHEET))
    b.add(dispute_report(b.state, SECRET, o, "  the last hand was a false claim "))
    [(_, book)] = queue(b.state)
    assert book.disputes[-1].reason == "the last hand was a false claim"
    assert book.disputes[-1].seat == 1
    with pytest.raises(DomainError) as refused:
        dispute_report(b.state, SECRET, o, "   ")
    assert refused.value.field == "reason"


def test_the_organiser_accepts_one_report_as_the_result() -> None:
    b, a, o = started()
    b.add(submit_report(b.state, SECRET, a, SHEET))
    b.add(submit_report(b.state, SECRET, o, OTHER_SHEET))
    new = b.add(accept_report(b.state, "1.1", 1, actor="organiser"))
    assert [e.type for e in new][-1] == ev.REPORTS_SETTLED
    match = b.state.matches["1.1"]
    assert match.summary.bummerl == (2, 1)
    assert not queue(b.state)


def test_the_organiser_dismisses_a_dispute() -> None:
    b, a, _o = started()
    b.add(dispute_report(b.state, SECRET, a, "opponent left"))
    b.add(dismiss(b.state, "1.1"))
    assert not queue(b.state)
    assert dismiss(b.state, "1.1") == []


def test_a_sheet_the_rules_refuse_names_the_bummerl_and_rule() -> None:
    b, a, _ = started()
    with pytest.raises(DomainError) as refused:
        submit_report(b.state, SECRET, a, ["7 4 0 / 7", "7 5 2 0 / 7 6"])
    assert "R13" in str(refused.value) and "tally 1 of 2" in str(refused.value)
    with pytest.raises(DomainError, match="R20"):
        submit_report(b.state, SECRET, a, SHEET[:1])  # one Bummerl of a best of 3


def test_a_code_of_a_closed_round_is_refused_as_expired_T_code() -> None:
    b, a, o = started()
    b.add(submit_report(b.state, SECRET, a, SHEET))
    b.add(confirm_report(b.state, SECRET, o))
    m2 = b.state.matches["1.2"]
    code = match_codes(SECRET, b.state, m2)[0]
    b.add(submit_report(b.state, SECRET, code, SHEET))
    b.add(confirm_report(b.state, SECRET, match_codes(SECRET, b.state, m2)[1]))
    assert b.state.round_complete()
    with pytest.raises(ConflictError, match="expired") as refused:
        submit_report(b.state, SECRET, a, OTHER_SHEET)
    assert refused.value.rule == "T-code"


def test_revoked_codes_are_refused_T_code() -> None:
    b, a, _o = started()
    b.add(revoke_codes(b.state, match_id="1.1"))
    with pytest.raises(ConflictError, match="revoked"):
        submit_report(b.state, SECRET, a, SHEET)
    with pytest.raises(NotFoundError):
        submit_report(b.state, SECRET, "XXXXXX", SHEET)


def test_a_match_the_desk_decided_takes_a_matching_report_as_nothing_new() -> None:
    b, a, _ = started()
    match = b.state.matches["1.1"]
    b.add(record_tallies(b.state, "1.1", ["7 4 1 0 / 7 6", "7 5 2 0 / 7 6"]))
    assert match.decided
    assert submit_report(b.state, SECRET, a, ["7 4 1 0 / 7 6", "7 5 2 0 / 7 6"]) == []
    # the same game points per Bummerl written otherwise (both counts each hand) agree
    assert submit_report(b.state, SECRET, a, ["7:7 4:7 4:6 1:6 0:6", "7 5 2 0 / 7 6"]) == []
