"""One hand (deal) of Schnapsen as a state machine: R0-R16.

    >>> from engine import HandState, Action
    >>> deck = "QS AH TC KC QC JH KH TD AD AS TS JS JD KD QD JC KS QH TH AC".split()
    >>> state = HandState.deal(deck, dealer=0)
    >>> state.to_act, str(state.turnup), state.trump
    ((1,), 'KH', <Suit.HEARTS: 2>)
    >>> [str(a) for a in state.legal_actions()][:3]
    ['1:close', '1:TC', '1:AD']
    >>> state = state.apply(Action.parse("1:AH")).apply(Action.parse("0:QC"))
    >>> state.leader, state.points
    (1, (0, 14))

``apply`` returns a new state and never changes the one it is called on; an action the
rules forbid raises :class:`~engine.errors.IllegalActionError` naming the rule. Internally
the hand keeps cards as bit masks (see :mod:`engine.cards`) so that replaying a record
with every rule checked costs a few microseconds per action.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from engine.actions import Action, Kind
from engine.cards import (
    ALL_CARDS,
    ALL_CARDS_MASK,
    CARD_POINTS,
    CARD_RANK,
    CARD_SUIT,
    HIGHER_IN_SUIT,
    JACK_OF,
    LOWER_IN_SUIT,
    PARTNER,
    SUIT_MASK,
    Card,
    Rank,
    Suit,
    is_seat,
    mask_cards,
    mask_indices,
)
from engine.errors import IllegalActionError, RecordFormatError
from engine.outcome import Outcome
from engine.rules import DEFAULT_RULES, Ruleset
from engine.scoring import ClaimFacts, r13_game_points, score_all_played, score_claim

# Phases of a hand.
LEAD: Final = 0  # the leader may claim (R12a), exchange (R8), close (R9), lead (R10)
REPLY: Final = 1  # the other seat replies; after a marriage lead the leader may claim (R12b)
ALL_PLAYED: Final = 2  # all cards played: over unless the last trick's winner claims (R16)
ENDED: Final = 3  # ended by a claim


class Trick(NamedTuple):
    """A completed trick: who led what, the reply, who won it."""

    leader: int
    lead: Card
    reply: Card
    winner: int

    @property
    def points(self) -> int:
        return self.lead.points + self.reply.points


class Marriage(NamedTuple):
    """A declared marriage (R10): the card led and the partner card shown."""

    seat: int
    suit: Suit
    led: Card
    shown: Card
    value: int
    trick_number: int  # 0-based number of the trick it was led to


class HandState:
    """The complete state of one hand. Treat it as immutable: ``apply`` returns a new one."""

    __slots__ = (
        "_card_points",
        "_closed_by",
        "_frozen_points",
        "_frozen_tricks",
        "_hands",
        "_history",
        "_last_winner",
        "_lead",
        "_lead_marriage",
        "_leader",
        "_marriage_points",
        "_marriages",
        "_may_claim",
        "_phase",
        "_result",
        "_stock",
        "_stock_pos",
        "_trick_count",
        "_tricks",
        "_turnup",
        "_won",
        "dealer",
        "deck",
        "rules",
        "trump",
    )

    rules: Ruleset
    dealer: int
    deck: tuple[Card, ...]
    trump: Suit
    _hands: list[int]  # card mask per seat
    _won: list[int]  # cards taken in tricks, per seat
    _tricks: list[int]
    _card_points: list[int]
    _marriage_points: list[int]  # declared, counting only once the seat has a trick (R10)
    _marriages: tuple[Marriage, ...]
    _turnup: int  # card index, -1 once drawn (talon exhausted)
    _stock: tuple[int, ...]  # the nine face-down talon cards, top first
    _stock_pos: int  # next face-down card to draw
    _trick_count: int
    _leader: int
    _phase: int
    _lead: int  # card led to the current trick, -1 if none
    _lead_marriage: bool
    _may_claim: int  # seat that may claim as its first action after a trick (R12a), or -1
    _closed_by: int  # -1 while not closed
    _frozen_tricks: int  # closer's opponent at the moment of closing (R9, R14)
    _frozen_points: int
    _last_winner: int
    _history: tuple[int, ...]
    _result: tuple[int, int, str] | None

    # --- construction -------------------------------------------------------------------
    @classmethod
    def deal(
        cls,
        deck: Sequence[Card | str],
        dealer: int = 0,
        rules: Ruleset = DEFAULT_RULES,
    ) -> HandState:
        """Deal from ``deck`` (20 cards, top of the pack first) as R2 prescribes.

        Forehand (the seat that is not ``dealer``) gets cards 1-3 and 8-9, the dealer 4-6 and
        10-11, card 7 is the turn-up and cards 12-20 are the talon, drawn top first.
        """
        if not is_seat(dealer):
            raise RecordFormatError("R2", f"dealer must be seat 0 or 1, not {dealer!r}")
        cards = _read_deck(deck)
        order = [c.index for c in cards]
        forehand = 1 - dealer
        state = object.__new__(cls)
        s = state
        s.rules = rules
        s.dealer = dealer
        s.deck = tuple(cards)
        s.trump = Suit(CARD_SUIT[order[6]])
        hands = [0, 0]
        for i in (0, 1, 2, 7, 8):
            hands[forehand] |= 1 << order[i]
        for i in (3, 4, 5, 9, 10):
            hands[dealer] |= 1 << order[i]
        s._hands = hands
        s._turnup = order[6]
        s._stock = tuple(order[11:])
        s._stock_pos = 0
        s._won = [0, 0]
        s._tricks = [0, 0]
        s._card_points = [0, 0]
        s._marriage_points = [0, 0]
        s._marriages = ()
        s._trick_count = 0
        s._leader = forehand
        s._phase = LEAD
        s._lead = -1
        s._lead_marriage = False
        s._may_claim = -1
        s._closed_by = -1
        s._frozen_tricks = 0
        s._frozen_points = 0
        s._last_winner = -1
        s._history = ()
        s._result = None
        return state

    def copy(self) -> HandState:
        """A shallow copy with its own mutable lists (the rest is immutable)."""
        new = copy.copy(self)
        new._hands = self._hands[:]
        new._won = self._won[:]
        new._tricks = self._tricks[:]
        new._card_points = self._card_points[:]
        new._marriage_points = self._marriage_points[:]
        return new

    # --- transitions --------------------------------------------------------------------
    def apply(self, action: Action) -> HandState:
        """The state after ``action``; raises :class:`IllegalActionError` (with the rule id)."""
        new = self.copy()
        new._apply_in_place(action)
        return new

    def apply_all(self, actions: Iterable[Action]) -> HandState:
        """Apply a sequence of actions; an error carries the index of the first bad one."""
        new = self.copy()
        for index, action in enumerate(actions):
            try:
                new._apply_in_place(action)
            except IllegalActionError as error:
                raise error.with_index(index) from None
        return new

    def _apply_in_place(self, action: Action) -> None:
        seat = action.seat
        kind = action.kind
        phase = self._phase
        if phase == ENDED:
            raise IllegalActionError("R0", "the hand is over: it ended with a claim (R12)")
        if phase == ALL_PLAYED:
            if kind == Kind.CLAIM and seat == self._may_claim:
                self._claim(seat)
                return
            raise IllegalActionError(
                "R0" if kind != Kind.CLAIM else "R12",
                f"all cards are played: only seat {self._last_winner}, who won the last "
                "trick, may still claim (R12a, R16)",
            )
        leader = self._leader
        if kind == Kind.PLAY:
            card = action.card
            assert card is not None
            ci = card.index
            if phase == LEAD:
                if seat != leader:
                    raise IllegalActionError(
                        "R0", f"seat {seat} may not act now: seat {leader} is to lead (R3)"
                    )
                if not self._hands[seat] >> ci & 1:
                    raise IllegalActionError("R0", f"seat {seat} does not hold {card.code}")
                if action.marriage:
                    self._declare_marriage(seat, ci)
                self._hands[seat] &= ~(1 << ci)  # the card is on the table now
                self._lead = ci
                self._lead_marriage = action.marriage
                self._may_claim = -1
                self._phase = REPLY
                return
            # REPLY
            if seat == leader:
                raise IllegalActionError(
                    "R0",
                    f"seat {seat} has led {ALL_CARDS[self._lead].code}; seat {1 - seat} replies",
                )
            hand = self._hands[seat]
            if not hand >> ci & 1:
                raise IllegalActionError("R0", f"seat {seat} does not hold {card.code}")
            if action.marriage:
                raise IllegalActionError(
                    "R10", "only the leader declares a marriage, by leading one of the pair"
                )
            lead = self._lead
            if self._closed_by >= 0 or self._talon_count() == 0:
                allowed = _strict_replies(hand, lead, self.trump)
                if not allowed >> ci & 1:
                    raise IllegalActionError("R6", _strict_message(hand, lead, self.trump, card))
            self._finish_trick(seat, ci)
            return
        if kind == Kind.CLAIM:
            if seat == self._may_claim or (
                phase == REPLY and self._lead_marriage and seat == leader
            ):
                self._claim(seat)
                return
            raise IllegalActionError("R12", self._why_no_claim(seat))
        # EXCHANGE and CLOSE are pre-lead actions of the leader (R8, R9).
        if seat != leader or phase != LEAD:
            who = "lead" if phase == LEAD else "reply"
            raise IllegalActionError(
                "R0",
                f"seat {seat} may not {kind.word} now: seat "
                f"{leader if phase == LEAD else 1 - leader} is to {who}; only the leader "
                f"{'exchanges (R8)' if kind == Kind.EXCHANGE else 'closes (R9)'} before leading",
            )
        if kind == Kind.EXCHANGE:
            self._exchange(seat)
        else:
            self._close(seat)

    def _declare_marriage(self, seat: int, ci: int) -> None:
        partner = PARTNER[ci]
        card = ALL_CARDS[ci]
        if partner < 0:
            raise IllegalActionError(
                "R10", f"a marriage is led with its king or queen, not with {card.code}"
            )
        if not self._hands[seat] >> partner & 1:
            raise IllegalActionError(
                "R10",
                f"seat {seat} cannot declare a marriage with {card.code}: it does not hold "
                f"{ALL_CARDS[partner].code}",
            )
        rules = self.rules
        if rules.no_first_trick_marriage and self._trick_count == 0:
            raise IllegalActionError(
                "R10", "variant no-first-trick-marriage: no marriage on the first lead"
            )
        if rules.marriage_king_lead and CARD_RANK[ci] != Rank.KING:
            raise IllegalActionError(
                "R10",
                f"variant marriage-king-lead: lead the king {ALL_CARDS[partner].code}, "
                f"not the queen {card.code}",
            )
        suit = CARD_SUIT[ci]
        value = 40 if suit == self.trump else 20
        self._marriage_points[seat] += value
        self._marriages = (
            *self._marriages,
            Marriage(seat, Suit(suit), card, ALL_CARDS[partner], value, self._trick_count),
        )

    def _finish_trick(self, replier: int, reply: int) -> None:
        lead = self._lead
        leader = 1 - replier
        # R4: the higher card of the suit led wins, unless a trump answers a non-trump lead.
        lead_suit = CARD_SUIT[lead]
        reply_suit = CARD_SUIT[reply]
        if reply_suit == lead_suit:
            winner = replier if CARD_RANK[reply] < CARD_RANK[lead] else leader
        else:
            winner = replier if reply_suit == self.trump else leader
        hands = self._hands
        hands[replier] &= ~(1 << reply)
        self._won[winner] |= (1 << lead) | (1 << reply)
        self._card_points[winner] += CARD_POINTS[lead] + CARD_POINTS[reply]
        self._tricks[winner] += 1
        self._trick_count += 1
        self._last_winner = winner
        # One int per trick keeps replay cheap; ``tricks`` unpacks them.
        self._history = (*self._history, leader | lead << 1 | reply << 6 | winner << 11)
        self._lead = -1
        self._lead_marriage = False
        self._leader = winner
        self._may_claim = winner  # R12a
        self._phase = LEAD
        # R7: while the talon is open the winner draws first, then the loser; the loser of
        # the fifth trick takes the turn-up.
        if self._closed_by < 0 and self._turnup >= 0:
            pos = self._stock_pos
            hands[winner] |= 1 << self._stock[pos]
            if pos == 8:
                hands[1 - winner] |= 1 << self._turnup
                self._turnup = -1
                self._stock_pos = 9
            else:
                hands[1 - winner] |= 1 << self._stock[pos + 1]
                self._stock_pos = pos + 2
        if not hands[0] | hands[1]:
            # All cards played: ten tricks, or fewer when the talon was closed (R14, R16).
            self._phase = ALL_PLAYED

    def _exchange(self, seat: int) -> None:
        if self._closed_by >= 0:
            raise IllegalActionError("R8", "no trump jack exchange after the talon is closed")
        if self._turnup < 0:
            raise IllegalActionError("R8", "no trump jack exchange: the talon is exhausted")
        jack = JACK_OF[self.trump]
        if not self._hands[seat] >> jack & 1:
            raise IllegalActionError(
                "R8", f"seat {seat} does not hold the trump jack {ALL_CARDS[jack].code}"
            )
        if self.rules.no_first_trick_exchange and self._trick_count == 0:
            raise IllegalActionError(
                "R8", "variant no-first-trick-exchange: no exchange on the first lead"
            )
        if self.rules.no_exchange_at_two and self._talon_count() == 2:
            raise IllegalActionError(
                "R8", "variant no-exchange-at-two: no exchange when the talon counts 2 cards"
            )
        self._hands[seat] ^= (1 << jack) | (1 << self._turnup)
        self._turnup = jack
        self._may_claim = -1

    def _close(self, seat: int) -> None:
        if self._closed_by >= 0:
            raise IllegalActionError("R9", f"the talon is already closed by seat {self._closed_by}")
        if self._turnup < 0:
            raise IllegalActionError("R9", "the talon is exhausted: there is nothing to close")
        if self.rules.no_close_at_two and self._talon_count() == 2:
            raise IllegalActionError(
                "R9", "variant no-close-at-two: no closing when the talon counts 2 cards"
            )
        opponent = 1 - seat
        self._closed_by = seat
        self._frozen_tricks = self._tricks[opponent]
        self._frozen_points = self._points(opponent)
        self._may_claim = -1

    def _claim(self, seat: int) -> None:
        opponent = 1 - seat
        closed = self._closed_by >= 0
        self._result = score_claim(
            ClaimFacts(
                claimer=seat,
                claimer_points=self._points(seat),
                opponent_tricks=self._tricks[opponent],
                opponent_points=self._points(opponent),
                closed_by=self._closed_by if closed else None,
                frozen_tricks=self._frozen_tricks,
                frozen_points=self._frozen_points,
                false_claim_mirror=self.rules.false_claim_mirror,
            )
        )
        self._phase = ENDED
        self._may_claim = -1

    def _why_no_claim(self, seat: int) -> str:
        if self._phase == REPLY and self._lead_marriage:
            return (
                f"seat {seat} may not claim now: only seat {self._leader}, who led the "
                "marriage, may claim before the reply"
            )
        if self._trick_count == 0:
            return "no claim before a trick is won or a marriage is led (R12)"
        if self._phase == LEAD and seat == self._leader:
            return (
                f"seat {seat} may claim only as its first action after winning a trick, or "
                "right after leading a marriage"
            )
        return (
            f"seat {seat} may not claim now: a claim comes right after winning a trick or "
            "right after leading a marriage"
        )

    # --- derived facts ------------------------------------------------------------------
    def _talon_count(self) -> int:
        return 9 - self._stock_pos + (1 if self._turnup >= 0 else 0)

    def _points(self, seat: int) -> int:
        points = self._card_points[seat]
        return points + self._marriage_points[seat] if self._tricks[seat] else points

    @property
    def forehand(self) -> int:
        return 1 - self.dealer

    @property
    def leader(self) -> int:
        """The seat that leads the current trick (R3)."""
        return self._leader

    @property
    def points(self) -> tuple[int, int]:
        """R11 points of both seats: card points of tricks plus marriages that count."""
        return (self._points(0), self._points(1))

    @property
    def card_points(self) -> tuple[int, int]:
        return (self._card_points[0], self._card_points[1])

    @property
    def pending_marriage_points(self) -> tuple[int, int]:
        """Marriage points declared but not counting yet, for want of a trick (R10)."""
        return tuple(0 if self._tricks[s] else self._marriage_points[s] for s in (0, 1))  # type: ignore[return-value]

    @property
    def tricks_won(self) -> tuple[int, int]:
        return (self._tricks[0], self._tricks[1])

    @property
    def trick_count(self) -> int:
        return self._trick_count

    @property
    def talon_count(self) -> int:
        """Cards in the talon, the turn-up included (10 at the start, R2)."""
        return self._talon_count()

    @property
    def turnup(self) -> Card | None:
        """The turn-up while it lies under the talon; None once drawn."""
        return None if self._turnup < 0 else ALL_CARDS[self._turnup]

    @property
    def talon(self) -> list[Card]:
        """The talon's cards, top first, turn-up last (hidden information)."""
        rest = [ALL_CARDS[i] for i in self._stock[self._stock_pos :]]
        return rest + ([ALL_CARDS[self._turnup]] if self._turnup >= 0 else [])

    @property
    def closed_by(self) -> int | None:
        return None if self._closed_by < 0 else self._closed_by

    @property
    def is_closed(self) -> bool:
        return self._closed_by >= 0

    @property
    def is_exhausted(self) -> bool:
        return self._turnup < 0

    @property
    def strict(self) -> bool:
        """Whether replies must follow R6 (talon closed or exhausted)."""
        return self._closed_by >= 0 or self._turnup < 0

    @property
    def frozen_opponent(self) -> tuple[int, int] | None:
        """(tricks, points) of the closer's opponent when the talon was closed (R9, R14)."""
        return None if self._closed_by < 0 else (self._frozen_tricks, self._frozen_points)

    @property
    def lead_card(self) -> Card | None:
        """The card led to the current trick, while the reply is awaited."""
        return None if self._lead < 0 else ALL_CARDS[self._lead]

    @property
    def lead_is_marriage(self) -> bool:
        return self._lead_marriage

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks in order."""
        return [
            Trick(code & 1, ALL_CARDS[code >> 1 & 31], ALL_CARDS[code >> 6 & 31], code >> 11)
            for code in self._history
        ]

    @property
    def marriages(self) -> tuple[Marriage, ...]:
        return self._marriages

    def cards_of(self, seat: int) -> list[Card]:
        """The cards seat holds (hidden from the other seat)."""
        return mask_cards(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    def won_cards(self, seat: int) -> list[Card]:
        return mask_cards(self._won[seat])

    @property
    def is_over(self) -> bool:
        """True when the hand has a result: ended by a claim, or all cards played.

        After the last trick its winner may still claim (R12a, R16), which replaces
        the provisional result; ``legal_actions`` then lists that claim.
        """
        return self._phase >= ALL_PLAYED

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: one, or both right after a marriage lead (R12b)."""
        phase = self._phase
        if phase == LEAD:
            return (self._leader,)
        if phase == REPLY:
            replier = 1 - self._leader
            return (0, 1) if self._lead_marriage else (replier,)
        if phase == ALL_PLAYED:
            return (self._may_claim,)
        return ()

    def outcome(self) -> Outcome:
        points = self.points
        tricks = (self._tricks[0], self._tricks[1])
        phase = self._phase
        if phase == ENDED:
            assert self._result is not None
            winner, game_points, reason = self._result
        elif phase == ALL_PLAYED:
            winner, game_points, reason = score_all_played(
                self.closed_by, self._frozen_tricks, self._last_winner
            )
        else:
            return Outcome(False, points, tricks, to_act=self.to_act)
        return Outcome(True, points, tricks, winner, game_points, reason)

    # --- legal actions ------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action that ``apply`` accepts now, for all seats that may act."""
        phase = self._phase
        if phase == ENDED:
            return []
        if phase == ALL_PLAYED:
            return [Action(self._may_claim, Kind.CLAIM)]
        leader = self._leader
        if phase == REPLY:
            replier = 1 - leader
            hand = self._hands[replier]
            if self._closed_by >= 0 or self._turnup < 0:
                hand = _strict_replies(hand, self._lead, self.trump)
            replies = [Action(replier, Kind.PLAY, ALL_CARDS[i]) for i in mask_indices(hand)]
            return [Action(leader, Kind.CLAIM), *replies] if self._lead_marriage else replies
        actions: list[Action] = []
        if self._may_claim == leader:
            actions.append(Action(leader, Kind.CLAIM))
        hand = self._hands[leader]
        rules = self.rules
        open_talon = self._closed_by < 0 and self._turnup >= 0
        at_two = self._talon_count() == 2
        first = self._trick_count == 0
        if (
            open_talon
            and hand >> JACK_OF[self.trump] & 1
            and not (rules.no_first_trick_exchange and first)
            and not (rules.no_exchange_at_two and at_two)
        ):
            actions.append(Action(leader, Kind.EXCHANGE))
        if open_talon and not (rules.no_close_at_two and at_two):
            actions.append(Action(leader, Kind.CLOSE))
        marriages_allowed = not (rules.no_first_trick_marriage and first)
        for i in mask_indices(hand):
            card = ALL_CARDS[i]
            actions.append(Action(leader, Kind.PLAY, card))
            partner = PARTNER[i]
            if (
                marriages_allowed
                and partner >= 0
                and hand >> partner & 1
                and not (rules.marriage_king_lead and CARD_RANK[i] != Rank.KING)
            ):
                actions.append(Action(leader, Kind.PLAY, card, True))
        return actions

    def is_legal(self, action: Action) -> bool:
        try:
            self.apply(action)
        except IllegalActionError:
            return False
        return True

    def __repr__(self) -> str:
        hands = " / ".join(" ".join(c.code for c in self.cards_of(s)) for s in (0, 1))
        return (
            f"<HandState trump={self.trump.letter} tricks={self._trick_count} "
            f"to_act={list(self.to_act)} hands=[{hands}]>"
        )


