"""A fast heuristic player for every phase: the rollout policy, and the fallback answer.

It is deliberately cheap (a few table look-ups per card) and follows the greedy bot's rules,
which measured stronger than this module's first ones: bid the estimated points of the best
suit plus a little for the draw, name that suit, lay away weak non-trumps, lead the boss trump
and aces, take a sure trick with a point card, smear points on a partner's safe trick, and
otherwise win only when points are at stake, throwing low. In a rollout the deal is known, so
"safe" and "boss" are judged from the actual hands still to play.
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


DRAW_BONUS = 1.2
"""Points a bidder counts on beyond its hand's own strength (the draw brings trumps); the
greedy bot's tuned value, which also wins most often in this policy."""


def suit_strength(hand, trump: Suit) -> float:
    """Points this hand is expected to take with ``trump`` as trumps (the greedy bot's
    estimate): the ace and the 2 are sure, bauers, joker, king and queen likely, a guarded ten
    brings the Game point, length helps."""
    eff = EFF[trump]
    base = trump * 13
    top, king, queen, ten, two = (DECK[base + r] for r in (12, 11, 10, 8, 0))
    rb, lb = right_bauer(trump), left_bauer(trump)
    trumps = [c for c in hand if eff[c] == TRUMP]
    points = 0.0
    if top in trumps:
        points += 1.0
    if two in trumps:
        points += 1.0
    high = (top in trumps) + (king in trumps) + (queen in trumps)
    if rb in trumps:
        points += 0.8 if high >= 2 else 0.55 if high == 1 else 0.35
    if lb in trumps:
        points += 0.6 if high >= 2 else 0.4 if high == 1 else 0.25
    if JOKER in trumps:
        points += 0.45 if high >= 2 else 0.25
    if king in trumps:
        points += 0.3
    if queen in trumps:
        points += 0.15
    if ten in trumps and len(trumps) >= 3:
        points += 0.5
    points += 0.35 * max(0, len(trumps) - 2)
    points += 0.1 * sum(1 for c in hand if eff[c] != TRUMP and c % 13 == 12)
    return points


def choose_trump(hand) -> Suit:
    return max(Suit, key=lambda t: suit_strength(hand, t))


def bid_amount(hand, high_bid: int, partner_high: bool = False) -> int | None:
    """The bid this hand is worth, or ``None`` to pass; one less over the partner's bid."""
    want = int(max(suit_strength(hand, t) for t in Suit) + DRAW_BONUS) - partner_high
    want = min(want, 6)
    if want < 3 or want <= high_bid:
        return None
    return want


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


def _gift_table(trump: Suit) -> tuple[int, ...]:
    """What a card adds to a trick its team wins: card points, and a point for the bauers and
    the joker (which go with the trick)."""
    gift = list(CARD_POINTS)
    for c in (JOKER, right_bauer(trump), left_bauer(trump)):
        gift[c] += 10
    return tuple(gift)


GIFT: tuple[tuple[int, ...], ...] = tuple(_gift_table(t) for t in Suit)


def _play_keep_table(trump: Suit) -> tuple[int, ...]:
    """How much a card is worth keeping in play (the lowest is thrown first)."""
    out = []
    for c in DECK:
        if EFF[trump][c] == TRUMP:
            out.append(100 + POW[trump][c])
        elif c % 13 == 12:
            out.append(30)
        elif c % 13 == 8:
            out.append(4)  # an unguarded off-suit ten mostly feeds someone else's Game point
        else:
            out.append(c % 13)
    return tuple(out)


PLAY_KEEP: tuple[tuple[int, ...], ...] = tuple(_play_keep_table(t) for t in Suit)


def _point_table(trump: Suit) -> tuple[bool, ...]:
    """Cards whose trick carries a point: tens (Game), the joker and the bauers."""
    special = {JOKER, right_bauer(trump), left_bauer(trump)}
    return tuple(c in special or (c != 52 and c % 13 == 8) for c in DECK)


