"""What one seat knows of the hidden cards, and full games sampled consistently with it.

The unseen cards (others' hands, the undrawn stock, others' face-down discards) are placed so
that every sampled game agrees with everything the seat has seen:

- hand sizes, the stock size and each seat's discard count come from the view;
- a player who did not follow the suit led holds none of it (voids, from this hand's tricks);
- non-dealers never discard trumps, so their hidden discards are non-trumps;
- the dealer discards trumps only when holding more than six, keeping six trumps; the ace, both
  bauers, the 2 and the joker of trumps are never discarded.

Cards are placed most-constrained first, each into an allowed place chosen with probability
proportional to its free room, with a few retries; this is close to uniform over the consistent
deals (bids are not used as evidence).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from arena.engine import DECK, JOKER, Card, Game, View, determinize, left_bauer, right_bauer

from .policy import EFF, TRUMP

__all__ = ["Assignment", "Knowledge", "SampleError", "voids_of"]

SEATS = 6
STOCK = 6
"""Place number of the stock; places 0-5 are seat hands, 7 + s is seat s's discards."""
DISCARD = 7


class SampleError(RuntimeError):
    """No placement of the unseen cards satisfies the constraints (should never happen)."""


def voids_of(view: View) -> list[set[int]]:
    """For each seat, the effective suits it has shown void in during this hand."""
    voids: list[set[int]] = [set() for _ in range(SEATS)]
    if view.trump is None:
        return voids
    eff = EFF[view.trump]
    tricks = [t for _l, t, _w in view.tricks]
    if view.trick:
        tricks.append(view.trick)
    for trick in tricks:
        led = eff[trick[0][1]]
        for s, c in trick[1:]:
            if eff[c] != led:
                voids[s].add(led)
    return voids


def protected_trumps(trump) -> frozenset[Card]:
    """Trumps the dealer never discards: A, both bauers, 2 and joker."""
    return frozenset(
        {DECK[trump * 13 + 12], right_bauer(trump), left_bauer(trump), DECK[trump * 13], JOKER}
    )


@dataclass(frozen=True)
class Assignment:
    """One placement of the unseen cards."""

    hands: dict[int, list[Card]]
    """The cards of every other seat's hand."""
    stock: list[Card]
    """The undrawn stock, top first."""
    discards: dict[int, list[Card]]
    """The hidden discards of every other seat that has exchanged."""


class Knowledge:
    """The constraints a view puts on the unseen cards, and a sampler of games meeting them."""

    def __init__(self, view: View) -> None:
        self.view = view
        me = view.seat
        trump = view.trump
        self.unseen = view.unseen()
        self.voids = voids_of(view)
        caps = [0] * (DISCARD + SEATS)
        for s in range(SEATS):
            if s != me:
                caps[s] = view.hand_sizes[s]
                caps[DISCARD + s] = view.exchanged[s] or 0
        caps[STOCK] = view.stock_size
        if sum(caps) != len(self.unseen):
            raise SampleError(
                f"view of seat {me} does not add up: {len(self.unseen)} unseen cards "
                f"for {sum(caps)} places"
            )
        self.caps = caps
        dealer = view.dealer
        # The dealer may have laid away trumps only if it held more than six; then every card
        # left in its hand is a trump, so a dealer seen to play or lack a non-trump did not.
        self.dealer_may_discard_trump = (
            trump is not None
            and dealer != me
            and (view.exchanged[dealer] or 0) > 0
            and TRUMP not in self.voids[dealer]
            and all(
                EFF[trump][c] == TRUMP for _l, t, _w in view.tricks for s, c in t if s == dealer
            )
            and all(EFF[trump][c] == TRUMP for s, c in view.trick if s == dealer)
        )
        self.protected = protected_trumps(trump) if trump is not None else frozenset()
        self._options = {strict: self._build_options(strict) for strict in (True, False)}

    def _allowed(self, card: Card, place: int, strict: bool) -> bool:
        view = self.view
        if self.caps[place] == 0:
            return False
        trump = view.trump
        if place < SEATS:
            return trump is None or EFF[trump][card] not in self.voids[place]
        if place == STOCK:
            return True
        s = place - DISCARD
        if trump is None or EFF[trump][card] != TRUMP:
            return True
        if s != view.dealer or strict or not self.dealer_may_discard_trump:
            return False
        return card not in self.protected

    def _build_options(self, strict: bool) -> list[tuple[Card, tuple[int, ...]]]:
        places = [p for p in range(len(self.caps)) if self.caps[p]]
        opts = [(c, tuple(p for p in places if self._allowed(c, p, strict))) for c in self.unseen]
        return opts

    def assign(self, rng: random.Random, *, tries: int = 30) -> Assignment:
        """A random placement of the unseen cards meeting every constraint."""
        for strict in (True, False):
            if not strict and not self.dealer_may_discard_trump:
                break
            options = self._options[strict]
            for _ in range(tries):
                got = self._try(options, rng)
                if got is not None and (strict or self._dealer_consistent(got)):
                    return got
        raise SampleError(f"no consistent placement of the unseen cards for seat {self.view.seat}")

    def _dealer_consistent(self, a: Assignment) -> bool:
        """A dealer who laid away a trump keeps only trumps."""
        trump = self.view.trump
        dealer = self.view.dealer
        eff = EFF[trump]
        if any(eff[c] == TRUMP for c in a.discards.get(dealer, ())):
            return all(eff[c] == TRUMP for c in a.hands[dealer])
        return True

    def _try(self, options, rng: random.Random) -> Assignment | None:
        items = options[:]
        rng.shuffle(items)
        items.sort(key=lambda item: len(item[1]))  # stable: random order within a class
        room = self.caps[:]
        placed: list[list[Card]] = [[] for _ in room]
        rand = rng.random
        for card, places in items:
            total = 0
            for p in places:
                total += room[p]
            if total == 0:
                return None
            x = rand() * total
            for p in places:
                x -= room[p]
                if x < 0:
                    break
            else:  # rounding: the last place with room
                p = next(q for q in reversed(places) if room[q])
            room[p] -= 1
            placed[p].append(card)
        me = self.view.seat
        return Assignment(
            hands={s: placed[s] for s in range(SEATS) if s != me},
            stock=placed[STOCK],
            discards={
                s: placed[DISCARD + s] for s in range(SEATS) if s != me and placed[DISCARD + s]
            },
        )

    def sample(self, rng: random.Random) -> Game:
        """A complete game (no event log) consistent with the view."""
        a = self.assign(rng)
        return determinize(self.view, a.hands, a.stock, seed=rng.randrange(1 << 30))
