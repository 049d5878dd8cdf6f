"""Table codes (T-code): two per match, unambiguous letters, worked out from the secret,
changed by a revocation, refused once the round is closed."""

from __future__ import annotations

import pytest

from tournament.domain.commands.reports import revoke_codes
from tournament.domain.commands.tablecodes import (
    ALPHABET,
    code_for,
    match_codes,
    resolve,
    round_codes,
)
from tournament.domain.model.errors import ConflictError, NotFoundError
from tournament.domain.testing import Builder, paired, win

SECRET = b"club secret"


def test_two_codes_per_match_of_six_unambiguous_letters() -> None:
    b = Builder(paired(players=8))
    codes = round_codes(SECRET, b.state)
    assert len(codes) == 4
    every = [code for pair in codes.values() for code in pair]
    assert len(set(every)) == 8
    for code in every:
        assert len(code) == 6
        assert set(code) <= set(ALPHABET)
        assert not set(code) & set("ILO01")


def test_codes_are_worked_out_again_from_the_secret_and_nothing_is_stored() -> None:
    b = Builder(paired(players=4))
    match = b.state.matches["1.1"]
    assert match_codes(SECRET, b.state, match) == match_codes(SECRET, b.state, match)
    assert match_codes(b"another secret", b.state, match) != match_codes(SECRET, b.state, match)
    assert code_for(SECRET, "other", "1.1", seat=0) != match_codes(SECRET, b.state, match)[0]


def test_a_code_opens_its_seat_typed_in_small_letters_with_spaces() -> None:
    b = Builder(paired(players=4))
    match = b.state.matches["1.2"]
    first, second = match_codes(SECRET, b.state, match)
    found = resolve(SECRET, b.state, f" {second[:3].lower()} {second[3:]} ")
    assert (found.match_id, found.seat, found.player_id) == ("1.2", 1, match.players[1])
    assert resolve(SECRET, b.state, first).seat == 0


def test_a_wrong_code_is_unknown_T_code() -> None:
    b = Builder(paired(players=4))
    with pytest.raises(NotFoundError) as refused:
        resolve(SECRET, b.state, "AAAAAA")
    assert refused.value.rule == "T-code"


def test_revoked_codes_are_refused_and_new_ones_work_T_code() -> None:
    b = Builder(paired(players=4))
    old = match_codes(SECRET, b.state, b.state.matches["1.1"])
    other = match_codes(SECRET, b.state, b.state.matches["1.2"])
    b.add(revoke_codes(b.state, match_id="1.1"))
    new = match_codes(SECRET, b.state, b.state.matches["1.1"])
    assert set(new).isdisjoint(old)
    with pytest.raises(ConflictError, match="revoked"):
        resolve(SECRET, b.state, old[0])
    assert resolve(SECRET, b.state, new[0]).match_id == "1.1"
    assert match_codes(SECRET, b.state, b.state.matches["1.2"]) == other  # only that match


def test_revoking_the_round_changes_every_code_of_it() -> None:
    b = Builder(paired(players=4))
    before = round_codes(SECRET, b.state)
    b.add(revoke_codes(b.state))
    after = round_codes(SECRET, b.state)
    assert all(set(before[m]).isdisjoint(after[m]) for m in before)


def test_codes_expire_when_the_round_is_complete_T_code() -> None:
    b = Builder(paired(players=4))
    codes = round_codes(SECRET, b.state)
    win(b, "1.1", b.state.matches["1.1"].players[0])
    assert resolve(SECRET, b.state, codes["1.2"][0]).match_id == "1.2"  # still open
    win(b, "1.2", b.state.matches["1.2"].players[0])
    with pytest.raises(ConflictError, match="expired") as refused:
        resolve(SECRET, b.state, codes["1.2"][0])
    assert refused.value.rule == "T-code"


def test_codes_expire_when_the_next_round_is_drawn_T_code() -> None:
    from tournament.domain.commands.rounds import start_round

    b = Builder(paired(players=4))
    codes = round_codes(SECRET, b.state)
    for mid in ("1.1", "1.2"):
        win(b, mid, b.state.matches[mid].players[0])
    b.add(start_round(b.state))
    with pytest.raises(ConflictError, match="expired"):
        resolve(SECRET, b.state, codes["1.1"][1])


def test_a_round_cancelled_and_drawn_again_has_new_codes_and_no_old_reports() -> None:
    from tournament.domain.commands.reports import reports_of, submit_report
    from tournament.domain.commands.rounds import cancel_round, start_round

    b = Builder(paired(players=4, best_of=1))
    old = round_codes(SECRET, b.state)
    b.add(submit_report(b.state, SECRET, old["1.1"][0], ["7 4 1 0 / 7 6"]))
    b.add(cancel_round(b.state, why="players seated wrongly"))
    b.add(start_round(b.state))
    new = round_codes(SECRET, b.state)
    assert all(set(old[m]).isdisjoint(new[m]) for m in new)  # the match ids come again
    assert not reports_of(b.state, b.state.matches["1.1"]).reports
    with pytest.raises(NotFoundError):
        resolve(SECRET, b.state, old["1.1"][0])
