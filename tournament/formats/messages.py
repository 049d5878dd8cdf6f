"""The formats' refusals as codes and English templates (issue 11), as
:mod:`tournament.domain.words.messages` has the domain's: a :class:`~tournament.formats.model.
FormatError` raised with ``code=`` and ``params=`` takes its message from here, and the
domain passes code and params on when it turns the error into a refusal (rounds.py), so
a page shows it in German. Stdlib only, like the rest of the formats.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final


def N_(template: str) -> str:
    """Marks ``template`` for extraction into the catalog; returns it unchanged."""
    return template


def param(value: object) -> str | int:
    """``value`` as a param: an int or a str as it is, anything else as an f-string
    shows it (so the filled template is the text the raise site wrote)."""
    if type(value) is int or type(value) is str:
        return value
    return format(value, "")


def english(code: str, params: Mapping[str, str | int]) -> str:
    """The English message of ``code`` with its ``params`` filled in."""
    return FORMAT_TEMPLATES[code] % dict(params)


FORMAT_TEMPLATES: Final[dict[str, str]] = {
    "formats.bracket.bracket_source": N_("not a bracket source: %(value)s"),
    "formats.bracket.match_bracket": N_("no match %(match_id)s in this bracket"),
    "formats.bracket.match_bracket_2": N_("no match %(match_id)s in bracket"),
    "formats.bracket.second_result": N_("second result for %(match_id)s"),
    "formats.bracket.ready_play": N_("%(match_id)s is not ready to play (%(status)s)"),
    "formats.double_elim.knockout_needs_least_players": N_(
        "a knockout needs at least 2 players, got %(seeds_count)s"
    ),
    "formats.groups.must_more_got": N_("must be 1 or more, got %(qualifiers_per_group)s"),
    "formats.groups.knockout_needs_least_qualifiers": N_(
        "the knockout needs at least 2 qualifiers"
    ),
    "formats.groups.group_players_fewer_qualifiers": N_(
        "group has %(g_count)s players, fewer than %(qualifiers_per_group)s qualifiers"
    ),
    "formats.lives.these_rules_allow_buy": N_("these rules allow no buy-back"),
    "formats.lives.player": N_("%(player)s is not a player"),
    "formats.lives.buy_back_comes_before": N_("a buy-back comes before round 2 or later"),
    "formats.lives.buy_back_closes_before": N_(
        "buy-back closes before round %(last_buy_back_round)s, got %(before_round)s"
    ),
    "formats.lives.only_player_s_left": N_(
        "only %(alive_count)s player(s) left: play the final instead"
    ),
    "formats.lives.final_needs_two_players": N_("a final needs two players"),
    "formats.lives.final_round_s_round": N_(
        "the final has %(total)s round(s), not round %(final_round)s"
    ),
    "formats.lives.lives_must_got": N_("lives must be 1..9, got %(lives)s"),
    "formats.lives.must_more_got": N_("must be 2 or more, got %(final_size)s"),
    "formats.lives.must_more_got_2": N_("must be 0 or more, got %(max_buy_backs)s"),
    "formats.lives.missing_player": N_("missing or not a player: %(winner)s"),
    "formats.lives.player_tournament": N_("%(p)s is not a player of this tournament"),
    "formats.lives.exceeds_buy_back_s": N_("%(player)s exceeds %(max_buy_backs)s buy-back(s)"),
    "formats.lives.all_lives_already": N_("%(player)s has all lives already"),
    "formats.model.player_id_must_non": N_("player id must be a non-empty string, got %(pid)s"),
    "formats.model.player_appears_twice": N_("player %(pid)s appears twice"),
    "formats.override.player_tournament": N_("%(pid)s is not a player of this tournament"),
    "formats.override.already": N_("%(pid)s is already in %(seen)s"),
    "formats.override.table": N_("%(first_dealer)s is not at table"),
    "formats.override.table_used_twice": N_("table %(table)s is used twice"),
    "formats.round_robin.round_robin_needs_least": N_(
        "a round robin needs at least 2 players, got %(players_count)s"
    ),
    "formats.round_robin.need_least_one_group": N_("need at least one group"),
    "formats.round_robin.round_must_between_got": N_(
        "round must be between 1 and %(total)s, got %(round_no)s"
    ),
    "formats.seeding.entrants_missing_seed_order": N_(
        "entrants missing from the seed order: %(missing)s"
    ),
    "formats.seeding.bracket_size_must_power": N_(
        "bracket size must be a power of two, got %(size)s"
    ),
    "formats.seeding.need_least_one_group": N_("need at least one group, got %(group_count)s"),
    "formats.seeding.groups_need_least_players": N_(
        "%(group_count)s groups need at least %(value)s players, got %(seeds_count)s"
    ),
    "formats.seeding.registered_entrant": N_("%(pid)s is not a registered entrant"),
    "formats.swiss.rounds_count_got": N_("rounds count from 1, got %(round_no)s"),
    "formats.swiss.need_least_active_players": N_(
        "need at least 2 active players, got %(active_count)s"
    ),
    "formats.swiss.round_before": N_("round %(round_no)s is not before %(round_no2)s"),
    "formats.tables.table_must_more_got": N_("table must be 1 or more, got %(number)s"),
    "formats.tables.table_fixed_both_v": N_(
        "table %(table)s is fixed for both %(other)s v %(other2)s and %(a)s v %(b)s"
    ),
}
