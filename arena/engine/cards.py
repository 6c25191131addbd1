"""Cards, suits and their one short text form, and the trump-dependent card order.

A card is written as rank then suit: ``AS`` (ace of spades), ``TH`` (ten of hearts), ``2C``;
the joker is ``JK``. Ranks are ``2 3 4 5 6 7 8 9 T J Q K A``, suits ``C D H S``. Parsing is
case-insensitive and also accepts ``10`` for the ten; printing always gives the canonical form,
so ``Card.parse(str(card)) == card``.

A :class:`Card` is an ``int`` (0-52) so the engine can index tables with it; every card is one
of the 53 interned instances in :data:`DECK`.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "CARD_POINTS",
    "DECK",
    "JOKER",
    "RANKS",
    "Card",
    "CardError",
    "Suit",
    "card_points",
    "format_cards",
    "is_trump",
    "left_bauer",
    "parse_cards",
    "right_bauer",
    "trick_power",
]

RANKS = "23456789TJQKA"
"""Rank characters, low to high; a card's rank index is its position here."""


class CardError(ValueError):
    """A text that is not a card, or a card list that is not well formed."""


class Suit(IntEnum):
    """The four suits. The value is the suit's index in card numbering."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (clubs/spades, diamonds/hearts)."""
        return Suit(3 - self)

    @classmethod
    def parse(cls, text: str) -> Suit:
        if not isinstance(text, str) or len(text.strip()) != 1:
            raise CardError(f"not a suit: {text!r} (expected one of C, D, H, S)")
        index = "CDHS".find(text.strip().upper())
        if index < 0:
            raise CardError(f"not a suit: {text!r} (expected one of C, D, H, S)")
        return cls(index)

    def __str__(self) -> str:
        return self.letter


class Card(int):
    """One of the 53 cards: ``suit * 13 + rank`` for the 52, and 52 for the joker."""

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        return self == 52

    @property
    def suit(self) -> Suit | None:
        """The printed suit (``None`` for the joker). In play, see :func:`effective_suit`."""
        return None if self == 52 else Suit(self // 13)

    @property
    def rank(self) -> int | None:
        """Rank index 0 (two) to 12 (ace); ``None`` for the joker."""
        return None if self == 52 else self % 13

    @classmethod
    def of(cls, rank: str, suit: Suit) -> Card:
        return DECK[suit * 13 + RANKS.index(rank)]

    @classmethod
    def parse(cls, text: str) -> Card:
        if not isinstance(text, str):
            raise CardError(f"not a card: {text!r} (expected text such as 'AS' or 'JK')")
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise CardError(
                f"not a card: {text!r} (expected rank 2-9/T/J/Q/K/A + suit C/D/H/S, or JK)"
            )
        return card

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({_TEXT[self]!r})"

    def __reduce__(self):
        return (Card.parse, (_TEXT[self],))


_TEXT = [r + s for s in "CDHS" for r in RANKS] + ["JK"]
DECK: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(53))
"""All 53 cards in numbering order: clubs 2..A, diamonds, hearts, spades, joker."""
JOKER = DECK[52]
_BY_TEXT = {t: DECK[i] for i, t in enumerate(_TEXT)}
_BY_TEXT.update({t.replace("T", "10"): c for t, c in list(_BY_TEXT.items()) if t[0] == "T"})


def parse_cards(text: str | list) -> list[Card]:
    """Parse ``"AS TH JK"`` (or a list of card texts) into cards; ``"-"`` or ``""`` is none."""
    if isinstance(text, str):
        parts = [] if text.strip() in ("", "-") else text.split()
    elif isinstance(text, list | tuple):
        parts = list(text)
    else:
        raise CardError(f"not a card list: {text!r}")
    return [Card.parse(p) for p in parts]


def format_cards(cards) -> str:
    """Print cards space-separated in the given order; ``-`` for none."""
    return " ".join(_TEXT[c] for c in cards) if cards else "-"


CARD_POINTS = tuple([0] * 8 + [10, 1, 2, 3, 4]) * 4 + (1,)
"""Game card points by card number: A=4, K=3, Q=2, J=1, T=10, joker=1, others 0 (81 in all)."""


def card_points(cards) -> int:
    return sum(CARD_POINTS[c] for c in cards)


def right_bauer(trump: Suit) -> Card:
    return DECK[trump * 13 + 9]


def left_bauer(trump: Suit) -> Card:
    return DECK[(3 - trump) * 13 + 9]


TRUMP = 4
"""The effective suit of every trump (including the left bauer and the joker)."""

# EFFECTIVE_SUIT[trump][card]: the suit a card belongs to for following and leading; TRUMP (4)
# for the trump suit, the left bauer and the joker.
EFFECTIVE_SUIT: tuple[tuple[int, ...], ...]
# POWER[trump][card]: trick-taking strength. Trumps 100-115 (joker=100 ... A=115); other cards
# their rank index 0-12, compared only within the suit led.
POWER: tuple[tuple[int, ...], ...]


def _tables():
    suits, powers = [], []
    for trump in Suit:
        eff = [c // 13 for c in range(52)] + [TRUMP]
        power = [c % 13 for c in range(52)] + [100]
        rb, lb = right_bauer(trump), left_bauer(trump)
        for c in range(trump * 13, trump * 13 + 13):
            eff[c] = TRUMP
            # 2..10 -> 101..109; Q, K, A above the bauers.
            r = c % 13
            power[c] = 101 + r if r <= 8 else 103 + r
        eff[lb] = TRUMP
        power[rb], power[lb] = 112, 111
        suits.append(tuple(eff))
        powers.append(tuple(power))
    return tuple(suits), tuple(powers)


EFFECTIVE_SUIT, POWER = _tables()


def is_trump(card: Card, trump: Suit) -> bool:
    return EFFECTIVE_SUIT[trump][card] == TRUMP


def trick_power(card: Card, trump: Suit) -> int:
    return POWER[trump][card]
