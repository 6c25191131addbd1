"""The state of one game of Schmier and the one verb set that moves it on.

``Game.new(seed)`` deals the first hand; then, until ``is_over``: ``current_player`` is to move,
``legal_actions()`` says what it may do, ``apply(action)`` does it (or raises
:class:`IllegalActionError` naming the action and the reason). ``result()`` gives the winner,
scores and places. A game is a pure function of its seed and its actions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .actions import (
    BIDS,
    PASS,
    PLAYS,
    TRUMPS,
    Action,
    Bid,
    Discard,
    DiscardSpec,
    LegalActions,
    NameTrump,
    Phase,
    Play,
)
from .cards import (
    CARD_POINTS,
    DECK,
    EFFECTIVE_SUIT,
    JOKER,
    POWER,
    TRUMP,
    Card,
    Suit,
    format_cards,
    left_bauer,
    right_bauer,
)
from .events import (
    BidMade,
    CardPlayed,
    DealerExchanged,
    Exchanged,
    GameOver,
    HandDealt,
    HandScored,
    HandThrownIn,
    Point,
    PointAward,
    TrickWon,
    TrumpNamed,
)

__all__ = [
    "SEATS",
    "Game",
    "GameResult",
    "IllegalActionError",
    "Rules",
    "deal",
    "first_dealer",
    "team_of",
]

SEATS = 6
TEAMS = 3
HAND_SIZE = 6
MAX_EXCHANGE = 3


def team_of(seat: int) -> int:
    """Partners sit opposite: seats 0&3 are team 0, 1&4 team 1, 2&5 team 2."""
    return seat % 3


class IllegalActionError(ValueError):
    """An action that the rules do not allow at this point; the message says why."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules settings a game is played under (recorded with every game)."""

    target: int = 21
    """A game ends after the hand in which a team reaches this score."""
    max_hands: int = 60
    """Arena ruling A1: the game ends after this many deals (thrown-in ones included) even if
    nobody has reached ``target``: the highest score wins; a tie at the top goes to that deal's
    bidding team if it is among the tied, else to the lowest-numbered tied team. Uniformly
    random, always-passing or broken bots would otherwise never finish a league night."""

    def to_json(self) -> dict:
        return {"target": self.target, "max_hands": self.max_hands}

    @classmethod
    def from_json(cls, data: dict) -> Rules:
        return cls(target=int(data["target"]), max_hands=int(data["max_hands"]))


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: int
    """The winning team."""
    scores: tuple[int, int, int]
    places: tuple[int, int, int]
    """Each team's place: the winner 1; the others by score, equal scores sharing a place."""
    hands: int
    """Deals in the game, thrown-in ones included."""


def first_dealer(seed: int) -> int:
    """The first dealer of the game played with ``seed``."""
    return random.Random(f"schmier/{seed}/dealer").randrange(SEATS)


def deal(seed: int, hand: int) -> tuple[list[list[Card]], list[Card]]:
    """The cards of deal number ``hand`` of the game with ``seed``: six hands by seat and the
    17-card stock (top first). It depends on nothing else, so every game with this seed gives
    the same cards to the same seats in its ``hand``-th deal (duplicate play relies on this)."""
    deck = list(DECK)
    random.Random(f"schmier/{seed}/{hand}").shuffle(deck)
    # Dealt one at a time around the table: card i goes to seat i mod 6.
    return [deck[s : 6 * SEATS : SEATS] for s in range(SEATS)], deck[6 * SEATS :]


