"""Shared helpers for the engine tests: games set up in an exact state from card texts."""

from __future__ import annotations

import pytest

from arena.engine import (
    DECK,
    Card,
    Game,
    IllegalActionError,
    Phase,
    Play,
    Rules,
    Suit,
    is_trump,
    parse_cards,
    trick_power,
)


def cards(text: str) -> list[Card]:
    """``"AS KS"`` -> the cards, in order."""
    return parse_cards(text)


def setup_game(
    phase: Phase,
    hands: list[str],
    *,
    dealer: int = 0,
    turn: int | None = None,
    trump: str | None = None,
    bidder: int | None = None,
    bid: int = 0,
    stock: str = "",
    scores: tuple[int, int, int] = (0, 0, 0),
    rules: Rules | None = None,
    seed: int = 0,
) -> Game:
    """A game in ``phase`` with the given hands (one card text per seat) and public fields.

    Cards in no hand and not in the stock are laid in the dealer's discards, so the 53 cards
    stay accounted for."""
    game = Game.new(seed, rules)
    game.hands = [cards(h) for h in hands]
    game.stock = cards(stock)
    game.dealer = dealer
    game.phase = phase
    game.turn = turn
    game.trump = None if trump is None else Suit.parse(trump)
    game.bidder = bidder
    game.bid = bid
    game.scores = list(scores)
    given = [c for h in game.hands for c in h] + game.stock
    used = set(given)
    assert len(given) == len(used), f"a card is given twice: {hands} {stock}"
    game.discards = [[] for _ in range(6)]
    game.discards[dealer] = [c for c in DECK if c not in used]
    return game


def tricks_to_hands(trump: str, leader: int, tricks: list[str]) -> list[str]:
    """The six hands that play ``tricks`` (each six card texts in play order, the first trick
    led by ``leader``), computing each trick's winner as the next leader."""
    suit = Suit.parse(trump)
    hands: list[list[str]] = [[] for _ in range(6)]
    for trick in tricks:
        played = cards(trick)
        assert len(played) == 6, trick
        seats = [(leader + i) % 6 for i in range(6)]
        for seat, card in zip(seats, played, strict=True):
            hands[seat].append(str(card))
        led_trump = is_trump(played[0], suit)
        best = max(
            range(6),
            key=lambda i: (
                trick_power(played[i], suit)
                if is_trump(played[i], suit) or (not led_trump and played[i].suit == played[0].suit)
                else -1
            ),
        )
        leader = seats[best]
    return [" ".join(h) for h in hands]


def hand_in_play(
    trump: str,
    bidder: int,
    bid: int,
    tricks: list[str],
    *,
    dealer: int = 0,
    scores: tuple[int, int, int] = (0, 0, 0),
    rules: Rules | None = None,
    seed: int = 0,
) -> Game:
    """A new game at the first trick of a hand whose six tricks will be ``tricks``."""
    game = Game.new(seed, rules)
    game.dealer = dealer
    game.scores = list(scores)
    return install_hand(game, trump, bidder, bid, tricks)


def install_hand(game: Game, trump: str, bidder: int, bid: int, tricks: list[str]) -> Game:
    """Turn the current deal of ``game`` (dealer, scores and hand number kept) into one at its
    first trick, with ``bidder`` having bid ``bid`` and named ``trump``, whose six tricks will
    be ``tricks``. The cards not played are laid in the dealer's discards."""
    hands = [cards(h) for h in tricks_to_hands(trump, bidder, tricks)]
    used = {c for h in hands for c in h}
    assert len(used) == 36, f"a card is played twice: {tricks}"
    game.hands = hands
    game.stock = []
    game.discards = [[] for _ in range(6)]
    game.discards[game.dealer] = [c for c in DECK if c not in used]
    game.phase = Phase.PLAY
    game.trump = Suit.parse(trump)
    game.bidder = bidder
    game.bid = bid
    game.turn = game.trick_leader = bidder
    return game


def play_cards(game: Game, text: str) -> None:
    """Play the cards in ``text`` in order, each by the seat to move."""
    for card in cards(text):
        game.apply(Play(card))


def play_tricks(game: Game, tricks: list[str]) -> None:
    for trick in tricks:
        play_cards(game, trick)


def snapshot(game: Game) -> dict:
    """Every field of ``game``, copied, for before/after comparisons."""
    fields = [f for f in Game.__slots__ if f != "events"]
    out = {f: repr(getattr(game, f)) for f in fields}
    out["events"] = repr(game.events)
    return out


def refused(game: Game, action) -> str:
    """Apply ``action``, which must be refused with the state unchanged; the error message."""
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert snapshot(game) == before
    return str(info.value)


# Two worked hands, shared by the scoring and end-of-game tests.
# Hearts trump, seat 0 (team 0) bids and leads. Teams: seats 0&3, 1&4, 2&5.
# Trick 1, led by 0: seat 0 plays the ace (High, team 0) and seat 1 the 2 (Low, team 1), which
#   loses the trick to seat 0.
# Trick 2, led by 0: joker (seat 0), right bauer JH (seat 1, team 1), left bauer JD (seat 2,
#   team 2); seat 3 wins with KH, so Right, Left and Joker all go to team 0.
# Tricks 3-6: seat 2 wins three (team 2), seat 1 wins the last (team 1).
HAND_A = [
    "AH 2H 3H 4H 5H 6H",
    "JK JH JD KH QH TH",
    "2C 3C 4C 5C 6C AC",
    "KC QC JC TC 9C 8C",
    "AS KS QS JS TS 9S",
    "2S 3S 4S 5S 6S 7S",
]
# Card points: team 0: 4 + 18 = 22; team 1: 0; team 2: 4 + 16 + 20 = 40; discards 19.

# As HAND_A in the first two tricks, but team 2 ends on 22 card points, level with team 0.
HAND_TIED = [
    "AH 2H 3H 4H 5H 6H",
    "JK JH JD KH QH TH",
    "2C 3C 4C 5C 6C AC",
    "KC QC JC 9C 8C 7C",
    "AS KS QS JS 9S 8S",
    "7S 2S 3S 4S 5S QD",
]
