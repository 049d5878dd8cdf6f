# ruff: noqa: E501  (a template stays one string, as the catalog shows it)
"""The domain's own words that are not refusals, as codes and English templates (issue 11):
a round's stage, a manual pairing's warnings, a flag on a later match, why nobody may buy
back a life. The English is what the API, the CLI and the events say, unchanged; a page
shows the same code in the reader's language (``tournament/web/pages/messages.py``).

Most of these texts are stored in events as English (a round's stage and warnings, the
reason a flag gives), so old events keep their words: :func:`read_back` recognises a
stored text by its template and gives its code and params back. A producer that writes
such a text fills the same template (:func:`tournament.domain.words.messages.english`), so the
text and the template cannot drift. Pure and stdlib only.
"""

from __future__ import annotations

from typing import Final


def N_(template: str) -> str:
    """Marks ``template`` for extraction into the catalog; returns it unchanged."""
    return template


#: Stages of a round as the formats' draws name them (events: RoundStarted.stage).
STAGE_TEMPLATES: Final[dict[str, str]] = {
    "stage.swiss": N_("Swiss round %(number)s of %(total)s"),
    "stage.round_robin": N_("round robin, round %(number)s of %(total)s"),
    "stage.groups": N_("group stage, round %(number)s of %(total)s"),
    "stage.knockout": N_("knockout round %(number)s"),
    "stage.lives": N_("lives round %(number)s: %(alive)s players with lives left"),
    "stage.final_of": N_("final, round %(number)s of %(total)s: %(names)s"),
    "stage.final": N_("final: %(names)s"),
    "stage.manual": N_("manual pairing"),
}

#: Warnings a round records (events: RoundStarted.warnings): a manual pairing's broken
#: format rules (tournament/formats/override.py, "code: message", T-override) and the
#: knockout's notes on recorded byes.
WARNING_TEMPLATES: Final[dict[str, str]] = {
    "warning.repeat_pairing": N_("repeat_pairing: %(a)s and %(b)s met before"),
    "warning.withdrawn_paired": N_("withdrawn_paired: %(player)s has withdrawn"),
    "warning.eliminated_paired": N_("eliminated_paired: %(player)s is out of lives"),
    "warning.player_missing": N_("player_missing: not paired and no bye: %(players)s"),
    "warning.bye_not_needed_one": N_("bye_not_needed: %(count)s byes where %(needed)s is needed"),
    "warning.bye_not_needed": N_("bye_not_needed: %(count)s byes where %(needed)s are needed"),
    "warning.repeat_bye_one": N_("repeat_bye: %(player)s already had %(count)s bye"),
    "warning.repeat_bye": N_("repeat_bye: %(player)s already had %(count)s byes"),
    "warning.bye_not_lowest": N_(
        "bye_not_lowest: %(player)s is not the lowest-ranked player without a bye (%(lowest)s)"
    ),
    "warning.beyond_format": N_(
        "T-round: round %(number)s is beyond the format's draw: %(refusal)s"
    ),
    "warning.bye_moved": N_(
        "bye_moved: the bye of %(slot)s was recorded for %(player)s in round %(number)s; after a correction the bracket gives it to %(now)s: the recorded bye stays where it was"
    ),
}

#: Flags on a later match whose players' earlier result changed (R17: flagged, not
#: rewritten), as the queue shows them.
FLAG_TEMPLATES: Final[dict[str, str]] = {
    "flag.changed": N_(
        "result of match %(match_id)s (round %(round)s) changed after this match was drawn: %(why)s"
    ),
    # why a match was replayed (handlers.py), the flag's ``why``
    "flag.corrected_because": N_("corrected by %(by)s: %(reason)s"),
    "flag.corrected": N_("corrected by %(by)s"),
    "flag.struck_because": N_("hand struck by %(by)s: %(reason)s"),
    "flag.struck": N_("hand struck by %(by)s"),
    "flag.first_dealer_set": N_("first dealer set"),
    "flag.late_claim": N_("live hand %(stream)s ended by a late claim"),
    "flag.entered": N_(
        "result of match %(match_id)s (round %(round)s) entered after this match was drawn: result %(result_id)s"
    ),
}