def _strict_replies(hand: int, lead: int, trump: int) -> int:
    """R6: the cards a reply may be when the talon is closed or exhausted."""
    higher = hand & HIGHER_IN_SUIT[lead]
    if higher:
        return higher
    same = hand & LOWER_IN_SUIT[lead]
    if same:
        return same
    trumps = hand & SUIT_MASK[trump]
    return trumps or hand


def _strict_message(hand: int, lead: int, trump: int, card: Card) -> str:
    lead_code = ALL_CARDS[lead].code
    allowed = " ".join(c.code for c in mask_cards(_strict_replies(hand, lead, trump)))
    if hand & HIGHER_IN_SUIT[lead]:
        why = f"a higher card of the suit led must beat {lead_code} (R6a)"
    elif hand & LOWER_IN_SUIT[lead]:
        why = "the suit led must be followed (R6b)"
    else:
        why = "with no card of the suit led, a trump must be played (R6c)"
    return f"{card.code} may not answer {lead_code} in strict play: {why}; allowed: {allowed}"


_CODE_TO_CARD: Final = {card.code: card for card in ALL_CARDS}


def _read_deck_fast(deck: object) -> list[Card] | None:
    """The common case, 20 distinct cards in canonical codes (or Card values), in one pass;
    None sends anything else to the careful path that names the error."""
    if not isinstance(deck, list | tuple) or len(deck) != 20:
        return None
    get = _CODE_TO_CARD.get
    cards: list[Card] = []
    total = 0
    for item in deck:
        card = item if type(item) is Card else get(item) if type(item) is str else None
        if card is None:
            return None
        cards.append(card)
        total += card.mask
    # Twenty powers of two sum to 2**20 - 1 only if no two are equal (no carries).
    return cards if total == ALL_CARDS_MASK else None


def _read_deck(deck: Sequence[Card | str]) -> list[Card]:
    fast = _read_deck_fast(deck)
    if fast is not None:
        return fast
    if isinstance(deck, str) or not isinstance(deck, Sequence):
        raise RecordFormatError("R1", "the deck must be a list of 20 card codes")
    cards: list[Card] = []
    for position, item in enumerate(deck):
        known = _CODE_TO_CARD.get(item) if isinstance(item, str) else None
        if known is not None:
            cards.append(known)
            continue
        if isinstance(item, Card):
            cards.append(item)
            continue
        try:
            cards.append(Card.parse(item))
        except ValueError as error:
            raise RecordFormatError("R1", f"deck position {position}: {error}") from None
    if len(cards) != 20:
        raise RecordFormatError("R1", f"the deck must hold 20 cards, not {len(cards)}")
    seen = 0
    for position, card in enumerate(cards):
        if seen & card.mask:
            raise RecordFormatError("R1", f"deck position {position}: {card.code} appears twice")
        seen |= card.mask
    assert seen == ALL_CARDS_MASK
    return cards


__all__ = ["HandState", "Marriage", "Outcome", "Trick", "r13_game_points"]