POINT_CARD: tuple[tuple[bool, ...], ...] = tuple(_point_table(t) for t in Suit)


def choose_play(hand, trick, trump: Suit, seat: int, bidder: int, others, later=None) -> Card:
    """The card to play (the rules of the greedy bot). ``trick`` is the current trick's
    (seat, card) pairs, ``others`` the cards other players may still hold, ``later`` the hands
    still to play to this trick (``None``: any of ``others``)."""
    eff = EFF[trump]
    pw = POW[trump]
    keep = PLAY_KEEP[trump]
    gift = GIFT[trump]
    point = POINT_CARD[trump]
    team = seat % 3
    if not trick:
        trumps = [c for c in hand if eff[c] == TRUMP]
        if trumps:
            top_out = -1
            for c in others:
                if eff[c] == TRUMP and pw[c] > top_out:
                    top_out = pw[c]
            best = max(trumps, key=pw.__getitem__)
            # The boss trump wins for sure; as the bidding team, pull trumps with it.
            if pw[best] > top_out and (bidder % 3 == team or top_out >= 0):
                return best
        plain = [c for c in hand if eff[c] != TRUMP]
        for c in plain:
            if c % 13 == 12:
                return c
        if plain:
            return min(plain, key=lambda c: (CARD_POINTS[c] > 0, c % 13))
        return min(trumps, key=lambda c: (point[c], pw[c]))
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
    # The highest power the players still to come could put on this trick.
    threat = -1
    if len(trick) < 5:
        if later is None:
            for c in others:
                if (eff[c] == TRUMP or eff[c] == led) and pw[c] > threat:
                    threat = pw[c]
        else:
            for h in later:
                follows = [c for c in h if eff[c] == led]
                for c in follows or h:
                    if (eff[c] == TRUMP or eff[c] == led) and pw[c] > threat:
                        threat = pw[c]
    partner_winning = best_seat % 3 == team
    if partner_winning and best_power > threat:
        # A safe trick for the team: smear the best point card we may.
        return max(legal, key=lambda c: (gift[c], -keep[c]))
    if not partner_winning:
        winners = [c for c in legal if (eff[c] == TRUMP or eff[c] == led) and pw[c] > best_power]
        if winners:
            sure = [c for c in winners if pw[c] > threat]
            if sure:
                return max(sure, key=lambda c: (gift[c], -keep[c]))
            at_stake = 0
            for _s, c in trick:
                at_stake += CARD_POINTS[c] + 3 * point[c]
            if at_stake >= 4:
                return min(winners, key=keep.__getitem__)
    # Lost (or the partner's): play low, keeping point cards and high trumps.
    return min(legal, key=lambda c: (point[c], keep[c]))


def _later_hands(game: Game) -> list:
    """The hands of the seats still to play to the current trick after the one to move."""
    n = 5 - len(game.trick)
    hands = game.hands
    seat = game.turn
    return [hands[(seat + i) % 6] for i in range(1, n + 1)]


def policy_action(game: Game) -> Action:
    """The heuristic's action for the player to move in ``game`` (which has all hands)."""
    phase = game.phase
    seat = game.turn
    hand = game.hands[seat]
    if phase is Phase.PLAY:
        hands = game.hands
        others = [c for s in range(6) if s != seat for c in hands[s]]
        later = _later_hands(game) if game.trick else None
        return PLAYS[choose_play(hand, game.trick, game.trump, seat, game.bidder, others, later)]
    if phase is Phase.BIDDING:
        bidder = game.bidder
        n = bid_amount(hand, game.bid, bidder is not None and bidder % 3 == seat % 3)
        return PASS if n is None else BIDS[n]
    if phase is Phase.TRUMP:
        return TRUMPS[choose_trump(hand)]
    spec = game.discard_spec()
    return Discard(choose_discard(hand, spec, game.trump, phase is Phase.DEALER_DISCARD))