#: What the desk is told about a double no-show drawn again (notices.py): no game was
#: played, so the players are in the draw again unless the organiser withdraws them.
NOTICE_TEMPLATES: Final[dict[str, str]] = {
    "notice.absent": N_(
        "match %(match_id)s: both players were absent; %(names)s %(where)s; if they have left, withdraw them (%(commands)s)"
    ),
    "notice.and": N_("%(a)s and %(b)s"),
    "notice.next_draw_one": N_("is in the next draw again"),
    "notice.next_draw_one_groups": N_("is in the next draw again if the groups send them on"),
    "notice.next_draw_both": N_(
        "are both in the next draw again (each on their own: a double no-show is no game played, so the draw may also pair them together again)"
    ),
    "notice.next_draw_both_groups": N_(
        "are both in the next draw again if the groups send them on (each on their own: a double no-show is no game played, so the draw may also pair them together again)"
    ),
    "notice.drawn_again_one": N_("is drawn again in round %(round)s (%(now)s)"),
    "notice.drawn_again_both": N_(
        "are both drawn again in round %(round)s (%(now)s), each against a new opponent"
    ),
    "notice.paired_again": N_(
        "are paired with each other again in round %(round)s (%(match_id)s): a double no-show is no game played"
    ),
}

#: Why nobody may buy back a life now (T-lives), beside the refusals' own reasons
#: (lives.py's ``lives.*`` codes).
BUY_BACK_TEMPLATES: Final[dict[str, str]] = {
    "buyback.everybody_bought_back": N_(
        "everybody out of lives has bought back already (buy_backs=%(allowed)s)"
    ),
    "buyback.nobody_out": N_("nobody is out of lives"),
}

#: The correction preview's lines (tournament/domain/words/previewwords.py, preview.py).
PREVIEW_TEMPLATES: Final[dict[str, str]] = {
    "preview.match": N_("match %(match_id)s (%(players)s): %(before)s -> %(after)s"),
    "preview.match_unchanged": N_("match %(match_id)s (%(players)s): unchanged, %(after)s"),
    "preview.flag": N_("match %(match_id)s (%(players)s) would be flagged: %(flag)s"),
    "preview.nothing": N_("nothing else changes"),
    "preview.drawn_differently": N_(
        "round %(round)s would be drawn differently at %(changes)s (old pairing -> new pairing):"
    ),
    "preview.tables_and_bye": N_("%(count)s of %(all)s tables and the bye"),
    "preview.tables": N_("%(count)s of %(all)s tables"),
    "preview.the_bye": N_("the bye"),
    "preview.reopened": N_(
        "match %(match_id)s is open again: %(needed)s (`round start` refuses the next round until it is decided)"
    ),
    # a match's result (preview._describe); the Schneider notes first: read back longest
    "preview.wins_schneider_one": N_(
        "%(winner)s wins, Bummerl %(b0)s:%(b1)s, game points %(g0)s:%(g1)s (a Schneiderbummerl counts 2, R19)"
    ),
    "preview.wins_schneider": N_(
        "%(winner)s wins, Bummerl %(b0)s:%(b1)s, game points %(g0)s:%(g1)s (%(count)s Schneiderbummerl, each counts 2, R19)"
    ),
    "preview.wins_by_forfeit": N_(
        "%(winner)s wins by forfeit, Bummerl %(b0)s:%(b1)s, game points %(g0)s:%(g1)s"
    ),
    "preview.wins": N_("%(winner)s wins, Bummerl %(b0)s:%(b1)s, game points %(g0)s:%(g1)s"),
    "preview.open": N_("open, Bummerl %(b0)s:%(b1)s, game points %(g0)s:%(g1)s"),
    "preview.dropped": N_("dropped, counts for nobody"),
    "preview.both_absent": N_("both absent, a loss for each"),
    # the standings
    "preview.standing": N_("%(name)s (%(player_id)s): %(changes)s"),
    "preview.field": N_("%(what)s %(before)s -> %(after)s"),
    "preview.players": N_("%(a)s v %(b)s"),
    "preview.new_at_rank": N_("new in the standings at rank %(rank)s"),
    "preview.list": N_("%(first)s, %(rest)s"),
    "preview.one_moves": N_("%(count)s other player moves %(by)s"),
    "preview.others_move": N_("%(count)s other players move %(by)s"),
    "preview.by_one": N_("by one place"),
    "preview.by_two": N_("by one or two places"),
    "preview.by_up_to": N_("by up to %(most)s places"),
    "preview.one_quiet": N_("%(count)s other player's %(what)s change, not their places"),
    "preview.others_quiet": N_("%(count)s other players' %(what)s change, not their places"),
}

