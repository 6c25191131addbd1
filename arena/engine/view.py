"""What one seat may know of a game, and how to rebuild a whole game from it for search.

A :class:`View` holds the seat's own hand, its own discards, draws and (as dealer) pick-up, and
what is public: bids, trump, how many cards each seat exchanged, the cards played, the scores.
It never holds another seat's hand or discards, the stock, or the seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .actions import Phase
from .cards import DECK, EFFECTIVE_SUIT, POWER, TRUMP, Card, Suit
from .game import SEATS, Game, Rules

__all__ = ["DeterminizeError", "View", "determinize", "sample_determinization", "view_of"]


class DeterminizeError(ValueError):
    """An assignment of unseen cards that does not fit the view."""


@dataclass(frozen=True, slots=True)
class View:
    """Everything ``seat`` may know at this moment (see the module docstring)."""

    seat: int
    rules: Rules
    hand_no: int
    dealer: int
    phase: Phase
    turn: int | None
    scores: tuple[int, int, int]
    hand: tuple[Card, ...]
    bids: tuple[tuple[int, int | None], ...]
    """(seat, amount or ``None`` for pass) in bidding order, this hand."""
    bidder: int | None
    bid: int
    """The high bid so far (0 before any bid)."""
    trump: Suit | None
    discarded: tuple[Card, ...]
    """This seat's own discards this hand."""
    drawn: tuple[Card, ...]
    """This seat's own draws this hand (non-dealer)."""
    picked_up: tuple[Card, ...]
    """The stock the dealer took into hand (only in the dealer's own view)."""
    exchanged: tuple[int | None, ...]
    """How many cards each seat discarded this hand (``None``: not yet)."""
    hand_sizes: tuple[int, ...]
    stock_size: int
    trick_leader: int | None
    trick: tuple[tuple[int, Card], ...]
    """The current trick so far: (seat, card) in order."""
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...], int], ...]
    """Completed tricks this hand: (leader, ((seat, card), ...), winner)."""

    @property
    def team(self) -> int:
        return self.seat % 3

    @property
    def partner(self) -> int:
        return (self.seat + 3) % SEATS

    def played_cards(self) -> list[Card]:
        cards = [c for _l, trick, _w in self.tricks for _s, c in trick]
        cards.extend(c for _s, c in self.trick)
        return cards

    def unseen(self) -> list[Card]:
        """Cards this seat has not seen: other hands, the stock and others' discards."""
        seen = set(self.hand)
        seen.update(self.discarded)
        seen.update(self.played_cards())
        return [c for c in DECK if c not in seen]


def view_of(game: Game, seat: int) -> View:
    is_dealer = seat == game.dealer
    return View(
        seat=seat,
        rules=game.rules,
        hand_no=game.hand_no,
        dealer=game.dealer,
        phase=game.phase,
        turn=game.current_player,
        scores=tuple(game.scores),
        hand=tuple(game.hands[seat]),
        bids=tuple(game.bids),
        bidder=game.bidder,
        bid=game.bid,
        trump=game.trump,
        discarded=tuple(game.discards[seat]),
        drawn=tuple(game.draws[seat]),
        picked_up=tuple(game.pickup) if is_dealer else (),
        exchanged=tuple(game.exchanged),
        hand_sizes=tuple(len(h) for h in game.hands),
        stock_size=len(game.stock),
        trick_leader=game.trick_leader,
        trick=tuple(game.trick),
        tricks=tuple(game.tricks),
    )


def determinize(
    view: View,
    hands: Mapping[int, Sequence[Card]],
    stock: Sequence[Card] = (),
    *,
    seed: int = 0,
) -> Game:
    """A complete game that agrees with ``view``, with ``hands`` for the other five seats and
    ``stock`` (top first) for the undrawn stock. The unseen cards left over are the others'
    hidden discards; play and scoring never look at them, so they are not placed anywhere.
    ``seed`` only decides the deals of later hands. The game keeps no events.

    Raises :class:`DeterminizeError` when a hand or the stock has the wrong size or a card
    is given twice or is one the seat has seen."""
    unseen = set(view.unseen())
    given: set[Card] = set()
    for s in range(SEATS):
        if s == view.seat:
            continue
        cards = hands.get(s)
        if cards is None or len(cards) != view.hand_sizes[s]:
            got = 0 if cards is None else len(cards)
            raise DeterminizeError(f"seat {s} needs {view.hand_sizes[s]} cards, got {got}")
        _claim(cards, unseen, given, f"seat {s}")
    if len(stock) != view.stock_size:
        raise DeterminizeError(f"the stock needs {view.stock_size} cards, got {len(stock)}")
    _claim(stock, unseen, given, "the stock")

    game = Game.__new__(Game)
    game.rules = view.rules
    game.seed = seed
    game.events = None
    game.scores = list(view.scores)
    game.winner = None
    game.places = None
    game.hand_no = view.hand_no
    game.dealer = view.dealer
    game.phase = view.phase
    game.turn = view.turn
    game.hands = [list(view.hand) if s == view.seat else list(hands[s]) for s in range(SEATS)]
    game.stock = list(stock)
    game.bids = list(view.bids)
    game.bid = view.bid
    game.bidder = view.bidder
    game.trump = view.trump
    game.discards = [list(view.discarded) if s == view.seat else [] for s in range(SEATS)]
    game.draws = [list(view.drawn) if s == view.seat else [] for s in range(SEATS)]
    game.exchanged = list(view.exchanged)
    game.pickup = list(view.picked_up)
    game.trick = list(view.trick)
    game.trick_leader = view.trick_leader
    game.tricks = list(view.tricks)
    game._led = None
    game._trick_best = None
    game._trick_best_power = -1
    if view.trick:
        eff, power = EFFECTIVE_SUIT[view.trump], POWER[view.trump]
        game._led = eff[view.trick[0][1]]
        for s, c in view.trick:
            if eff[c] in (TRUMP, game._led) and power[c] > game._trick_best_power:
                game._trick_best_power, game._trick_best = power[c], s
    return game


def _claim(cards: Sequence[Card], unseen: set[Card], given: set[Card], where: str) -> None:
    for c in cards:
        if c not in unseen:
            raise DeterminizeError(f"{where}: {c} is not an unseen card")
        if c in given:
            raise DeterminizeError(f"{where}: {c} is given twice")
        given.add(c)


def sample_determinization(view: View, rng: random.Random, *, seed: int | None = None) -> Game:
    """A uniformly random game consistent with the card counts of ``view`` (no other
    inference: a search bot that knows more should build its own assignment)."""
    cards = view.unseen()
    rng.shuffle(cards)
    hands, at = {}, 0
    for s in range(SEATS):
        if s != view.seat:
            n = view.hand_sizes[s]
            hands[s], at = cards[at : at + n], at + n
    stock = cards[at : at + view.stock_size]
    return determinize(view, hands, stock, seed=rng.randrange(2**32) if seed is None else seed)
