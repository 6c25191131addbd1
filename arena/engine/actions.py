"""Phases, actions and the description of what is legal, each with a short text form.

Action texts: ``pass``, ``bid 4``, ``trump H``, ``discard 2C 9D`` (``discard -`` for none) and
``play AS``. ``parse_action(str(a)) == a`` for every action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum

from .cards import DECK, Card, CardError, Suit, format_cards, parse_cards

__all__ = [
    "BIDS",
    "PASS",
    "PLAYS",
    "TRUMPS",
    "Action",
    "ActionError",
    "Bid",
    "Discard",
    "DiscardSpec",
    "LegalActions",
    "NameTrump",
    "Phase",
    "Play",
    "parse_action",
]


class ActionError(ValueError):
    """A text that is not an action."""


class Phase(Enum):
    """Where a hand stands; it decides which kind of action the player to move makes."""

    BIDDING = "bidding"
    """Each player in turn from the dealer's left passes or bids higher (:class:`Bid`)."""
    TRUMP = "trump"
    """The bidder names the trump suit (:class:`NameTrump`)."""
    DRAW = "draw"
    """Each non-dealer in turn discards 0-3 non-trumps and draws as many (:class:`Discard`)."""
    DEALER_DISCARD = "dealer_discard"
    """The dealer, holding the rest of the stock, discards down to six cards (:class:`Discard`)."""
    PLAY = "play"
    """Six tricks (:class:`Play`)."""
    OVER = "over"
    """The game has a winner; nobody is to move."""


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of 3-6, or a pass (``amount`` is ``None``)."""

    amount: int | None

    def __str__(self) -> str:
        return "pass" if self.amount is None else f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The bidder names the trump suit."""

    suit: Suit

    def __str__(self) -> str:
        return f"trump {self.suit.letter}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Cards laid away face down: a non-dealer's exchange, or the dealer's discard."""

    cards: frozenset[Card]

    def __init__(self, cards=()):
        object.__setattr__(self, "cards", frozenset(cards))

    def __str__(self) -> str:
        return "discard " + format_cards(sorted(self.cards))


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to the current trick."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


Action = Bid | NameTrump | Discard | Play

PASS = Bid(None)
BIDS = {n: Bid(n) for n in range(3, 7)}
TRUMPS = tuple(NameTrump(s) for s in Suit)
PLAYS = tuple(Play(c) for c in DECK)
"""Interned actions, so legal-action lists cost no allocation."""


def parse_action(text: str) -> Action:
    if not isinstance(text, str):
        raise ActionError(f"not an action: {text!r}")
    word, _, rest = text.strip().partition(" ")
    word, rest = word.lower(), rest.strip()
    try:
        if word == "pass" and not rest:
            return PASS
        if word == "bid" and rest.isascii() and rest.isdigit():
            return Bid(int(rest))
        if word == "trump":
            return TRUMPS[Suit.parse(rest)]
        if word == "discard":
            cards = parse_cards(rest)
            if len(set(cards)) != len(cards):
                raise ActionError(f"not an action: {text!r} (a card is named twice)")
            return Discard(cards)
        if word == "play":
            return PLAYS[Card.parse(rest)]
    except CardError as e:
        raise ActionError(f"not an action: {text!r} ({e})") from None
    raise ActionError(
        f"not an action: {text!r} "
        "(expected 'pass', 'bid N', 'trump S', 'discard CARDS' or 'play CARD')"
    )


@dataclass(frozen=True, slots=True)
class DiscardSpec:
    """Which card sets may be discarded: all of ``required``, plus cards from ``optional``, so
    that the total is between ``min_count`` and ``max_count``."""

    required: frozenset[Card]
    optional: frozenset[Card]
    min_count: int
    max_count: int

    def problem(self, cards: frozenset[Card]) -> str | None:
        """Why ``cards`` is not a legal discard, or ``None`` when it is."""
        missing = self.required - cards
        if missing:
            return f"must discard {format_cards(sorted(missing))} as well"
        stray = cards - self.required - self.optional
        if stray:
            return f"may not discard {format_cards(sorted(stray))}"
        if not self.min_count <= len(cards) <= self.max_count:
            want = (
                str(self.min_count)
                if self.min_count == self.max_count
                else f"{self.min_count} to {self.max_count}"
            )
            return f"must discard {want} cards, not {len(cards)}"
        return None

    def sample(self, rng: random.Random) -> Discard:
        """A uniformly random count in range, then uniformly random optional cards."""
        extra = rng.randint(self.min_count, self.max_count) - len(self.required)
        chosen = rng.sample(sorted(self.optional), extra) if extra else []
        return Discard(self.required.union(chosen))


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to move may do: a list of ``choices`` for bidding, trump and play, or a
    :class:`DiscardSpec` for the two discard phases (whose legal sets are not enumerated)."""

    phase: Phase
    seat: int
    choices: tuple[Action, ...] = ()
    discard: DiscardSpec | None = None

    def __contains__(self, action: object) -> bool:
        if self.discard is not None:
            return isinstance(action, Discard) and self.discard.problem(action.cards) is None
        return action in self.choices

    def sample(self, rng: random.Random) -> Action:
        if self.discard is not None:
            return self.discard.sample(rng)
        return rng.choice(self.choices)
