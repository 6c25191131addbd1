"""A fast heuristic player for every phase: the rollout policy, and the fallback answer.

It is deliberately simple and cheap (a few table look-ups per card): bid from the strength of
the best suit, name that suit, lay away weak non-trumps, and in play win tricks with the lowest
card that wins, smear points on a partner's winning trick and throw low cards otherwise.
"""

from __future__ import annotations

from arena.engine import (
    BIDS,
    CARD_POINTS,
    DECK,
    JOKER,
    PASS,
    PLAYS,
    TRUMPS,
    Action,
    Card,
    Discard,
    DiscardSpec,
    Game,
    Phase,
    Suit,
    left_bauer,
    right_bauer,
    trick_power,
)

__all__ = [
    "EFF",
    "POW",
    "TRUMP",
    "bid_amount",
    "choose_discard",
    "choose_play",
    "choose_trump",
    "keep_value",
    "policy_action",
    "suit_strength",
]

TRUMP = 4
"""The effective suit of every trump (as in the engine's tables)."""


def _eff_table(trump: Suit) -> tuple[int, ...]:
    lb = left_bauer(trump)
    return tuple(TRUMP if c == 52 or c // 13 == trump or c == lb else c // 13 for c in range(53))


EFF: tuple[tuple[int, ...], ...] = tuple(_eff_table(t) for t in Suit)
"""EFF[trump][card]: the card's suit for following (4 for every trump)."""
POW: tuple[tuple[int, ...], ...] = tuple(tuple(trick_power(c, t) for c in DECK) for t in Suit)
"""POW[trump][card]: trick-taking power (trumps 100-115, other cards their rank 0-12)."""


def _cost_table(trump: Suit) -> tuple[int, ...]:
    """How much it hurts to give a card away: trumps and point cards cost most."""
    cost = []
    for c in DECK:
        p = POW[trump][c]
        if EFF[trump][c] == TRUMP:
            cost.append(40 + (p - 100) * 2 + 6 * CARD_POINTS[c])
        else:
            cost.append(p + 3 * CARD_POINTS[c])
    return tuple(cost)


COST: tuple[tuple[int, ...], ...] = tuple(_cost_table(t) for t in Suit)


def _trump_weight(trump: Suit) -> dict[Card, float]:
    """Expected points a trump brings its holder's team (sure points for A and 2)."""
    base = trump * 13
    w = {DECK[base + r]: 0.12 for r in range(13)}
    w[DECK[base + 12]] = 1.1  # ace: High, and wins a trick
    w[DECK[base + 11]] = 0.45  # king
    w[DECK[base + 10]] = 0.35  # queen
    w[right_bauer(trump)] = 0.8
    w[left_bauer(trump)] = 0.6
    w[DECK[base + 8]] = 0.35  # ten: Game points if it is won
    w[DECK[base]] = 1.0  # two: Low for whoever plays it
    w[JOKER] = 0.3
    return w


WEIGHTS = tuple(_trump_weight(t) for t in Suit)


def suit_strength(hand, trump: Suit) -> float:
    """Points the bidding team may expect with ``trump`` and ``hand`` (a rough estimate)."""
    w = WEIGHTS[trump]
    eff = EFF[trump]
    s = 0.0
    n = 0
    for c in hand:
        x = w.get(c)
        if x is not None:
            s += x
            n += 1
        elif eff[c] != TRUMP and c % 13 == 12:
            s += 0.2  # an outside ace wins a trick and Game points
    # Length: many trumps pull the others' trumps and win the bauers and the joker.
    s += 0.25 * max(0, n - 2)
    return s + 0.9  # the partner and the draw bring some more


def choose_trump(hand) -> Suit:
    return max(Suit, key=lambda t: suit_strength(hand, t))


def bid_amount(hand, high_bid: int, margin: float = 0.3) -> int | None:
    """The bid this hand is worth, or ``None`` to pass."""
    best = max(suit_strength(hand, t) for t in Suit)
    n = int(best - margin)
    if n < 3 or n <= high_bid:
        return None
    return min(n, 6)


def keep_value(card: Card, trump: Suit) -> int:
    """How much a card is worth keeping in hand (higher is better)."""
    if EFF[trump][card] == TRUMP:
        return 1000 + POW[trump][card]
    r = card % 13
    return r * 10 + (60 if r == 12 else 0) + (25 if r == 8 else 0)


def choose_discard(hand, spec: DiscardSpec, trump: Suit, dealer: bool) -> frozenset[Card]:
    """Lay away the weakest cards the spec allows (non-dealers keep aces and kings)."""
    optional = sorted(spec.optional, key=lambda c: keep_value(c, trump))
    want = spec.max_count - len(spec.required)
    if not dealer:
        optional = [c for c in optional if c % 13 < 11 or c == JOKER]
        want = min(want, len(optional))
    want = max(want, spec.min_count - len(spec.required))
    return spec.required.union(optional[:want])


def choose_play(hand, trick, trump: Suit, seat: int, bidder: int) -> Card:
    """The card to play: ``trick`` is the current trick's (seat, card) pairs."""
    eff = EFF[trump]
    pw = POW[trump]
    cost = COST[trump]
    team = seat % 3
    if not trick:
        trumps = [c for c in hand if eff[c] == TRUMP]
        if trumps and bidder % 3 == team:
            best = max(trumps, key=pw.__getitem__)
            if pw[best] >= 112 or len(trumps) >= 3:
                return best
        aces = [c for c in hand if eff[c] != TRUMP and c % 13 == 12]
        if aces:
            return aces[0]
        plain = [c for c in hand if eff[c] != TRUMP]
        return min(plain or hand, key=cost.__getitem__)
    led = eff[trick[0][1]]
    best_power = -1
    best_seat = -1
    for s, c in trick:
        e = eff[c]
        if (e in (TRUMP, led)) and pw[c] > best_power:
            best_power, best_seat = pw[c], s
    follow = [c for c in hand if eff[c] == led]
    legal = follow or hand
    if len(legal) == 1:
        return legal[0]
    last = len(trick) == 5
    if best_seat % 3 == team:
        if last or best_power >= 113 or (best_power == 12 and led != TRUMP):
            # Smear: give the partner's safe trick the most points we can spare.
            return max(legal, key=lambda c: (CARD_POINTS[c] if eff[c] != TRUMP else -1, -cost[c]))
        return min(legal, key=cost.__getitem__)
    winners = [c for c in legal if (eff[c] == TRUMP or eff[c] == led) and pw[c] > best_power]
    if winners:
        return min(winners, key=pw.__getitem__)
    return min(legal, key=cost.__getitem__)


def policy_action(game: Game) -> Action:
    """The heuristic's action for the player to move in ``game`` (which has all hands)."""
    phase = game.phase
    seat = game.turn
    hand = game.hands[seat]
    if phase is Phase.PLAY:
        return PLAYS[choose_play(hand, game.trick, game.trump, seat, game.bidder)]
    if phase is Phase.BIDDING:
        n = bid_amount(hand, game.bid)
        return PASS if n is None else BIDS[n]
    if phase is Phase.TRUMP:
        return TRUMPS[choose_trump(hand)]
    spec = game.discard_spec()
    return Discard(choose_discard(hand, spec, game.trump, phase is Phase.DEALER_DISCARD))