class Game:
    """A game of Schmier in progress. Copy with :meth:`copy`; never share between threads."""

    __slots__ = (
        "_led",
        "_trick_best",
        "_trick_best_power",
        "bid",
        "bidder",
        "bids",
        "dealer",
        "discards",
        "draws",
        "events",
        "exchanged",
        "hand_no",
        "hands",
        "phase",
        "pickup",
        "places",
        "rules",
        "scores",
        "seed",
        "stock",
        "trick",
        "trick_leader",
        "tricks",
        "trump",
        "turn",
        "winner",
    )

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, seed: int, rules: Rules | None = None, *, log: bool = True) -> Game:
        """A new game: the first dealer is drawn from ``seed`` and the first hand is dealt.
        With ``log`` false no events are kept (for fast simulation)."""
        game = cls.__new__(cls)
        game.rules = rules or Rules()
        game.seed = seed
        game.events = [] if log else None
        game.scores = [0, 0, 0]
        game.winner = None
        game.places = None
        game.hand_no = 0
        game.dealer = first_dealer(seed)
        game._deal()
        return game

    def copy(self, *, log: bool = False) -> Game:
        """An independent copy of the state; events are not copied unless ``log``."""
        new = Game.__new__(Game)
        new.rules = self.rules
        new.seed = self.seed
        new.events = (list(self.events) if self.events is not None else []) if log else None
        new.scores = self.scores[:]
        new.winner = self.winner
        new.places = self.places
        new.hand_no = self.hand_no
        new.dealer = self.dealer
        new.phase = self.phase
        new.turn = self.turn
        new.hands = [h[:] for h in self.hands]
        new.stock = self.stock[:]
        new.bids = self.bids[:]
        new.bid = self.bid
        new.bidder = self.bidder
        new.trump = self.trump
        new.discards = [d[:] for d in self.discards]
        new.draws = [d[:] for d in self.draws]
        new.exchanged = self.exchanged[:]
        new.pickup = self.pickup[:]
        new.trick = self.trick[:]
        new.trick_leader = self.trick_leader
        new.tricks = self.tricks[:]  # completed tricks are immutable tuples
        new._led = self._led
        new._trick_best = self._trick_best
        new._trick_best_power = self._trick_best_power
        return new

    def _deal(self) -> None:
        hands, stock = deal(self.seed, self.hand_no)
        self.hands = hands
        self.stock = stock
        self.phase = Phase.BIDDING
        self.turn = (self.dealer + 1) % SEATS
        self.bids = []
        self.bid = 0
        self.bidder = None
        self.trump = None
        self.discards = [[] for _ in range(SEATS)]
        self.draws = [[] for _ in range(SEATS)]
        self.exchanged = [None] * SEATS
        self.pickup = []
        self.trick = []
        self.trick_leader = None
        self.tricks = []
        self._led = None
        self._trick_best = None
        self._trick_best_power = -1
        if self.events is not None:
            self.events.append(
                HandDealt(self.hand_no, self.dealer, tuple(map(tuple, hands)), tuple(stock))
            )

    # ------------------------------------------------------------------ the verbs

    @property
    def current_player(self) -> int | None:
        """The seat to move, or ``None`` when the game is over."""
        return None if self.phase is Phase.OVER else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def legal_actions(self) -> LegalActions:
        phase, seat = self.phase, self.turn
        if phase is Phase.PLAY:
            return LegalActions(phase, seat, tuple([PLAYS[c] for c in self._playable()]))
        if phase is Phase.BIDDING:
            return LegalActions(
                phase, seat, (PASS, *[BIDS[n] for n in range(max(3, self.bid + 1), 7)])
            )
        if phase is Phase.DRAW or phase is Phase.DEALER_DISCARD:
            return LegalActions(phase, seat, discard=self.discard_spec())
        if phase is Phase.TRUMP:
            return LegalActions(phase, seat, TRUMPS)
        return LegalActions(phase, seat)

    def apply(self, action: Action) -> None:
        """Make ``action`` for the player to move; raise :class:`IllegalActionError` if the
        rules do not allow it (the state is then unchanged)."""
        phase = self.phase
        kind = type(action)
        if kind not in _ACTION_TYPES:
            raise IllegalActionError(f"not an action: {action!r}")
        if phase is Phase.PLAY and kind is Play:
            self._play(action.card)
        elif phase is Phase.BIDDING and kind is Bid:
            self._bid(action.amount)
        elif (phase is Phase.DRAW or phase is Phase.DEALER_DISCARD) and kind is Discard:
            self._discard(action.cards)
        elif phase is Phase.TRUMP and kind is NameTrump:
            self._name_trump(action.suit)
        elif phase is Phase.OVER:
            raise IllegalActionError(f"{action}: the game is over")
        else:
            raise IllegalActionError(
                f"seat {self.turn} may not {action}: the phase is {phase.value}, "
                f"which takes {_PHASE_ACTION[phase]}"
            )

    def result(self) -> GameResult | None:
        """The outcome, or ``None`` while the game is still on."""
        if self.phase is not Phase.OVER:
            return None
        return GameResult(self.winner, tuple(self.scores), self.places, self.hand_no + 1)

    # ------------------------------------------------------------------ queries

    def discard_spec(self) -> DiscardSpec:
        """What the seat to move may discard, in the draw or the dealer's discard."""
        hand, trump = self.hands[self.turn], self.trump
        eff = EFFECTIVE_SUIT[trump]
        plain = frozenset(c for c in hand if eff[c] != TRUMP)
        if self.phase is Phase.DRAW:
            return DiscardSpec(frozenset(), plain, 0, min(MAX_EXCHANGE, len(plain)))
        excess = len(hand) - HAND_SIZE
        trumps = len(hand) - len(plain)
        if trumps <= HAND_SIZE:
            return DiscardSpec(frozenset(), plain, excess, excess)
        protected = _protected(trump)
        spare = frozenset(c for c in hand if eff[c] == TRUMP and c not in protected)
        return DiscardSpec(plain, spare, excess, excess)

    def _playable(self) -> list[Card]:
        hand = self.hands[self.turn]
        led = self._led
        if led is None:
            return hand
        eff = EFFECTIVE_SUIT[self.trump]
        follow = [c for c in hand if eff[c] == led]
        return follow or hand

    # ------------------------------------------------------------------ phases

    def _bid(self, amount: int | None) -> None:
        seat = self.turn
        if amount is not None:
            if type(amount) is not int or not 3 <= amount <= 6:
                raise IllegalActionError(f"seat {seat} may not bid {amount!r}: bids are 3 to 6")
            if amount <= self.bid:
                raise IllegalActionError(
                    f"seat {seat} may not bid {amount}: the bid must be higher than {self.bid}"
                )
            self.bid, self.bidder = amount, seat
        self.bids.append((seat, amount))
        if self.events is not None:
            self.events.append(BidMade(seat, amount))
        if amount == 6 or seat == self.dealer:
            if self.bidder is None:
                if self.events is not None:
                    self.events.append(HandThrownIn(self.hand_no))
                if self.hand_no + 1 >= self.rules.max_hands:
                    self._end(self._game_winner(None))
                    return
                self.hand_no += 1  # the same dealer deals again
                self._deal()
            else:
                self.phase, self.turn = Phase.TRUMP, self.bidder
        else:
            self.turn = (seat + 1) % SEATS

    def _name_trump(self, suit: Suit) -> None:
        self.trump = Suit(suit)
        if self.events is not None:
            self.events.append(TrumpNamed(self.turn, self.trump))
        self.phase = Phase.DRAW
        self.turn = (self.dealer + 1) % SEATS

    def _discard(self, cards: frozenset[Card]) -> None:
        seat, hand = self.turn, self.hands[self.turn]
        stray = [c for c in cards if c not in hand]
        if stray:
            raise IllegalActionError(
                f"seat {seat} may not discard {format_cards(sorted(cards))}: "
                f"{format_cards(sorted(stray))} not in hand"
            )
        problem = self.discard_spec().problem(cards)
        if problem:
            raise IllegalActionError(
                f"seat {seat} may not discard {format_cards(sorted(cards))}: {problem}"
            )
        ordered = sorted(cards)
        kept = [c for c in hand if c not in cards]
        self.discards[seat] = ordered
        self.exchanged[seat] = len(ordered)
        if self.phase is Phase.DRAW:
            n = len(ordered)
            drawn, self.stock = self.stock[:n], self.stock[n:]
            self.hands[seat] = kept + drawn
            self.draws[seat] = drawn
            if self.events is not None:
                self.events.append(Exchanged(seat, n, tuple(ordered), tuple(drawn)))
            nxt = (seat + 1) % SEATS
            if nxt == self.dealer:
                # The dealer takes the rest of the stock into hand.
                self.pickup = self.stock
                self.stock = []
                self.hands[nxt] = self.hands[nxt] + self.pickup
                self.phase = Phase.DEALER_DISCARD
            self.turn = nxt
        else:
            self.hands[seat] = kept
            if self.events is not None:
                self.events.append(
                    DealerExchanged(seat, len(ordered), tuple(self.pickup), tuple(ordered))
                )
            self.phase = Phase.PLAY
            self.turn = self.trick_leader = self.bidder

    def _play(self, card: Card) -> None:
        seat, hand = self.turn, self.hands[self.turn]
        if card not in hand:
            raise IllegalActionError(f"seat {seat} may not play {card}: not in hand")
        eff = EFFECTIVE_SUIT[self.trump]
        suit = eff[card]
        led = self._led
        if led is None:
            self._led = led = suit
        elif suit != led:
            for c in hand:
                if eff[c] == led:
                    raise IllegalActionError(
                        f"seat {seat} may not play {card}: must follow "
                        f"{'trumps' if led == TRUMP else Suit(led).name.lower()} (holds {c})"
                    )
        hand.remove(card)
        self.trick.append((seat, card))
        if self.events is not None:
            self.events.append(CardPlayed(seat, card))
        if suit in (TRUMP, led):
            power = POWER[self.trump][card]
            if power > self._trick_best_power:
                self._trick_best_power, self._trick_best = power, seat
        if len(self.trick) < SEATS:
            self.turn = (seat + 1) % SEATS
            return
        winner = self._trick_best
        done = (self.trick_leader, tuple(self.trick), winner)
        self.tricks.append(done)
        if self.events is not None:
            self.events.append(TrickWon(len(self.tricks) - 1, *done))
        self.trick = []
        self._led = None
        self._trick_best, self._trick_best_power = None, -1
        self.turn = self.trick_leader = winner
        if len(self.tricks) == HAND_SIZE:
            self._score_hand()

    def _score_hand(self) -> None:
        trump = self.trump
        ace, two = DECK[trump * 13 + 12], DECK[trump * 13]
        by_trick = {
            right_bauer(trump): Point.RIGHT,
            left_bauer(trump): Point.LEFT,
            JOKER: Point.JOKER,
        }
        awards = []
        card_points = [0, 0, 0]
        for _leader, cards, winner in self.tricks:
            wteam = winner % 3
            for seat, card in cards:
                card_points[wteam] += CARD_POINTS[card]
                if card == ace:
                    awards.append(PointAward(Point.HIGH, seat % 3, card))
                elif card == two:
                    awards.append(PointAward(Point.LOW, seat % 3, card))
                elif card in by_trick:
                    awards.append(PointAward(by_trick[card], wteam, card))
        order = list(Point)
        awards.sort(key=lambda a: order.index(a.point))
        top = max(card_points)
        if card_points.count(top) == 1:
            awards.append(PointAward(Point.GAME, card_points.index(top), None))
        taken = [0, 0, 0]
        for award in awards:
            taken[award.team] += 1
        bid_team = self.bidder % 3
        made = taken[bid_team] >= self.bid
        changes = taken[:]
        if not made:
            changes[bid_team] = -self.bid
        for t in range(TEAMS):
            self.scores[t] += changes[t]
        if self.events is not None:
            self.events.append(
                HandScored(
                    self.hand_no,
                    self.bidder,
                    self.bid,
                    tuple(awards),
                    tuple(card_points),
                    sum(CARD_POINTS[c] for d in self.discards for c in d),
                    made,
                    tuple(changes),
                    tuple(self.scores),
                )
            )
        winner = self._game_winner(bid_team)
        if winner is None:
            self.hand_no += 1
            self.dealer = (self.dealer + 1) % SEATS
            self._deal()
        else:
            self._end(winner)

    def _end(self, winner: int) -> None:
        self.winner = winner
        others = sorted((t for t in range(TEAMS) if t != winner), key=lambda t: -self.scores[t])
        places = [0, 0, 0]
        places[winner] = 1
        places[others[0]] = 2
        places[others[1]] = 2 if self.scores[others[1]] == self.scores[others[0]] else 3
        self.places = tuple(places)
        self.phase = Phase.OVER
        self.turn = None
        if self.events is not None:
            self.events.append(GameOver(winner, tuple(self.scores), self.places))

    def _game_winner(self, bid_team: int | None) -> int | None:
        """Rules 22-23 and arena ruling A1: who has won after this deal, if anyone."""
        scores = self.scores
        top = max(scores)
        last_deal = self.hand_no + 1 >= self.rules.max_hands
        if top < self.rules.target and not last_deal:
            return None
        leaders = [t for t in range(TEAMS) if scores[t] == top]
        if len(leaders) == 1:
            return leaders[0]
        if bid_team in leaders:
            return bid_team
        # A tie at the top between non-bidders plays on (rule 23), except after the last deal.
        return leaders[0] if last_deal else None

    def view(self, seat: int):
        """What ``seat`` may know now (an :class:`arena.engine.view.View`)."""
        from .view import view_of

        return view_of(self, seat)

    def __repr__(self) -> str:
        return (
            f"<Game seed={self.seed} hand={self.hand_no} phase={self.phase.value} "
            f"turn={self.turn} scores={self.scores}>"
        )


_ACTION_TYPES = (Bid, NameTrump, Discard, Play)

_PHASE_ACTION = {
    Phase.BIDDING: "a bid or a pass",
    Phase.TRUMP: "a trump suit",
    Phase.DRAW: "a discard",
    Phase.DEALER_DISCARD: "a discard",
    Phase.PLAY: "a card to play",
    Phase.OVER: "nothing",
}

_PROTECTED = {
    t: frozenset(
        {
            DECK[t * 13 + 12],
            right_bauer(t),
            left_bauer(t),
            DECK[t * 13],
            JOKER,
        }  # A, bauers, 2, joker
    )
    for t in Suit
}


def _protected(trump: Suit) -> frozenset[Card]:
    """Trumps the dealer may never discard, even holding more than six trumps."""
    return _PROTECTED[trump]