#: The standings columns a preview line names (preview._row_fields): translated on a page.
FIELD_WORDS: Final[frozenset[str]] = frozenset(
    {
        N_("rank"),
        N_("points"),
        N_("W-L"),
        N_("lives"),
        N_("Bummerl"),
        N_("game points"),
        N_("Schneider"),
        N_("Buchholz"),
        N_("Buchholz cut 1"),
        N_("median Buchholz"),
        N_("Sonneborn-Berger"),
        # the other tie-breaks: their id in words (preview._row_fields)
        N_("bummerl diff"),
        N_("game point diff"),
        N_("direct encounter"),
        N_("wins"),
        N_("schneider"),
        N_("seed"),
        N_("lot"),
    }
)

#: The audit log's events in words (tournament/domain/views/eventwords.py, reportwords.py), as
#: ``tournament log`` prints them.
EVENT_TEMPLATES: Final[dict[str, str]] = {
    "event.nobody": N_("nobody"),
    "event.draw": N_("draw"),
    "event.reason": N_("%(first)s; %(reason)s"),
    "event.dropped": N_("%(first)s; dropped: %(ids)s"),
    "event.withdrawn": N_("%(who)s, open matches: %(policy)s"),
    "event.one_match": N_("%(count)s match"),
    "event.matches": N_("%(count)s matches"),
    "event.one_warning": N_("%(count)s warning"),
    "event.warnings": N_("%(count)s warnings"),
    "event.round_drawn": N_("round %(round)s drawn (%(stage)s): %(matches)s"),
    "event.byes": N_("%(first)s, bye: %(names)s"),
    "event.manual": N_("%(first)s, MANUAL PAIRING"),
    "event.with": N_("%(first)s, %(more)s"),
    "event.seed": N_("%(first)s; seed %(seed)s"),
    "event.tables": N_("round %(round)s: %(count)s more tables of the draw"),
    "event.cancelled_by": N_("round %(round)s cancelled by %(by)s: %(why)s"),
    "event.cancelled": N_("round %(round)s cancelled: %(why)s"),
    "event.deals_first": N_("match %(match_id)s: %(who)s deals first"),
    "event.tally": N_("match %(match_id)s: Bummerl tally %(tally)s (result %(result_id)s)"),
    "event.live_dealt": N_("match %(match_id)s: live hand %(stream)s dealt"),
    "event.live_abandoned": N_(
        "match %(match_id)s: live hand %(stream)s abandoned by %(by)s: %(why)s"
    ),
    "event.online_started": N_("match %(match_id)s: played online (%(clock)s)"),
    "event.online_no_clock": N_("no clock"),
    "event.online_clock": N_("%(seconds)s s per move"),
    "event.online_stopped": N_("match %(match_id)s: online play stopped by %(by)s: %(why)s"),
    "event.online_clock_restarted": N_("match %(match_id)s: clock restarted by %(by)s"),
    "event.live_closed": N_("match %(match_id)s: no claim after the last trick (R16)"),
    "event.seat_taken": N_("match %(match_id)s: %(who)s's seat taken by a device"),
    "event.seat_released": N_("match %(match_id)s: %(who)s's seat released by %(by)s"),
    "event.both_absent": N_("match %(match_id)s: both absent (%(why)s) (result %(result_id)s)"),
    "event.forfeit": N_(
        "match %(match_id)s: %(who)s wins by forfeit (%(why)s) (result %(result_id)s)"
    ),
    "event.voided": N_("match %(match_id)s: result %(result_id)s voided by %(by)s: %(reason)s"),
    "event.corrected": N_(
        "match %(match_id)s: result %(result_id)s corrected by %(by)s: %(reason)s"
    ),
    "event.struck": N_(
        "match %(match_id)s: hand %(hand)s of result %(result_id)s struck by %(by)s: %(reason)s"
    ),
    "event.checked_in": N_("%(who)s checked in"),
    "event.checked_out": N_("%(who)s check-in undone: not drawn"),
    "event.signed": N_("match %(match_id)s: sheet signed by %(who)s"),
    "event.life": N_("%(who)s bought back a life before round %(round)s"),
    "event.flag_cleared": N_("match %(match_id)s: flag cleared"),
    # reportwords.py
    "event.reported": N_("match %(match_id)s: %(who)s reported %(sheet)s"),
    "event.confirmed": N_("match %(match_id)s: %(who)s confirmed the opponent's report"),
    "event.disputed": N_("match %(match_id)s: %(who)s disputed: %(reason)s"),
    "event.accepted": N_("match %(match_id)s: the report of seat %(seat)s accepted"),
    "event.off_queue": N_("match %(match_id)s: taken off the queue"),
    "event.revoked": N_("match %(match_id)s: table codes revoked"),
    "event.all_revoked": N_("round %(round)s: every table code revoked"),
    "event.a_player": N_("a player"),
    "event.created": N_("%(name)s: %(format)s, best of %(best_of)s"),
    "event.created_on": N_("%(name)s (%(date)s): %(format)s, best of %(best_of)s"),
    "event.seeded": N_("by %(method)s: %(order)s"),
    "event.one_game_point": N_("%(count)s game point"),
    "event.game_points": N_("%(count)s game points"),
    "event.hand_won": N_("match %(match_id)s: hand won by %(who)s, %(points)s"),
    "event.dealt_by": N_("%(first)s, dealt by %(who)s"),
    "event.talon_closed": N_("%(first)s, talon closed"),
    "event.card_points": N_("%(first)s, card points %(a)s:%(b)s"),
    "event.result": N_("%(first)s (result %(result_id)s)"),
    "event.player": N_("%(name)s (%(player_id)s)"),
    "event.club": N_("%(first)s, club %(club)s"),
    "event.category": N_("%(first)s, category %(category)s"),
    "event.rating": N_("%(first)s, rating %(rating)s"),
    "event.late": N_("%(first)s - late entry"),
    "event.missed_one": N_("%(first)s, %(count)s missed round scores %(score)s"),
    "event.missed": N_("%(first)s, %(count)s missed rounds score %(score)s"),
    "event.a_bye": N_("a bye"),
    "event.a_bye_each": N_("a bye each"),
}

#: A row of a players list spelt like a registered player or an earlier row
#: (tournament.domain.views.spellings, O-L2): a warning of the import's preview, not a refusal.
SPELLING_TEMPLATES: Final[dict[str, str]] = {
    "spelling.registered": N_(
        "possible duplicate: %(name)s may be %(other)s, registered as player %(player_id)s (ue/ü, oe/ö, ae/ä or ss/ß spelt otherwise)"
    ),
    "spelling.in_list": N_(
        "possible duplicate: %(name)s may be %(other)s of line %(line)s (ue/ü, oe/ö, ae/ä or ss/ß spelt otherwise)"
    ),
}

#: Every template of this module.
TEXT_TEMPLATES: Final[dict[str, str]] = {
    **SPELLING_TEMPLATES,
    **STAGE_TEMPLATES,
    **WARNING_TEMPLATES,
    **FLAG_TEMPLATES,
    **NOTICE_TEMPLATES,
    **PREVIEW_TEMPLATES,
    **EVENT_TEMPLATES,
    **BUY_BACK_TEMPLATES,
}
