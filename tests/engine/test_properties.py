"""Properties that hold for every legal hand, checked on hands hypothesis plays at random."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, EngineError, GameRecord, HandState, IllegalActionError, Ruleset
from engine.actions import all_actions
from engine.cards import ALL_CARDS, mask_points
from engine.rules import VARIANTS
from engine.views import player_view, spectator_view

RULE_ID = re.compile(r"^R(1[0-6]|[0-9])$")
UNIVERSE = all_actions()
VARIANT_SETS = st.sets(st.sampled_from(sorted(VARIANTS))).filter(
    lambda v: not {"own-tricks-hidden", "first-tricks-visible"} <= v
)


@st.composite
def hands(draw: st.DrawFn) -> tuple[HandState, list[HandState], list[Action]]:
    """A hand played by choosing uniformly among the legal actions, with every state."""
    deck = draw(st.permutations([c.code for c in ALL_CARDS]))
    dealer = draw(st.integers(0, 1))
    rules = Ruleset.from_names(draw(VARIANT_SETS))
    state = HandState.deal(deck, dealer, rules)
    states, actions = [state], []
    while state.legal_actions():
        legal = state.legal_actions()
        action = legal[draw(st.integers(0, len(legal) - 1))]
        state = state.apply(action)
        states.append(state)
        actions.append(action)
        if state.is_over and draw(st.booleans()):
            break  # after the last trick, the claim is optional
    return state, states, actions


common = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(hands())
def test_random_legal_play_always_ends_with_a_valid_outcome(played) -> None:  # type: ignore[no-untyped-def]
    state, _, _ = played
    outcome = state.outcome()
    assert outcome.complete and outcome.winner in (0, 1)
    assert outcome.game_points in (1, 2, 3)
    assert outcome.reason in ("claim", "false_claim", "last_trick", "closer_failed")
    if outcome.reason == "last_trick":
        assert outcome.game_points == 1 and state.closed_by is None
    if outcome.reason == "closer_failed":
        assert state.closed_by == 1 - outcome.winner


@common
@given(hands())
def test_120_card_points_are_conserved(played) -> None:  # type: ignore[no-untyped-def]
    _, states, _ = played
    for state in states:
        in_hands = mask_points(state.hand_mask(0) | state.hand_mask(1))
        in_talon = sum(c.points for c in state.talon)
        on_table = state.lead_card.points if state.lead_card else 0
        assert sum(state.card_points) + in_hands + in_talon + on_table == 120


@common
@given(hands())
def test_replay_is_deterministic(played) -> None:  # type: ignore[no-untyped-def]
    state, states, actions = played
    record = GameRecord(states[0].deck, states[0].dealer, states[0].rules.names, tuple(actions))
    again = record.replay()
    assert again.outcome() == state.outcome() == record.replay().outcome()
    assert [c.code for c in again.cards_of(0)] == [c.code for c in state.cards_of(0)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_every_legal_action_applies_and_every_other_is_refused_with_a_rule(played) -> None:  # type: ignore[no-untyped-def]
    _, states, _ = played
    for state in states:
        legal = set(state.legal_actions())
        for action in UNIVERSE:
            if action in legal:
                state.apply(action)
            else:
                try:
                    state.apply(action)
                except IllegalActionError as error:
                    assert RULE_ID.match(error.rule), error
                else:
                    raise AssertionError(f"{action} applied but is not in legal_actions()")


@common
@given(hands())
def test_a_record_round_trips(played) -> None:  # type: ignore[no-untyped-def]
    state, states, actions = played
    record = GameRecord(
        states[0].deck,
        states[0].dealer,
        states[0].rules.names,
        tuple(actions),
        {"outcome": state.outcome().to_json()},
    )
    assert GameRecord.loads(record.dumps()) == record
    assert GameRecord.from_json(json.loads(record.dumps())).to_json() == record.to_json()
    for action in actions:
        assert Action.parse(str(action)) == action
        assert Action.from_json(action.to_json()) == action


@common
@given(hands())
def test_views_leak_nothing_hidden(played) -> None:  # type: ignore[no-untyped-def]
    _, states, _ = played
    for state in states:
        talon_hidden = {c.code for c in state.talon} - (
            {state.turnup.code} if state.turnup and not state.is_closed else set()
        )
        shown = {m.shown.code for m in state.marriages}
        for seat in (0, 1):
            text = json.dumps(player_view(state, seat).to_json())
            seen = set(re.findall(r'"([AKQJT][CDHS])"', text))
            opponent = {c.code for c in state.cards_of(1 - seat)}
            assert not (seen & opponent) - shown
            assert not seen & talon_hidden
        text = json.dumps(spectator_view(state).to_json())
        seen = set(re.findall(r'"([AKQJT][CDHS])"', text))
        held = {c.code for s in (0, 1) for c in state.cards_of(s)}
        assert not (seen & held) - shown and not seen & talon_hidden


def test_engine_errors_are_value_errors_with_a_rule() -> None:
    assert issubclass(IllegalActionError, EngineError) and issubclass(EngineError, ValueError)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 25)
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["format", "variants", "dealer", "deck", "actions", "action"]), JSON, st.data()
)
def test_any_json_gives_an_outcome_or_an_error_object_never_an_exception(
    field, value, data
) -> None:  # type: ignore[no-untyped-def]
    from engine.randomplay import random_records
    from engine.record import replay_result

    record = next(random_records(seed=data.draw(st.integers(0, 50)), count=1)).to_json()
    if field == "action":
        index = data.draw(st.integers(0, len(record["actions"]) - 1))
        key = data.draw(st.sampled_from(["seat", "action", "card", "marriage", "extra"]))
        record["actions"][index] = dict(record["actions"][index], **{key: value})
    else:
        record[field] = value
    result = replay_result(record)
    assert set(result) <= {
        "complete",
        "winner",
        "game_points",
        "reason",
        "points",
        "tricks",
        "to_act",
        "error",
    }
    if "error" in result:
        assert result["error"]["rule"] in {"format"} | {f"R{i}" for i in range(21)}
        json.dumps(result)
