# ruff: noqa: E501  (a template stays one string, as the catalog shows it)
"""Every refusal of the domain as a code and an English template, in one place (issue 11).

A :class:`~tournament.domain.model.errors.DomainError` raised with ``code=`` and ``params=``
takes its English ``message`` from :data:`TEMPLATES` filled with its params; a page
renders the same code in the reader's language (``tournament/web/pages/messages.py``),
the API sends ``code`` and ``params`` next to the English ``detail``.

The templates are wrapped in :func:`N_`, a marker that does nothing at run time, so that
``pybabel extract`` (babel.cfg: keyword ``N_``) puts them in the German catalog. A
template's ``%(name)s`` placeholders are the params its raise sites pass; a literal
percent sign is written ``%%``. Codes are ``<module>.<what>``, the module that raises;
the formats' codes (``formats.<module>.<what>``) are in tournament/formats/messages.py,
:data:`ALL_TEMPLATES` holds both. A :class:`Phrase` is a piece of a message with a code
of its own (where on the sheet a hand goes); :data:`WORDS` are English words a param may
be (a tally's seat), which a page translates.
Pure: the stdlib and the formats' catalog (stdlib too) only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Union

from tournament.domain.words.wording import TEXT_TEMPLATES
from tournament.formats.messages import FORMAT_TEMPLATES


def N_(template: str) -> str:
    """Marks ``template`` for extraction into the catalog; returns it unchanged."""
    return template


@dataclass(frozen=True)
class Phrase:
    """A piece of a message with a code of its own (where on the sheet, what the engine
    said): a param of another message, rendered in the same language as the message.
    ``str()`` and f-strings give its English, as the piece of text it replaces did."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __str__(self) -> str:
        return english(self.code, self.params)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "params": plain(self.params)}


#: A param's value: a number stays a number (for the API's ``params``), a phrase keeps its
#: code (rendered in the message's language), the rest is text.
Param = Union[str, int, Phrase]  # noqa: UP007 - Phrase refers back to Param


def param(value: object) -> Param:
    """``value`` as a param: an int, a str or a phrase as it is, anything else as an
    f-string shows it."""
    if type(value) is int or type(value) is str or isinstance(value, Phrase):
        return value
    return format(value, "")


def english(code: str, params: Mapping[str, Param]) -> str:
    """The English message of ``code`` with its ``params`` filled in."""
    return EVERY_TEMPLATE[code] % {
        k: str(v) if isinstance(v, Phrase) else v for k, v in params.items()
    }


def plain(params: Mapping[str, Param]) -> dict[str, object]:
    """``params`` for JSON: a phrase as ``{"code": ..., "params": {...}}``."""
    return {k: v.to_json() if isinstance(v, Phrase) else v for k, v in params.items()}


