"""Player and spectator views: what each may see (R10 shown cards, visibility variants)."""

from __future__ import annotations

from engine.views import player_view, spectator_view

from .decks import deal, play

MARRY = dict(forehand="KS QS KH QH JC", dealer="AS TS AC TC JS", turnup="AH")


def test_a_player_sees_its_hand_the_turnup_and_the_card_led() -> None:
    state = play(deal(**MARRY), "1:JC")
    view = player_view(state, 0)
    assert sorted(c.code for c in view.hand) == sorted(["AS", "TS", "AC", "TC", "JS"])
    assert view.turnup.code == "AH" and view.table.lead.code == "JC"
    assert view.opponent_card_count == 4 and view.table.talon_count == 10
    assert {str(a) for a in view.legal_actions} == {"0:AS", "0:TS", "0:AC", "0:TC", "0:JS"}
    assert player_view(state, 1).legal_actions == ()


def test_the_partner_card_of_a_marriage_is_shown_until_it_is_played() -> None:
    state = play(deal(**MARRY), "1:KS+marriage")
    shown = spectator_view(state).marriages[0]
    assert (shown.led.code, shown.shown.code, shown.value) == ("KS", "QS", 20)
    state = play(state, "0:AS 0:JS 1:QS")
    assert spectator_view(state).marriages[0].shown is None


def test_the_last_trick_stays_visible_until_the_next_lead() -> None:
    state = play(deal(**MARRY), "1:JC 0:JS")
    assert spectator_view(state).last_trick.lead.code == "JC"
    assert spectator_view(play(state, "1:KS")).last_trick is None


def test_the_turnup_is_turned_down_when_the_talon_is_closed() -> None:
    state = play(deal(**MARRY), "1:close")
    assert spectator_view(state).turnup is None and spectator_view(state).closed_by == 1


def test_by_default_a_player_sees_its_whole_pile_and_its_points() -> None:
    state = play(deal(**MARRY), "1:JC 0:JS 1:QH+marriage 0:TS")
    view = player_view(state, 1)
    assert len(view.visible_own_tricks) == 2 and view.own_points == 4 + 3 + 10 + 40


def test_variant_own_tricks_hidden_shows_only_the_last_trick() -> None:
    state = play(deal(**MARRY, variants=["own-tricks-hidden"]), "1:JC 0:JS 1:QH+marriage 0:TS")
    view = player_view(state, 1)
    assert [t.lead.code for t in view.visible_own_tricks] == ["QH"] and view.own_points is None
    assert player_view(play(state, "1:KS"), 1).visible_own_tricks == ()


def test_variant_first_tricks_visible_shows_the_first_trick_of_the_pile() -> None:
    state = play(deal(**MARRY, variants=["first-tricks-visible"]), "1:JC 0:JS 1:QH+marriage 0:TS")
    state = play(state, "1:KS")
    view = player_view(state, 1)
    assert [t.lead.code for t in view.visible_own_tricks] == ["JC"]


def test_the_spectator_sees_the_outcome_once_the_hand_is_over() -> None:
    state = play(deal(**MARRY), "1:KS+marriage 1:claim")
    view = spectator_view(state)
    assert view.outcome is not None and view.outcome.reason == "false_claim"
    assert spectator_view(deal(**MARRY)).outcome is None
