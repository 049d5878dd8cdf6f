"""One entry, whoever makes it (``results enter``, the web API): one kind of result, the
hands of a sheet in order as one action, signatures only with the entry that decides."""

from __future__ import annotations

import pytest

from tournament.domain.commands.entry import OPTIONS, Hand, ResultEntry, Spelling, entry_command
from tournament.domain.model.errors import ConflictError, DomainError
from tournament.domain.model.state import fold
from tournament.domain.testing import paired

API = Spelling("body", {"tally": "tallies"}, hands="hands", whole_sheet="x", sign_later="y")


def run(entry: ResultEntry, spelling: Spelling = OPTIONS) -> list[str]:
    t = fold(paired(players=2, best_of=3))
    command = entry_command(entry, actor="desk", entered_when=str, spelling=spelling)
    return [e.type for e in command(t)]


def test_the_mix_is_named_in_the_callers_words() -> None:
    entry = ResultEntry("1.1", hands=(Hand(1, 2),), tallies=("7 0 / 7",))
    with pytest.raises(DomainError) as cli:
        run(entry)
    with pytest.raises(DomainError) as api:
        run(entry, API)
    assert cli.value.line().startswith("options: --tally with --winner, --points: give either")
    assert api.value.line().startswith("body: tallies with hands: give either tallies, hands or")
    assert api.value.rule == "T-result"


def test_nothing_to_enter_is_refused() -> None:
    with pytest.raises(DomainError, match="give tallies, hands or forfeit"):
        run(ResultEntry("1.1"), API)
    with pytest.raises(DomainError, match=r"a hand needs --winner and --points \(--winner is"):
        run(ResultEntry("1.1"))


def test_hands_of_a_sheet_go_in_order_and_a_bad_one_names_itself() -> None:
    hands = (Hand(1, 3), Hand(2, 2), Hand(1, 3))
    assert run(ResultEntry("1.1", hands=hands, scorer=2)) == ["result.hand_recorded"] * 3
    with pytest.raises(DomainError) as bad:
        run(ResultEntry("1.1", hands=(Hand(1, 3), Hand(2, 4))))
    assert bad.value.message.startswith("hand 2 of 2: match 1.1, Bummerl 1 hand 2:")
    assert bad.value.rule == "R13"


def test_signed_goes_only_with_the_deciding_entry() -> None:
    with pytest.raises(ConflictError) as early:
        run(ResultEntry("1.1", tallies=("7 4 1 0 / 7 6",), signed=True), API)
    assert early.value.field == "signed" and "(x, or y)" in early.value.message
    sheet = ResultEntry("1.1", tallies=("7 4 1 0 / 7 6", "7 5 2 0 / 7 6"), signed=True)
    assert run(sheet, API)[-2:] == ["match.sheet_signed"] * 2