TEMPLATES: Final[dict[str, str]] = {
    # buyback.py
    "buyback.withdrawn": N_("player %(player_id)s (%(name)s) has withdrawn"),
    "buyback.bought_one_already": N_(
        "player %(player_id)s (%(name)s) has bought back %(count)s life already, the most this tournament allows (buy_backs=%(allowed)s)"
    ),
    "buyback.bought_already": N_(
        "player %(player_id)s (%(name)s) has bought back %(count)s lives already, the most this tournament allows (buy_backs=%(allowed)s)"
    ),
    "buyback.not_in_field": N_(
        "player %(player_id)s (%(name)s) was not in the draw of round 1, so not in the field"
    ),
    "buyback.still_has_a_life": N_("player %(player_id)s (%(name)s) still has a life"),
    # correcting.py
    "correcting.mixed_with_void_or_undo": N_(
        "%(alone)s with %(others)s: give either what changes, %(void)s or %(undo)s, not several; nothing stored"
    ),
    "correcting.tally_with_hand_fields": N_(
        "%(tally)s with %(fields)s: a tally is corrected as a whole tally, a hand by its fields; nothing stored"
    ),
    "correcting.nothing_to_change": N_(
        "say what changes (%(winner)s, %(game_points)s, %(tally)s ...), %(void)s or %(undo)s"
    ),
    # corrections.py
    "corrections.result_nothing_restore": N_("result %(result_id)s has nothing to restore"),
    "corrections.result_never_corrected": N_("result %(result_id)s was never corrected"),
    "corrections.there_result": N_("there is no result %(result_id)s"),
    "corrections.correction_names_who_makes": N_("a correction names who makes it"),
    "corrections.correction_says_why": N_("a correction says why"),
    "corrections.would_leave_match_inconsistent": N_(
        "%(what)s would leave match %(match_id)s inconsistent: %(new)s; correct or strike the later hands first"
    ),
    "corrections.result_cannot_corrected_takes": N_(
        "result %(result_id)s is a %(kind)s: %(wrong)s cannot be corrected on it (a %(kind)s takes %(takes)s); nothing stored"
    ),
    "corrections.result_hands_strike": N_("result %(result_id)s has no hands to strike"),
    "corrections.result_hands": N_("result %(result_id)s has hands 1-%(count)s, not %(hand)s"),
    "corrections.hand_result_struck_already": N_(
        "hand %(hand)s of result %(result_id)s is struck already"
    ),
    "corrections.there_match": N_("there is no match %(match_id)s"),
    "corrections.result_already_void": N_("result %(result_id)s is already void"),
    "corrections.correction_changes_nothing": N_("the correction changes nothing"),
    "corrections.result_holds_hands_say": N_(
        "result %(result_id)s holds %(count)s hands; say which to strike (--hand 1-%(count)s, as `results show` numbers them)"
    ),
    "corrections.result_new_void_instead": N_("the result was new; void it instead"),
    "corrections.player_does_play_match": N_("player %(winner)s does not play match %(match_id)s"),
    # sheetfix.py
    "sheetfix.nothing_recorded": N_(
        "match %(match_id)s has no result to correct; enter its sheet instead"
    ),
    "sheetfix.not_tallies": N_(
        "match %(match_id)s holds a %(kind)s result: a whole sheet is corrected only when it was entered as Bummerl tallies; correct its results one by one"
    ),
    "sheetfix.no_bummerl": N_("give the sheet's Bummerl, at least one"),
    "sheetfix.bummerl_refused": N_("Bummerl %(number)s: %(why)s; nothing stored"),
    # csvio.py
    "csvio.not_yes_or_no": N_("%(text)s is not yes or no"),
    "csvio.two_numbers_like": N_("%(text)s is not two numbers like 66:40"),
    "csvio.row_hand_tally_forfeit": N_(
        "a row is a hand, a tally or a forfeit, not several: %(kinds)s; write each in a row of its own"
    ),
    "csvio.start_number_but_row": N_(
        "start number %(given)s, but this row gets %(next_id)s (start numbers follow the file order after the players already registered)"
    ),
    "csvio.start_number_both": N_("%(text)s is not a start number or 'both'"),
    "csvio.every_row_names_match": N_("every row names its match (round.table, e.g. 2.5)"),
    "csvio.hand_row_needs_winner": N_(
        "a hand row needs winner and game_points (or tally, or forfeit)"
    ),
    # entry.py
    "entry.give_result_enter_nothing": N_(
        "give %(spelling)s, %(hands)s or %(spelling2)s: the result to enter; nothing stored"
    ),
    "entry.forfeit_played_hand_dealer": N_(
        "%(n)s with %(play)s: %(either)s (a forfeit is not played: no hand, dealer, scorer or signed sheet goes with it); nothing stored"
    ),
    "entry.tally_s_hands_dealer": N_(
        "%(n)s with %(hand)s: %(either)s (a tally's hands have no dealer, reason or card points of their own: the deal alternates, R18); nothing stored"
    ),
    "entry.hand_needs_missing_give": N_(
        "a hand needs %(spelling)s and %(spelling2)s (%(missing)s is missing); or give %(spelling3)s or %(spelling4)s"
    ),
    "entry.goes_only_entry_decides": N_(
        "%(message)s: %(spelling)s goes only with the entry that decides the match (%(whole_sheet)s, or %(sign_later)s)"
    ),
    # handpoints.py
    "handpoints.card_points_two_whole": N_("card points are two whole numbers, not %(points)s"),
    "handpoints.adds_up_both_players": N_(
        "%(a)s:%(b)s adds up to %(a2)s; both players together have at most %(most)s (%(cards)s in the cards, %(marriages)s in marriages)"
    ),
    "handpoints.correct_claim_needs_points": N_(
        "a correct claim needs %(claim)s points; the winner has %(won)s"
    ),
    "handpoints.claim_points_false_claim": N_("a claim with %(lost)s points is not a false claim"),
    "handpoints.hand_won_last_trick": N_(
        "a hand won by the last trick had no close (a closed talon: R14)"
    ),
    "handpoints.after_tenth_trick_all": N_(
        "after the tenth trick all %(cards)s card points are taken and the winner has the last trick: %(won)s:%(lost)s (winner first) is not %(cards)s plus marriages of 20 or 40"
    ),
    "handpoints.player_s_points_cards": N_(
        "%(x)s is not a player's points: 0-%(most)s (cards and marriages)"
    ),
    "handpoints.points_impossible_trick_holds": N_(
        "%(x)s points are impossible: a trick holds at least %(smallest_trick)s (two jacks), and a marriage counts only with a trick (R10)"
    ),
    # knockout.py
    "knockout.bracket_slot_drawn_times": N_("bracket slot %(slot)s was drawn 26 times"),
    # live.py
    "live.match_decided_hand_played": N_(
        "match %(match_id)s is decided; no hand is played after that"
    ),
    "live.match_enter_who_deals": N_(
        "match %(match_id)s: enter who deals first before dealing a live hand"
    ),
    "live.there_live_hand_tournament": N_(
        "there is no live hand %(hand_stream)s in tournament %(id)s; `tournament live deal MATCH` deals one and prints its id (hand-...)"
    ),
    "live.live_hand_match_abandoned": N_(
        "live hand %(hand_stream)s of match %(match_id)s was abandoned"
    ),
    "live.live_hand_already_recorded": N_(
        "the hand of table %(table)s is already over and recorded; correct or strike its result instead"
    ),
    "live.abandoning_says_who": N_("abandoning a hand says who decides"),
    "live.abandoning_says_why": N_("abandoning a hand says why"),
    "live.late_claim_would_leave": N_("the late claim would leave match %(match_id)s inconsistent"),
    # online.py
    "online.not_online": N_("match %(match_id)s is not played online"),
    "online.already_online": N_("match %(match_id)s is played online already"),
    "online.hand_in_progress": N_(
        "match %(match_id)s has a live hand in progress: finish or abandon it first"
    ),
    "online.move_seconds_range": N_(
        "the time per move is %(low)s to %(high)s seconds, not %(given)s"
    ),
    "online.stop_says_who_why": N_("stopping online play says who decides and why"),
    "online.no_deal_now": N_("match %(match_id)s has a hand in play, or is over: no hand to deal"),
    "online.not_current_hand": N_("this is not the hand match %(match_id)s is playing now"),
    "online.hand_over": N_("the hand of match %(match_id)s is over"),
    "online.table_moved_on": N_(
        "the table moved on (you saw move %(expected)s, it is at %(version)s): nothing was played twice"
    ),
    "online.not_your_seat": N_("you play seat %(seat)s only"),
    "online.time_ran_out": N_("the time for this move ran out: the organiser decides"),
    "online.engine_refused": N_("%(action)s is not allowed: %(why)s (%(rule)s)"),
    "online.no_claim_window": N_("there is no claim to decline in match %(match_id)s now"),
    "online.not_yours_to_close": N_(
        "only the winner of the last trick may decline the claim (seat %(seat)s may not)"
    ),
    "online.no_clock": N_("match %(match_id)s has no clock running"),
    "online.restart_says_who": N_("restarting the clock says who decides"),
    "online.no_such_hand": N_("match %(match_id)s has no such hand"),
    "online.seat_taken": N_(
        "this seat is already open on another device: if that was you and your device is "
        "gone, ask the organiser to release the seat"
    ),
    "online.both_seats": N_(
        "this device holds the other seat of this table (seat %(seat)s): one device per "
        "seat, your opponent opens their own code on their own device"
    ),
    "online.take_seat_first": N_(
        "nobody holds this seat yet: take it with POST /api/v1/play/{code}/seat"
    ),
    "online.own_table": N_(
        "this device holds a seat at this table: its own seat page shows what it may see"
    ),
    "online.waiting_for_players": N_(
        "match %(match_id)s waits until both players have opened their seats"
    ),
    "online.seat_not_taken": N_("seat %(seat)s of match %(match_id)s is not taken"),
    "online.release_says_who": N_("releasing a seat says who decides"),
    "online.no_such_seat": N_("a seat is 0 or 1, not %(seat)s"),
    # lives.py
    "lives.no_buy_back": N_("this tournament has no buy-back of lives"),
    "lives.final_played": N_("the tournament is finished: the final has been played"),
    "lives.final_begun": N_(
        "the final has begun (round %(round)s): its players are fixed (%(names)s), nobody buys back into it"
    ),
    "lives.buy_back_closed": N_(
        "buy-back closed: the last was before round %(until)s (buy_back_until=%(until)s)"
    ),
    "lives.between_rounds": N_(
        "a life is bought back between rounds: round %(round)s is being played"
    ),
    "lives.finished_nobody_left": N_("the tournament is finished: nobody left"),
    "lives.finished_left": N_("the tournament is finished: %(left)s left"),
    # matchref.py
    "matchref.round_zero": N_("there is no match %(typed)s: rounds are numbered from 1"),
    "matchref.no_round_drawn": N_("no round is drawn yet (`tournament round start` draws round 1)"),
    "matchref.round_not_drawn": N_("round %(number)s is not drawn yet"),
    "matchref.round_not_drawn_of": N_(
        "round %(number)s is not drawn yet (rounds 1 to %(drawn)s are)"
    ),
    "matchref.no_tables": N_("round %(number)s has no tables, not table %(table)s"),
    "matchref.no_such_table": N_(
        "round %(number)s has tables %(first)s to %(last)s, not table %(table)s"
    ),
    "matchref.did_you_mean": N_("there is no match %(typed)s; did you mean %(meant)s?"),
    "matchref.no_such_match": N_("there is no match %(typed)s (%(example)s)"),
    "matchref.example_bracket": N_("a bracket id such as %(example)s, or round.table as printed"),
    "matchref.example_table": N_("round.table as printed, e.g. %(example)s"),
    # matchstate.py
    "matchstate.match_tally_records_whole": N_(
        "match %(match_id)s: a tally records a whole Bummerl, but Bummerl %(bummerls_count)s already has %(hands)s entered"
    ),
    "matchstate.match_dropped": N_("match %(match_id)s was dropped"),
    "matchstate.match_decided_forfeit_nothing": N_(
        "match %(match_id)s was decided by forfeit; nothing after that"
    ),
    "matchstate.match_decided_won_bummerl": N_(
        "match %(match_id)s is decided: %(label)s won %(max)s:%(min)s Bummerl%(schneider_note)s; nothing is entered after that"
    ),
    # the note a decided match's score carries (schneider_note_phrase), with its space
    "matchstate.one_schneider_note": N_(" (a Schneiderbummerl counts 2, R19)"),
    "matchstate.schneider_notes": N_(" (%(count)s Schneiderbummerl, each counts 2, R19)"),
    "matchstate.match_already_decided_cannot": N_(
        "match %(match_id)s is already decided; it cannot be forfeited"
    ),
    "matchstate.in_match": N_("match %(match_id)s: %(refusal)s"),
    "matchstate.engine_refused": N_("%(which)s%(explanation)s"),
    "matchstate.sheet_hand": N_("hand %(number)s of the sheet, "),
    "matchstate.dealt_by": N_(
        "%(where)s is dealt by %(expected)s, not %(dealer)s (R18: the deal alternates every hand)"
    ),
    "matchstate.engine_says": N_("%(where)s: %(text)s (%(rule)s)"),
    "matchstate.hand_of_match": N_("hand %(hand)s of the match"),
    "matchstate.hand_of_bummerl": N_("hand %(hand)s of Bummerl %(bummerl)s"),
    "matchstate.hand_of_decided_match": N_("hand %(hand)s of the match (decided)"),
    "matchstate.bummerl_hand": N_("Bummerl %(bummerl)s hand %(hand)s"),
    "matchstate.one_hand": N_("%(count)s hand"),
    "matchstate.hands": N_("%(count)s hands"),
    # pairing.py
    "pairing.tournament_finished_nobody_left": N_(
        "the tournament is finished: nobody is left to pair"
    ),
    "pairing.swiss_rounds_all_drawn": N_("this Swiss has %(total)s rounds; all are drawn"),
    "pairing.round_robin_rounds_all": N_("the round robin has %(total)s rounds; all are drawn"),
    "pairing.tournament_finished_every_game": N_(
        "the tournament is finished: every game left is dropped"
    ),
    "pairing.players_groups_smallest_but": N_(
        "%(order_count)s players in %(groups_count)s groups: the smallest has %(smallest)s, but %(advance)s of each group advance to the knockout (advance=%(advance)s); register more players, or create the tournament with fewer groups or a smaller advance"
    ),
    "pairing.tournament_finished_left": N_("the tournament is finished: %(left)s left"),
    "pairing.final_been_played": N_("the final has been played"),
    # registration.py
    "registration.already_registered": N_(
        "%(name)s%(where)s is already registered as player %(player_id)s"
    ),
    "registration.looks_the_same": N_(
        "%(name)s%(where)s looks the same as %(other)s%(theirs)s, registered as player %(player_id)s (case, invisible characters and look-alike letters aside)"
    ),
    "registration.double_true_double_round": N_(
        "double=true: a double round robin (everybody meets everybody twice) is not offered; leave the option out"
    ),
    "registration.id_letters_z_digits": N_(
        "%(tournament_id)s is not an id (letters a-z, digits 0-9, - and _)"
    ),
    "registration.such_tournament_create_first": N_("no such tournament (create it first)"),
    "registration.there_player": N_("there is no player %(player_id)s"),
    "registration.draw_fixed_once_round": N_(
        "the %(replace)s draw is fixed once round 1 has started; late entry is possible in Swiss only"
    ),
    "registration.late_entry_round_drawn": N_(
        "%(name)s is not a late entry: round 1 is not drawn yet, so no round is missed"
    ),
    "registration.player_needs_name": N_("a player needs a name"),
    "registration.rating_between": N_("a rating is between 0 and 4000, not %(rating)s"),
    "registration.player_withdrawn": N_("player %(player_id)s (%(name)s) has withdrawn"),
    "registration.seeding_fixed_once_round": N_("seeding is fixed once round 1 has started"),
    "registration.seed_seeding_draw": N_("a seed is for seeding by draw, not by %(method)s"),
    "registration.player_s_can_corrected": N_("a player's %(editable)s can be corrected"),
    "registration.say_what_correct_name": N_(
        "say what to correct: --name, --club, --category or --rating"
    ),
    "registration.drawn_round_check_undone": N_(
        "%(label)s was drawn in round %(drawn)s: a check-in is undone before the draw only; if the player has left, withdraw them (tournament players withdraw %(player_id)s)"
    ),
    "registration.fixed_once_round_drawn": N_(
        "the %(key)s of %(label)s is fixed once round 1 is drawn (it decided the seeding and the round-1 pairings); name, club and category can still be corrected"
    ),
    "registration.player_listed_twice": N_("a player is listed twice"),
    "registration.every_needs_seed_missing": N_("every %(who)s needs a seed; missing: %(map)s"),
    "registration.seeding_rating_manual_draw": N_(
        "seeding is by 'rating', 'manual' or 'draw', not %(method)s"
    ),
    "registration.there_nobody_seed_yet": N_("there is nobody to seed yet"),
    # reports.py
    "reports.sheet_empty": N_("enter the sheet: at least the first Bummerl"),
    "reports.too_many_bummerl": N_(
        "a best of %(best_of)s has at most %(best_of)s Bummerl, not %(count)s"
    ),
    "reports.sheet_undecided": N_(
        "the sheet does not decide the match (best of %(best_of)s): enter every Bummerl played"
    ),
    "reports.settled_at_desk": N_("table %(table)s: the desk has settled this match already"),
    "reports.opponent_not_reported": N_("table %(table)s: your opponent has not reported yet"),
    "reports.entered_at_desk": N_(
        "table %(table)s: the desk has entered a result already; dispute it if it is wrong"
    ),
    "reports.reason_missing": N_("say what is wrong, for the organiser"),
    "reports.reason_too_long": N_("at most %(limit)s characters, not %(length)s"),
    "reports.seat_reported_nothing": N_("match %(match_id)s: seat %(seat)s reported nothing"),
    "reports.match_has_result": N_(
        "match %(match_id)s has a result entered already: correct it at the desk"
    ),
    "reports.no_round_drawn": N_("no round is drawn yet"),
    # results.py
    "results.match_live_hand_dealt": N_(
        "match %(match_id)s, %(next_place)s: live hand %(stream)s (dealt by %(dealer)s) is in progress; play it on with `tournament live play %(stream)s SEAT:ACTION ...` or abandon it with `tournament live abandon %(stream)s --by NAME --why TEXT` (R18: one hand at a time, the deal alternates)"
    ),
    "results.match_played_online": N_(
        "match %(match_id)s is played online: its results come from the table; stop online play to enter them on paper"
    ),
    "results.there_match_round_table": N_("there is no match %(match_id)s (round.table, e.g. 2.5)"),
    "results.match_takes_result_bracket": N_(
        "match %(match_id)s (%(labels)s) takes no result: %(how)s and the bracket no longer has it after a correction: %(vacated_why)s"
    ),
    "results.match_takes_more_results": N_(
        "match %(match_id)s (%(labels)s) takes no more results: it %(why)s"
    ),
    "results.player_does_not_play": N_("player %(player_id)s does not play here (%(a)s v %(b)s)"),
    "results.at_place": N_("match %(match_id)s, %(place)s: %(refusal)s"),
    "results.bummerl": N_("Bummerl %(bummerl)s"),
    # which of several tallies or hands of one sheet was refused (results.in_sequence)
    "results.tally_of": N_("tally %(number)s of %(count)s: %(refusal)s"),
    "results.hand_of": N_("hand %(number)s of %(count)s: %(refusal)s"),
    "results.hand_gives_game_points": N_("a hand gives 1, 2 or 3 game points, not %(game_points)s"),
    "results.reason_one": N_("reason is one of %(paper_reasons)s, not %(reason)s"),
    "results.hand_worth": N_("%(what)s is worth %(words)s %(unit)s (%(why)s), not %(gp)s"),
    "results.deals_first": N_("%(label)s deals first (R18: the first dealer is recorded already)"),
    "results.columns_belong": N_("the columns belong to %(label)s and %(label2)s"),
    "results.match_knockout_match_needs": N_(
        "match %(match_id)s (%(labels)s) is a knockout match and needs a winner, so both absent is not entered: forfeit it to the player who goes on (`--forfeit P`, or P in a CSV's forfeit column, P a start number) and withdraw a player who left (`tournament players withdraw P`)"
    ),
    # progress.py: why the next round cannot be drawn yet (T-round)
    "progress.cannot_draw": N_(
        "round %(round)s cannot be drawn: %(parts)s (`tournament results missing` lists them with tables and players)"
    ),
    "progress.joined": N_("%(first)s; %(rest)s"),
    "progress.match_why": N_("match %(match_id)s %(why)s"),
    "progress.not_complete": N_("round %(round)s is not complete: %(why)s"),
    "progress.no_result_yet": N_("no result yet for %(ids)s"),
    "progress.not_decided_yet": N_("%(ids)s not decided yet"),
    "progress.open_again": N_(
        "match %(match_id)s (round %(round)s) is open again after a correction: %(needed)s"
    ),
    "progress.still_open": N_("match %(match_id)s (round %(round)s) is still open: %(needed)s"),
    "progress.open_again_players": N_(
        "match %(match_id)s (round %(round)s, %(players)s) is open again after a correction: %(needed)s"
    ),
    "progress.still_open_players": N_(
        "match %(match_id)s (round %(round)s, %(players)s) is still open: %(needed)s"
    ),
    "progress.enter_result": N_("enter its result"),
    "progress.enter_result_first": N_("enter its result first"),
    "progress.enter_decider": N_("enter its deciding Bummerl"),
    "progress.enter_decider_first": N_("enter its deciding Bummerl first"),
    "progress.enter_rest": N_(
        "enter the rest of its result (Bummerl %(a)s:%(b)s, first to %(target)s)"
    ),
    "progress.enter_rest_first": N_(
        "enter the rest of its result first (Bummerl %(a)s:%(b)s, first to %(target)s)"
    ),
    # rounds.py
    "rounds.round_needs_least_players": N_(
        "a round needs at least 2 players (checked in, not withdrawn)"
    ),
    "rounds.round_been_drawn_yet": N_("no round has been drawn yet: nothing to cancel"),
    "rounds.say_why_round_cancelled": N_("say why the round is cancelled"),
    "rounds.found_live_hand": N_("a live hand"),
    "rounds.found_signed_sheet": N_("a signed sheet"),
    "rounds.found_hand_result": N_("a hand result"),
    "rounds.found_tally_result": N_("a tally result"),
    "rounds.found_live_result": N_("a live result"),
    "rounds.found_forfeit_result": N_("a forfeit result"),
    "rounds.tournament_finished_fewer_players": N_(
        "the tournament is finished: fewer than 2 players are left"
    ),
    "rounds.round_cannot_cancelled_match": N_(
        "round %(number)s cannot be cancelled: match %(mid)s already has %(found)s; correct results with 'results correct' instead"
    ),
    "rounds.pairing_two_different_players": N_(
        "pairing %(i)s: two different players, not %(pair)s"
    ),
    "rounds.player_plays_bye": N_("player %(pid)s plays and has a bye"),
    "rounds.player_paired_twice_round": N_("player %(pid)s is paired twice in round %(number)s"),
    # roundview.py
    "roundview.round_been_drawn_yet": N_("no round has been drawn yet"),
    "roundview.rounds_counted_there_round": N_("rounds are counted from 1; there is no round 0"),
    "roundview.round_drawn_yet": N_("round %(number)s is not drawn yet (%(drawn)s)"),
    # service.py
    "service.there_tournament": N_("there is no tournament %(tournament_id)s"),
    "service.tournament_kept_changing_while": N_(
        "the tournament kept changing while writing; try again"
    ),
    "service.tournament_exists_already": N_("tournament %(tournament_id)s exists already"),
    # settings.py
    "settings.date_like": N_("%(text)s is not a date like 2026-11-27 or 27.11.2026"),
    "settings.write_year_full": N_(
        "%(text)s: write the year in full, %(day)s.%(month)s.20%(dotted)s"
    ),
    "settings.not_one_of": N_("%(value)s is not one of %(allowed)s"),
    "settings.bye_what_late_entry": N_(
        "%(value)s is not 0 or bye (what a late entry scores for each round it missed)"
    ),
    "settings.only_swiss_takes_late": N_(
        "only a Swiss takes late entries; a %(replace)s has no missed rounds to score"
    ),
    "settings.score_decided_match_first": N_(
        "a score %(won)s:%(lost)s is not a decided match (first to %(target)s Bummerl)"
    ),
    "settings.unknown_options": N_("unknown option(s) %(options)s for %(fmt)s (known: %(known)s)"),
    "settings.player_lives": N_("a player has 2 or 3 lives"),
    "settings.there_least_one_group": N_("there is at least one group"),
    "settings.advance_must_more_players": N_(
        "advance must be 1 or more: the players of each group into the knockout"
    ),
    "settings.group_advance_sends_player": N_(
        "%(option)s group with advance=%(option2)s sends 1 player into the knockout; a knockout needs 2 or more (more groups, or advance=2)"
    ),
    "settings.final_players_must_more": N_(
        "final_players must be 2 or more (a final is played among them), not %(option)s"
    ),
    "settings.buy_back_contradicts_buy": N_(
        "buy_back=%(lower)s contradicts buy_backs=%(count)s (give buy_backs=N alone; 0: no buy-back)"
    ),
    "settings.buy_back_until_needs": N_(
        "buy_back_until needs buy_backs=1 or more (0: no buy-back)"
    ),
    "settings.buy_back_until_must": N_(
        "buy_back_until must be 2 or more (a buy-back comes before round 2 at the earliest), or 0 for any round"
    ),
    "settings.tournament_needs_name": N_("a tournament needs a name"),
    "settings.schneiderbummerl_but_variant_schneiderbummerl": N_(
        "Schneiderbummerl is on but variant no-schneiderbummerl is set"
    ),
    "settings.match_best_bummerl": N_("a match is best of 1, 3, 5 or 7 Bummerl, not %(best_of)s"),
    "settings.tie_break_listed_twice": N_("a tie-break is listed twice"),
    "settings.seed_must_integer": N_("the seed must be an integer, not %(seed)s"),
    "settings.day_calendar": N_("%(text)s is not a day of the calendar"),
    "settings.score_like": N_("%(raw)s is not a score like [2, 0]"),
    "settings.unknown_variant": N_("unknown variant %(variant)s (%(known)s)"),
    "settings.unknown_tie_break": N_("unknown tie-break %(tb)s (%(tiebreaks)s)"),
    "settings.must_true_false": N_("%(key)s must be true or false"),
    "settings.must_whole_number": N_("%(key)s must be a whole number >= 0"),
    # signing.py
    "signing.match_decided_yet_bummerl": N_(
        "match %(match_id)s is not decided yet (Bummerl %(a)s:%(b)s, %(next_place)s next); players sign the finished sheet"
    ),
    # standings_view.py
    "standings_view.tournament_events_see_tournament": N_(
        "tournament %(id)s has events 1 to %(version)s (see `tournament log`), not %(as_of)s"
    ),
    "standings_view.tournament_round_t_round": N_(
        "tournament %(id)s has %(drawn)s, not round %(number)s (T-round)"
    ),
    "standings_view.player_category": N_("no player has category %(category)s (%(these)s)"),
    "standings_view.tournament_groups_t_format": N_("this tournament has no groups (T-format)"),
    "standings_view.there_groups_t_format": N_(
        "there are groups 1 to %(groups_count)s, not %(group)s (T-format)"
    ),
    # startnumbers.py
    "startnumbers.start_number_given_e": N_("no start number given, e.g. 1,2,5 or 1-38"),
    "startnumbers.goes_manual": N_(
        "%(order_field)s goes with %(method_field)s manual, not %(method_field)s %(method)s"
    ),
    "startnumbers.manual_needs_every_start": N_(
        "%(method_field)s manual needs %(order_field)s: every start number, top seed first"
    ),
    "startnumbers.range_runs_upwards_e": N_(
        "%(item)s: a range runs upwards, e.g. %(high)s-%(low)s"
    ),
    "startnumbers.more_start_numbers_field": N_(
        "more than %(max_ids)s start numbers; no field is that large"
    ),
    "startnumbers.there_player": N_("%(typed)sthere is no player %(wrong)s (%(known)s)"),
    "startnumbers.start_numbers_like_range": N_(
        "%(item)s: start numbers like 1,2,5 or a range 1-38 (digits 0-9)"
    ),
    # tablecodes.py
    "tablecodes.revoked": N_(
        "the code of table %(table)s was revoked by the organiser: ask the desk for the new one"
    ),
    "tablecodes.expired": N_(
        "round %(round)s is closed: its table codes have expired; a correction goes through the desk"
    ),
    "tablecodes.unknown": N_(
        "this is not a code of a table in play: check the letters on the card"
    ),
    # tally.py
    "tally.columns_or_rows": N_("a tally has 'columns' or 'rows'"),
    "tally.two_columns": N_("a tally has two columns separated by '/', not %(columns)s"),
    "tally.one_column_per_player": N_("a tally has one column per player, two in all"),
    "tally.not_finished": N_(
        "no count ends at 0: the Bummerl is not finished (the winner strikes to 0)"
    ),
    "tally.both_end_at_zero": N_("both counts end at 0; only the first to 0 wins the Bummerl"),
    "tally.count_out_of_range": N_("hand %(hand)s: a count runs from 7 to 0, not %(after)s"),
    "tally.count_stays": N_(
        "hand %(hand)s: %(who)s's count stays at %(after)s; a column lists the count each time it changes, e.g. '7 4 1 0 / 7', or write both counts after every hand, e.g. '7:7 7:4 7:1 7:0'"
    ),
    "tally.count_goes_up": N_(
        "hand %(hand)s: %(who)s's count goes from %(before)s to %(after)s; it only goes down"
    ),
    "tally.step_too_large": N_(
        "hand %(hand)s: %(who)s's count goes from %(before)s to %(after)s, a step of %(step)s; a hand gives 1, 2 or 3 game points"
    ),
    "tally.not_a_tally": N_("%(text)s is not a tally like '7 5 4 1 0 / 7 6 3' or '7:7 ...'"),
    "tally.column_repeats": N_(
        "hand %(hand)s: %(who)s's column '%(column)s' repeats %(repeated)s; a column lists the count each time it changes, e.g. '7 4 1 0 / 7', or write both counts after every hand, e.g. '7:7 7:4 7:1 7:0'"
    ),
    "tally.hand_after_end": N_(
        "hand %(hand)s: the Bummerl ended at hand %(last)s; no further hand"
    ),
    "tally.one_player_per_hand": N_(
        "hand %(hand)s: %(before_first)s:%(before_second)s -> %(after_first)s:%(after_second)s; exactly one player (the hand's winner) strikes off per hand"
    ),
    "tally.hand_after_zero": N_(
        "%(who)s's count reached 0 at their hand %(hand)s; a hand after the Bummerl ended cannot be entered"
    ),
    # text.py
    "text.thousands_hint": N_("digits 0-9; without a thousands separator: %(number)s"),
    "text.not_a": N_("%(text)s is not %(what)s (%(hint)s)"),
    "text.too_large_most_digits": N_(
        "%(text)s is too large for %(what)s (at most %(digits)s digits)"
    ),
    "text.longer_characters": N_("%(text)s is longer than %(limit)s characters"),
    "text.control_character_position_plain": N_(
        "control character %(char_name)s at position %(position)s; %(what)s is plain text"
    ),
    "text.bidi_control_position_reorders": N_(
        "bidi control %(char_name)s at position %(position)s (it reorders what is shown); %(what)s is plain text"
    ),
    # withdrawal.py
    "withdrawal.player_already_withdrawn": N_(
        "player %(player_id)s (%(name)s) has already withdrawn"
    ),
    "withdrawal.player_cannot_withdraw_tournament": N_(
        "player %(player_id)s (%(name)s) cannot withdraw: the tournament is finished and its standings are final"
    ),
    "withdrawal.forfeit_drop": N_("'forfeit' or 'drop', not %(policy)s"),
}

