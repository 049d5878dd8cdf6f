"""Cards, suits and ranks of the 20-card Schnapsen pack (R1).

Cards are small immutable values with a text notation that round-trips::

    >>> from engine.cards import Card
    >>> card = Card.parse("TH")
    >>> card
    Card.parse('TH')
    >>> str(card), card.points
    ('TH', 10)
    >>> Card.parse("10H") is card and Card.parse("♥10") is card
    True

Inside the engine a card is also an index 0..19 (``card.index``) and a set of cards is a
20-bit integer mask, so that hands, legal replies (R6) and point sums are a few bit
operations. The index orders cards by suit, then by rank from the ace down, so the cards of
one suit that beat a given card are the lower bits of that suit's block.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import Final, TypeGuard


class Suit(enum.IntEnum):
    """The four suits, by their record letters (R1)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter (``H``) or symbol (``♥``)."""
        try:
            return _SUIT_BY_TEXT[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown suit {text!r} (R1: suits are C, D, H, S)") from None

    def __str__(self) -> str:
        return self.letter


class Rank(enum.IntEnum):
    """The five ranks, strongest first (R1: A > T > K > Q > J)."""

    ACE = 0
    TEN = 1
    KING = 2
    QUEEN = 3
    JACK = 4

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]

    @property
    def points(self) -> int:
        return RANK_POINTS[self]

    def __str__(self) -> str:
        return self.letter


SUIT_LETTERS: Final = ("C", "D", "H", "S")
SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
RANK_LETTERS: Final = ("A", "T", "K", "Q", "J")
RANK_POINTS: Final = (11, 10, 4, 3, 2)

_SUIT_BY_TEXT: Final = {
    **{letter: Suit(i) for i, letter in enumerate(SUIT_LETTERS)},
    **{symbol: Suit(i) for i, symbol in enumerate(SUIT_SYMBOLS)},
    # The symbols also come in their outline forms (♡ ♢ ♤ ♧) from some keyboards.
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
_RANK_BY_TEXT: Final = {
    **{letter: Rank(i) for i, letter in enumerate(RANK_LETTERS)},
    "10": Rank.TEN,
}

NUM_CARDS: Final = 20
ALL_CARDS_MASK: Final = (1 << NUM_CARDS) - 1


class Card:
    """One of the 20 cards. Instances are interned: ``Card.parse("TH") is Card.parse("TH")``.

    ``str(card)`` is the record code (rank then suit, ``TH``); ``repr(card)`` evaluates back
    to the same card.
    """

    __slots__ = ("code", "index", "mask", "points", "rank", "suit")

    index: int
    suit: Suit
    rank: Rank
    code: str
    points: int
    mask: int

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        return _CARDS[suit * 5 + rank]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        suit, rank = Suit(index // 5), Rank(index % 5)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "code", rank.letter + suit.letter)
        object.__setattr__(card, "points", rank.points)
        object.__setattr__(card, "mask", 1 << index)
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        return _CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card code: ``TH`` (written form), also ``10H``, ``th``, ``♥10``, ``H10``.

        Raises :class:`ValueError` naming R1 for anything else.
        """
        if not isinstance(text, str):
            raise ValueError(f"a card code must be a string, not {text!r}")
        card = _CARD_BY_TEXT.get(text.strip().upper())
        if card is None:
            raise ValueError(
                f"unknown card code {text!r} (R1: rank A, T, K, Q, J then suit C, D, H, S, "
                "for example 'TH')"
            )
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


_CARDS: Final = tuple(Card._make(i) for i in range(NUM_CARDS))
ALL_CARDS: Final = _CARDS
_CARD_BY_TEXT: Final[dict[str, Card]] = {}
for _card in _CARDS:
    for _rank_text in [t for t, r in _RANK_BY_TEXT.items() if r == _card.rank]:
        for _suit_text in [t for t, s in _SUIT_BY_TEXT.items() if s == _card.suit]:
            _CARD_BY_TEXT[_rank_text + _suit_text] = _card
            _CARD_BY_TEXT[_suit_text + _rank_text] = _card

# --- bitmask tables (indexed by card index or suit) -------------------------------------------
CARD_POINTS: Final = tuple(c.points for c in _CARDS)
CARD_SUIT: Final = tuple(int(c.suit) for c in _CARDS)
CARD_RANK: Final = tuple(int(c.rank) for c in _CARDS)
SUIT_MASK: Final = tuple(0b11111 << (5 * s) for s in range(4))
# Cards of the same suit that beat the card (lower rank index = stronger).
HIGHER_IN_SUIT: Final = tuple(
    ((1 << CARD_RANK[i]) - 1) << (5 * CARD_SUIT[i]) for i in range(NUM_CARDS)
)
LOWER_IN_SUIT: Final = tuple(
    SUIT_MASK[CARD_SUIT[i]] & ~HIGHER_IN_SUIT[i] & ~(1 << i) for i in range(NUM_CARDS)
)
KING_OF: Final = tuple(5 * s + Rank.KING for s in range(4))
QUEEN_OF: Final = tuple(5 * s + Rank.QUEEN for s in range(4))
JACK_OF: Final = tuple(5 * s + Rank.JACK for s in range(4))
# For a king or queen: the index of its marriage partner, else -1.
PARTNER: Final = tuple(
    QUEEN_OF[CARD_SUIT[i]]
    if CARD_RANK[i] == Rank.KING
    else KING_OF[CARD_SUIT[i]]
    if CARD_RANK[i] == Rank.QUEEN
    else -1
    for i in range(NUM_CARDS)
)


def _points_of_byte_table(shift: int) -> tuple[int, ...]:
    return tuple(
        sum(CARD_POINTS[shift + b] for b in range(8) if v >> b & 1 and shift + b < NUM_CARDS)
        for v in range(256)
    )


_POINTS_BYTE0: Final = _points_of_byte_table(0)
_POINTS_BYTE1: Final = _points_of_byte_table(8)
_POINTS_BYTE2: Final = _points_of_byte_table(16)


def mask_points(mask: int) -> int:
    """Card points of a set of cards (R1), by table lookup."""
    return _POINTS_BYTE0[mask & 255] + _POINTS_BYTE1[mask >> 8 & 255] + _POINTS_BYTE2[mask >> 16]


def mask_indices(mask: int) -> Iterator[int]:
    """Card indices of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_cards(mask: int) -> list[Card]:
    return [_CARDS[i] for i in mask_indices(mask)]


def cards_mask(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


def full_deck() -> list[Card]:
    """The 20 cards in index order (clubs, diamonds, hearts, spades; ace first)."""
    return list(_CARDS)


def is_seat(value: object) -> TypeGuard[int]:
    """Seats are the ints 0 and 1 (not True, not 1.0: JSON input is checked by type)."""
    return type(value) is int and value in (0, 1)
