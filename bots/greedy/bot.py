"""The greedy bot: a readable heuristic player of Schmier on the SDK, with no search.

- Bidding: for each suit, count the points the hand is likely to take with it as trumps (the ace
  and the 2 are sure, high trumps and the bauers likely, a guarded ten of trumps is a good
  Game-point card, length in trumps helps), add 1.2 for what the draw brings (tuned by play,
  see docs/writing-a-bot.md) and bid that much, over the partner's bid only when clearly
  stronger.
- Trump: the suit that scored best.
- The draw: keep trumps and aces; throw the lowest off-suit cards (up to three).
- The dealer's discard: what the rules allow, lowest first (off-suit before trumps).
- Play: win the trick with the cheapest card that does when it is worth it, take point cards
  (tens, the joker, the bauers) when the win is certain, feed points to a partner whose trick is
  safe, otherwise play low; as the bidding team, lead the top trumps to pull the others'.

Usage: ``python3 bot.py [--seed N]``.
"""

from __future__ import annotations

import argparse

from arena.engine import (
    BIDS,
    CARD_POINTS,
    DECK,
    JOKER,
    PASS,
    TRUMPS,
    Card,
    Discard,
    Play,
    Suit,
    is_trump,
    left_bauer,
    right_bauer,
    trick_power,
)
from arena.sdk import Bot, run

__all__ = ["GreedyBot", "hand_strength"]

ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8
"""Rank indexes."""

DRAW_BONUS = 1.2
"""Points a bidder counts on beyond its hand's strength (the draw brings trumps)."""


def _trumps(hand, trump: Suit) -> list[Card]:
    return [c for c in hand if is_trump(c, trump)]


def hand_strength(hand, trump: Suit) -> float:
    """Points this hand is expected to take with ``trump`` as trumps (roughly, of six)."""
    trumps = set(_trumps(hand, trump))
    top = DECK[trump * 13 + ACE]
    king, queen, ten = (DECK[trump * 13 + r] for r in (KING, QUEEN, TEN))
    two = DECK[trump * 13]
    rb, lb = right_bauer(trump), left_bauer(trump)
    points = 0.0
    if top in trumps:
        points += 1.0  # High: whoever plays the ace of trumps
    if two in trumps:
        points += 1.0  # Low: whoever plays the 2 of trumps
    high = sum(c in trumps for c in (top, king, queen))
    if rb in trumps:
        points += 0.8 if high >= 2 else 0.55 if high == 1 else 0.35
    if lb in trumps:
        points += 0.6 if high >= 2 else 0.4 if high == 1 else 0.25
    if JOKER in trumps:
        points += 0.45 if high >= 2 else 0.25  # the lowest trump: it needs guarding
    if king in trumps:
        points += 0.3
    if queen in trumps:
        points += 0.15
    if ten in trumps and len(trumps) >= 3:
        points += 0.5  # a guarded ten usually carries the Game point
    points += 0.35 * max(0, len(trumps) - 2)  # length: control of the play and the draw
    points += 0.1 * sum(1 for c in hand if not is_trump(c, trump) and c.rank == ACE)
    return points


def _keep_value(card: Card, trump: Suit | None) -> float:
    """How much a card is worth keeping (the higher, the later it is discarded or played)."""
    if trump is not None and is_trump(card, trump):
        return 100 + trick_power(card, trump)
    rank = card.rank
    if rank == ACE:
        return 30
    if rank == TEN:
        return 4  # an unguarded off-suit ten mostly feeds someone else's Game point
    return rank