#: English words of the domain that reach a message as a param (a tally's seats, before
#: the players are known: tournament.domain.model.tally.SEATS; what a text field is): a page
#: translates these values,
#: any other param (a name, a number, what the organiser typed) is shown as it is.
WORDS: Final[frozenset[str]] = frozenset(
    {
        # the reason an undo at the scoresheet desk gives (web/pages/desk_undo.py)
        N_("undone at the scoresheet desk"),
        N_("the first column's player"),
        N_("the second column's player"),
        # what tournament.domain.model.text checks (its ``what``), and its hint
        N_("a whole number"),
        N_("a name"),
        N_("a club"),
        N_("a category"),
        N_("a reason"),
        N_("a tournament id"),
        N_("a tournament name"),
        N_("a venue"),
        N_("digits 0-9"),
        # how a hand ended (engine.scoring's reason, "_" as a space: eventwords._hand)
        N_("claim"),
        N_("false claim"),
        N_("last trick"),
        N_("closer failed"),
        # a tournament's format, as its creation's words name it (eventwords._created)
        N_("swiss"),
        N_("round robin"),
        N_("single elimination"),
        N_("double elimination"),
        N_("groups knockout"),
        N_("lives"),
    }
)

#: Every code a refusal may carry: the domain's, and the formats' that rounds.py passes on
#: with a format's error (tournament/formats/messages.py).
ALL_TEMPLATES: Final[dict[str, str]] = {**TEMPLATES, **FORMAT_TEMPLATES}

#: Every code a phrase may carry: a refusal's, and the domain's other words a page shows
#: (tournament/domain/words/wording.py: stages, warnings, flags).
EVERY_TEMPLATE: Final[dict[str, str]] = {**ALL_TEMPLATES, **TEXT_TEMPLATES}
