"""What one seat knows of the hidden cards, and full games sampled consistently with it.

The unseen cards (others' hands, the undrawn stock, others' face-down discards) are placed so
that every sampled game agrees with everything the seat has seen:

- hand sizes, the stock size and each seat's discard count come from the view;
- a player who did not follow the suit led holds none of it (voids, from this hand's tricks);
- non-dealers never discard trumps, so their hidden discards are non-trumps;
- the dealer discards trumps only when holding more than six, keeping six trumps; the ace, both
  bauers, the 2 and the joker of trumps are never discarded.

Cards are placed most-constrained first, each into an allowed place chosen with probability
proportional to its free room; this is close to uniform over the consistent deals (bids are not
used as evidence). If that greedy placement fails a few times, an exact placement checks with a
small max-flow before each card that the rest still fits, so sampling never fails on a view
that the true deal fits.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from arena.engine import DECK, JOKER, Card, Game, View, determinize, left_bauer, right_bauer

from .policy import EFF, TRUMP

__all__ = ["RELAXED", "STRICT", "Assignment", "Knowledge", "SampleError", "voids_of"]

SEATS = 6
STOCK = 6
STRICT, RELAXED = 0, 1
"""Constraint sets: STRICT lets nobody's discards hold trumps; RELAXED lets the dealer's hold
unprotected trumps, the dealer then holding only trumps (tried when STRICT cannot be met)."""
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
        modes = [STRICT, RELAXED] if self.dealer_may_discard_trump else [STRICT]
        self.mode = None
        """The constraint set in use: STRICT if it can be met, else RELAXED."""
        for mode in modes:
            options = [(c, self._places(c, mode)) for c in self.unseen]
            if _feasible(_classes(options), self.caps):
                self.mode, self._options = mode, options
                break
        else:
            raise SampleError(
                f"no placement of the unseen cards fits the view of seat {me} "
                f"(voids {self.voids}, places {self.caps})"
            )

    def allowed(self, card: Card, place: int, mode: int) -> bool:
        """Whether ``card`` may lie in ``place`` (0-5 a hand, 6 the stock, 7 + s the discards
        of seat s) under constraint set ``mode``."""
        view = self.view
        if self.caps[place] == 0:
            return False
        trump = view.trump
        if trump is None:
            return True
        is_trump = EFF[trump][card] == TRUMP
        relaxed = mode == RELAXED and self.dealer_may_discard_trump
        if place < SEATS:
            if relaxed and place == view.dealer and not is_trump:
                return False  # a dealer who laid trumps away kept only trumps
            return EFF[trump][card] not in self.voids[place]
        if place == STOCK or not is_trump:
            return True
        return relaxed and place - DISCARD == view.dealer and card not in self.protected

    def _places(self, card: Card, mode: int) -> tuple[int, ...]:
        return tuple(p for p in range(len(self.caps)) if self.allowed(card, p, mode))

    def assign(self, rng: random.Random, *, tries: int = 8) -> Assignment:
        """A random placement of the unseen cards meeting every constraint: a quick greedy
        placement, retried a few times, then an exact one (slower) that cannot fail."""
        for _ in range(tries):
            placed = self._greedy(rng)
            if placed is not None:
                return self._assignment(placed)
        return self._assignment(self._exact(rng))

    def _greedy(self, rng: random.Random) -> list[list[Card]] | None:
        items = self._options[:]
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
        return placed

    def _exact(self, rng: random.Random) -> list[list[Card]]:
        """Place cards one by one, each where the rest can still be placed (max-flow check)."""
        items = self._options[:]
        rng.shuffle(items)
        classes = _classes(items)
        room = self.caps[:]
        placed: list[list[Card]] = [[] for _ in room]
        for card, places in items:
            classes[places] -= 1
            choices = [p for p in places if room[p]]
            while True:
                weights = [room[p] for p in choices]
                p = rng.choices(choices, weights)[0]
                room[p] -= 1
                if _feasible(classes, room):
                    break
                room[p] += 1
                choices.remove(p)
            placed[p].append(card)
        return placed

    def _assignment(self, placed: list[list[Card]]) -> Assignment:
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


def _classes(options) -> dict[tuple[int, ...], int]:
    """How many cards share each tuple of allowed places."""
    out: dict[tuple[int, ...], int] = {}
    for _card, places in options:
        out[places] = out.get(places, 0) + 1
    return out


def _feasible(classes: dict[tuple[int, ...], int], room: list[int]) -> bool:
    """Whether the cards of ``classes`` fit the places' ``room`` (a small max-flow)."""
    need = sum(classes.values())
    if need > sum(room):
        return False
    keys = [k for k, n in classes.items() if n]
    left = [classes[k] for k in keys]
    free = room[:]
    # flow[i][p]: cards of class i sent to place p
    flow = [dict.fromkeys(k, 0) for k in keys]
    total = 0
    for i in range(len(keys)):
        while left[i]:
            path = _augment(i, keys, flow, free)
            if path is None:
                return False
            left[i] -= 1
            total += 1
    return total == need


def _augment(start: int, keys, flow, free) -> list | None:
    """Send one more card of class ``start`` along an augmenting path, if there is one."""
    # Breadth-first over classes; an edge class -> place is always open, place -> class is open
    # where that class already sends a card to the place (it can be moved elsewhere).
    parent: dict = {("c", start): None}
    queue = [("c", start)]
    while queue:
        node = queue.pop(0)
        if node[0] == "c":
            for p in keys[node[1]]:
                nxt = ("p", p)
                if nxt not in parent:
                    parent[nxt] = node
                    if free[p] > 0:
                        # Found: walk back, shifting one card along the path.
                        free[p] -= 1
                        cur = nxt
                        while parent[cur] is not None:
                            prev = parent[cur]
                            if cur[0] == "p":
                                flow[prev[1]][cur[1]] += 1
                            else:
                                flow[cur[1]][prev[1]] -= 1
                            cur = prev
                        return [nxt]
                    queue.append(nxt)
        else:
            p = node[1]
            for j in range(len(keys)):
                if flow[j].get(p, 0) > 0 and ("c", j) not in parent:
                    parent[("c", j)] = node
                    queue.append(("c", j))
    return None