class GreedyBot(Bot):
    """See the module docstring."""

    name = "greedy"
    STAKE = 4
    """Trick value (card points, 3 per point card) worth taking with an unsure winner."""
    version = "1.0"

    # ------------------------------------------------------------ bidding and trump

    def _best_suit(self, hand) -> tuple[Suit, float]:
        return max(((s, hand_strength(hand, s)) for s in Suit), key=lambda p: p[1])

    def bid(self, view, legal):
        _suit, strength = self._best_suit(view.hand)
        # The draw improves the bidder's hand; 1.2 won most often against other values.
        want = int(strength + DRAW_BONUS)
        if view.bidder is not None and view.bidder % 3 == view.seat % 3:
            want -= 1  # the partner already bids for the team: overbid only when clearly stronger
        for amount in range(min(want, 6), 2, -1):
            if BIDS[amount] in legal.choices:
                return BIDS[amount]
        return PASS

    def name_trump(self, view, legal):
        suit, _ = self._best_suit(view.hand)
        return TRUMPS[suit]

    # ------------------------------------------------------------ the two discards

    def discard(self, view, legal):
        spec = legal.discard
        trump = view.trump
        chosen = set(spec.required)
        if spec.min_count == spec.max_count:  # the dealer: exactly this many
            count = spec.max_count - len(chosen)
            candidates = sorted(spec.optional, key=lambda c: _keep_value(c, trump))
        else:  # the draw: throw weak off-suit cards, keep aces
            count = spec.max_count - len(chosen)
            candidates = sorted(
                (c for c in spec.optional if c.rank != ACE), key=lambda c: _keep_value(c, trump)
            )
            count = max(spec.min_count - len(chosen), min(count, len(candidates)))
        chosen.update(candidates[:count])
        cards = frozenset(chosen)
        if spec.problem(cards) is not None:
            return spec.sample(self.rng)
        return Discard(cards)

    # ------------------------------------------------------------ play

    def play(self, view, legal):
        cards = [a.card for a in legal.choices]
        if len(cards) == 1:
            return legal.choices[0]
        played = set(view.played_cards())
        mine = set(view.hand)
        outstanding = [c for c in DECK if c not in played and c not in mine]
        if not view.trick:
            return Play(self._lead(view, cards, outstanding))
        return Play(self._follow(view, cards, outstanding))

    def _lead(self, view, cards, outstanding):
        trump = view.trump
        trumps = [c for c in cards if is_trump(c, trump)]
        bidding_team = view.bidder is not None and view.bidder % 3 == view.seat % 3
        others_trumps = [c for c in outstanding if is_trump(c, trump)]
        top_out = max((trick_power(c, trump) for c in others_trumps), default=-1)
        if trumps:
            best = max(trumps, key=lambda c: trick_power(c, trump))
            # The boss trump wins for sure; as the bidding team, pull trumps with it.
            if trick_power(best, trump) > top_out and (bidding_team or others_trumps):
                return best
        plain = [c for c in cards if not is_trump(c, trump)]
        aces = [c for c in plain if c.rank == ACE]
        if aces:
            return aces[0]
        if plain:
            return min(plain, key=lambda c: (CARD_POINTS[c] > 0, c.rank))
        # Only trumps and none is the boss: lead the lowest that is not a point card.
        return min(trumps, key=lambda c: (_point_card(c, trump), trick_power(c, trump)))

    def _follow(self, view, cards, outstanding):
        trump = view.trump
        led = _suit_of(view.trick[0][1], trump)
        best_seat, best_power = None, -1
        for seat, card in view.trick:
            s = _suit_of(card, trump)
            if s in (-1, led):
                power = trick_power(card, trump)
                if power > best_power:
                    best_seat, best_power = seat, power
        last = len(view.trick) == 5
        partner_winning = best_seat % 3 == view.seat % 3

        # Could someone still to play beat this power? (Unknown cards may be anywhere.)
        def safe(power: int) -> bool:
            if last:
                return True
            return all(
                trick_power(c, trump) <= power
                for c in outstanding
                if _suit_of(c, trump) in (-1, led)
            )

        if partner_winning and safe(best_power):
            # A safe trick for the team: feed it the best point card we may.
            return max(cards, key=lambda c: (_gift_value(c, trump), -_keep_value(c, trump)))

        winners = [c for c in cards if _beats(c, trump, led, best_power)]
        at_stake = sum(CARD_POINTS[c] for _s, c in view.trick) + sum(
            3 for _s, c in view.trick if _point_card(c, trump)
        )
        if winners and not partner_winning:
            sure = [c for c in winners if safe(trick_power(c, trump))]
            if sure:
                # Certain to win: take it with a point card if we have one, else the cheapest.
                return max(sure, key=lambda c: (_gift_value(c, trump), -_keep_value(c, trump)))
            if at_stake >= self.STAKE:
                return min(winners, key=lambda c: _keep_value(c, trump))
        # Lost (or the partner's): play low, keeping point cards and high trumps.
        return min(cards, key=lambda c: (_point_card(c, trump), _keep_value(c, trump)))


def _suit_of(card: Card, trump: Suit) -> int:
    """The effective suit: -1 for trumps, else the printed suit."""
    return -1 if is_trump(card, trump) else card.suit


def _beats(card: Card, trump: Suit, led: int, best_power: int) -> bool:
    return _suit_of(card, trump) in (-1, led) and trick_power(card, trump) > best_power


def _point_card(card: Card, trump: Suit) -> bool:
    """A card whose trick carries a point: a ten (Game), the joker or a bauer."""
    return card == JOKER or card.rank == TEN or card in (right_bauer(trump), left_bauer(trump))


def _gift_value(card: Card, trump: Suit) -> int:
    """What a card adds to a trick the team wins."""
    value = CARD_POINTS[card]
    if card == JOKER or card in (right_bauer(trump), left_bauer(trump)):
        value += 10
    return value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="seed for the rare random choice")
    args = parser.parse_args(argv)
    run(GreedyBot(args.seed))


if __name__ == "__main__":
    main()
