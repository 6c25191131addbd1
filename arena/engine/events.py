"""What happens in a game, as a list of events, and what each seat may see of each event.

The engine appends an event for every step of a game; game records are built from them, and the
referee tells each bot the events since its previous turn, passed through :func:`visible_to`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import Card, Suit

__all__ = [
    "HIDING_EVENTS",
    "BidMade",
    "CardPlayed",
    "DealerExchanged",
    "Event",
    "Exchanged",
    "GameOver",
    "HandDealt",
    "HandScored",
    "HandThrownIn",
    "Point",
    "PointAward",
    "TrickWon",
    "TrumpNamed",
    "visible_to",
]


class Point(Enum):
    """The six points of a hand."""

    HIGH = "high"
    LOW = "low"
    RIGHT = "right"
    LEFT = "left"
    JOKER = "joker"
    GAME = "game"


@dataclass(frozen=True, slots=True)
class PointAward:
    point: Point
    team: int
    card: Card | None
    """The card that earned it (``None`` for Game)."""

    def to_json(self) -> dict:
        """``{"point", "team", "card"}``, as in game records and protocol events."""
        return {
            "point": self.point.value,
            "team": self.team,
            "card": None if self.card is None else str(self.card),
        }

    @classmethod
    def from_json(cls, data: dict) -> PointAward:
        card = data["card"]
        return cls(Point(data["point"]), data["team"], None if card is None else Card.parse(card))


@dataclass(frozen=True, slots=True)
class HandDealt:
    hand: int
    """Deal number in the game, from 0; a thrown-in deal counts."""
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    """Six cards per seat, in the order dealt. Seen by each seat only for itself."""
    stock: tuple[Card, ...]
    """The 17-card stock, top first. Seen by nobody."""


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    amount: int | None
    """3-6, or ``None`` for a pass."""


@dataclass(frozen=True, slots=True)
class HandThrownIn:
    """All six passed: the same dealer deals again."""

    hand: int


@dataclass(frozen=True, slots=True)
class TrumpNamed:
    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class Exchanged:
    """A non-dealer discarded and drew. Others see only ``count``."""

    seat: int
    count: int
    discarded: tuple[Card, ...] | None
    drawn: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class DealerExchanged:
    """The dealer took the rest of the stock and discarded down to six. Others see ``count``."""

    seat: int
    count: int
    picked_up: tuple[Card, ...] | None
    discarded: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    number: int
    """Trick number in the hand, 0-5."""
    leader: int
    cards: tuple[tuple[int, Card], ...]
    """(seat, card) in the order played."""
    winner: int


@dataclass(frozen=True, slots=True)
class HandScored:
    hand: int
    bidder: int
    bid: int
    awards: tuple[PointAward, ...]
    card_points: tuple[int, int, int]
    """Game card points in each team's tricks."""
    discard_points: int
    """Game card points laid away in discards (they count for nobody)."""
    made: bool
    """Whether the bidding team took at least its bid."""
    changes: tuple[int, int, int]
    scores: tuple[int, int, int]
    """Running scores after this hand."""


@dataclass(frozen=True, slots=True)
class GameOver:
    winner: int
    scores: tuple[int, int, int]
    places: tuple[int, int, int]
    """Each team's place, 1-3; equal scores behind the winner share a place."""


Event = (
    HandDealt
    | BidMade
    | HandThrownIn
    | TrumpNamed
    | Exchanged
    | DealerExchanged
    | CardPlayed
    | TrickWon
    | HandScored
    | GameOver
)


HIDING_EVENTS: frozenset[type] = frozenset({HandDealt, Exchanged, DealerExchanged})
"""The event types that :func:`visible_to` may show to some seat with parts hidden. An event of
any other type is public: every seat sees it whole (the same object)."""


def visible_to(event: Event, seat: int) -> Event | None:
    """The event as ``seat`` may see it: hidden cards removed, or ``None`` if it sees nothing.

    A seat sees its own dealt hand but no other, never the stock, its own exchange cards but
    only the number for another seat, and everything else (bids, trump, plays, tricks, scores).
    """
    kind = type(event)
    if kind is HandDealt:
        return HandDealt(
            event.hand,
            event.dealer,
            tuple(h if s == seat else () for s, h in enumerate(event.hands)),
            (),
        )
    if kind is Exchanged and event.seat != seat:
        return Exchanged(event.seat, event.count, None, None)
    if kind is DealerExchanged and event.seat != seat:
        return DealerExchanged(event.seat, event.count, None, None)
    return event
