"""Invariants of random games (hypothesis): cards conserved, points per hand, hidden cards."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine import (
    DECK,
    JOKER,
    Card,
    Discard,
    Game,
    IllegalActionError,
    Phase,
    Play,
    Rules,
    is_trump,
    left_bauer,
    parse_action,
    right_bauer,
)
from arena.engine.events import (
    HIDING_EVENTS,
    CardPlayed,
    DealerExchanged,
    Exchanged,
    HandDealt,
    HandScored,
    Point,
    visible_to,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW_HANDS = Rules(max_hands=4)


def played_cards(game: Game) -> list[Card]:
    return [c for _l, trick, _w in game.tricks for _s, c in trick] + [c for _s, c in game.trick]


def all_cards(game: Game) -> list[Card]:
    held = [c for h in game.hands for c in h]
    discarded = [c for d in game.discards for c in d]
    return held + list(game.stock) + discarded + played_cards(game)


def state(game: Game) -> tuple:
    return (
        repr(game.hands),
        repr(game.stock),
        repr(game.discards),
        repr(game.draws),
        game.phase,
        game.turn,
        len(game.tricks),
        len(game.trick),
        game.hand_no,
        tuple(game.scores),
    )


def random_games(seed: int, rng_seed: int, rules: Rules = FEW_HANDS):
    """Yield the game before each action, then apply a random legal action."""
    game = Game.new(seed, rules)
    rng = random.Random(rng_seed)
    while not game.is_over:
        action = game.legal_actions().sample(rng)
        yield game, action
        game.apply(action)
    yield game, None


def play_out(seed: int, rng_seed: int, rules: Rules = FEW_HANDS) -> Game:
    """A game played to its end by random legal actions."""
    *_, (game, _) = random_games(seed, rng_seed, rules)
    return game


@settings(max_examples=100, deadline=None)
@given(SEEDS, SEEDS)
def test_cards_are_conserved_at_every_step(seed, rng_seed):
    for game, _ in random_games(seed, rng_seed):
        cards = all_cards(game)
        assert len(cards) == 53
        assert set(cards) == set(DECK)


@settings(max_examples=100, deadline=None)
@given(SEEDS, SEEDS)
def test_every_hand_awards_high_low_right_left_joker_and_at_most_6_points(seed, rng_seed):
    game = play_out(seed, rng_seed)
    scored = [e for e in game.events if type(e) is HandScored]
    assert scored
    for event in scored:
        points = [a.point for a in event.awards]
        assert len(points) <= 6
        assert sorted(points, key=list(Point).index) == points
        assert points[:5] == [Point.HIGH, Point.LOW, Point.RIGHT, Point.LEFT, Point.JOKER]
        top = max(event.card_points)
        if event.card_points.count(top) == 1:
            assert points[5:] == [Point.GAME]
            assert event.awards[5].team == event.card_points.index(top)
        else:
            assert points[5:] == []
        assert sum(event.card_points) + event.discard_points == 81
        taken = [sum(a.team == t for a in event.awards) for t in range(3)]
        bid_team = event.bidder % 3
        assert event.made == (taken[bid_team] >= event.bid)
        want = taken[:]
        if not event.made:
            want[bid_team] = -event.bid
        assert list(event.changes) == want


@settings(max_examples=100, deadline=None)
@given(SEEDS, SEEDS)
def test_the_ace_bauers_two_and_joker_of_trumps_are_never_discarded(seed, rng_seed):
    for game, _ in random_games(seed, rng_seed):
        if game.trump is not None:
            t = game.trump
            must = {DECK[t * 13 + 12], DECK[t * 13], right_bauer(t), left_bauer(t), JOKER}
            assert not must & {c for d in game.discards for c in d}


@settings(max_examples=100, deadline=None)
@given(SEEDS, SEEDS)
def test_a_view_never_holds_another_players_unplayed_card(seed, rng_seed):
    for game, _ in random_games(seed, rng_seed):
        played = set(played_cards(game))
        for seat in range(6):
            view = game.view(seat)
            shown = set(view.hand) | set(view.discarded) | set(view.drawn) | set(view.picked_up)
            shown |= set(view.played_cards())
            for other in range(6):
                if other != seat:
                    assert not shown & (set(game.hands[other]) - played)
                    assert not shown & set(game.discards[other])
            assert not shown & set(game.stock)


@settings(max_examples=100, deadline=None)
@given(SEEDS, SEEDS)
def test_every_sampled_legal_action_applies_and_round_trips_as_text(seed, rng_seed):
    for game, action in random_games(seed, rng_seed):
        if action is None:
            break
        legal = game.legal_actions()
        assert legal.seat == game.current_player and legal.phase is game.phase
        assert action in legal
        assert parse_action(str(action)) == action
        # The game moves on without error (apply happens in random_games).


def illegal_discards(game: Game) -> list[Discard]:
    """Discards that break the current DiscardSpec in each way that is possible here."""
    spec = game.discard_spec()
    hand = game.hands[game.turn]
    allowed = spec.required | spec.optional
    out = []
    forbidden = [c for c in hand if c not in allowed]
    if forbidden:
        # A card the spec does not allow (a trump, or a protected trump), with the rest legal.
        out.append(Discard({forbidden[0], *sorted(spec.required)[: spec.max_count - 1]}))
    if len(allowed) > spec.max_count:
        out.append(Discard(sorted(spec.required) + sorted(spec.optional)[: spec.max_count + 1]))
    if spec.min_count > 0:
        out.append(Discard(sorted(allowed)[: spec.min_count - 1]))
    if spec.required:
        # Leaving out a required card (dealer with more than six trumps).
        rest = sorted(spec.optional)[: spec.max_count - len(spec.required) + 1]
        out.append(Discard(sorted(spec.required)[1:] + rest))
    return out


@settings(max_examples=100, deadline=None)
@given(SEEDS, SEEDS)
def test_a_discard_that_breaks_the_discard_spec_is_refused(seed, rng_seed):
    checked = 0
    for game, action in random_games(seed, rng_seed):
        if game.phase not in (Phase.DRAW, Phase.DEALER_DISCARD):
            continue
        spec = game.discard_spec()
        assert spec.problem(action.cards) is None
        if game.phase is Phase.DEALER_DISCARD:
            trumps = [c for c in game.hands[game.turn] if is_trump(c, game.trump)]
            assert 8 <= len(game.hands[game.turn]) <= 23
            assert spec.min_count == spec.max_count == len(game.hands[game.turn]) - 6
            kept = [c for c in trumps if c not in action.cards]
            assert len(kept) == min(6, len(trumps))
        for bad in illegal_discards(game):
            assert spec.problem(bad.cards) is not None, bad
            before = state(game)
            try:
                game.apply(bad)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{bad} was accepted")
            assert state(game) == before
            checked += 1
    assert checked >= 1  # every played hand ends with a dealer who must discard


@settings(max_examples=100, deadline=None)
@given(SEEDS, SEEDS)
def test_every_card_held_but_not_legal_is_refused_in_play(seed, rng_seed):
    for game, _ in random_games(seed, rng_seed):
        if game.phase is not Phase.PLAY:
            continue
        legal = {a.card for a in game.legal_actions().choices}
        hand = game.hands[game.turn]
        assert legal <= set(hand) and legal
        if game.trick:
            led_trump = is_trump(game.trick[0][1], game.trump)
            led = None if led_trump else game.trick[0][1].suit

            def follows(c, led_trump=led_trump, led=led, trump=game.trump):
                if led_trump:
                    return is_trump(c, trump)
                return not is_trump(c, trump) and c.suit == led

            assert legal == ({c for c in hand if follows(c)} or set(hand))
        for card in set(hand) - legal:
            before = state(game)
            try:
                game.apply(Play(card))
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"play {card} was accepted")
            assert state(game) == before


@settings(max_examples=50, deadline=None)
@given(SEEDS, SEEDS)
def test_random_games_end_with_a_winner_and_consistent_places(seed, rng_seed):
    result = play_out(seed, rng_seed, Rules(max_hands=8)).result()
    assert result.hands >= 8 or max(result.scores) >= 21
    scores = result.scores
    assert result.places[result.winner] == 1
    assert scores[result.winner] == max(scores)
    others = sorted((t for t in range(3) if t != result.winner), key=lambda t: -scores[t])
    assert result.places[others[0]] == 2
    assert result.places[others[1]] == (2 if scores[others[1]] == scores[others[0]] else 3)


def cards_in(value) -> set[Card]:
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list | frozenset):
        return set().union(*map(cards_in, value)) if value else set()
    if hasattr(value, "__dataclass_fields__"):
        return cards_in(tuple(getattr(value, f) for f in value.__dataclass_fields__))
    return set()


@settings(max_examples=100, deadline=None)
@given(SEEDS, SEEDS)
def test_events_as_a_seat_sees_them_hold_only_cards_that_seat_may_know(seed, rng_seed):
    game = play_out(seed, rng_seed)
    for seat in range(6):
        known: set[Card] = set()
        for event in game.events:
            kind = type(event)
            if kind is HandDealt:
                known = set(event.hands[seat])
            elif kind in (Exchanged, DealerExchanged) and event.seat == seat:
                known |= cards_in(event)
            elif kind is CardPlayed:
                known.add(event.card)
            seen = visible_to(event, seat)
            if seen is not None:
                assert cards_in(seen) <= known, (seat, event)


@settings(max_examples=50, deadline=None)
@given(SEEDS, SEEDS)
def test_only_the_hiding_event_types_are_seen_differently_by_some_seat(seed, rng_seed):
    game = play_out(seed, rng_seed)
    for event in game.events:
        changed = any(visible_to(event, seat) is not event for seat in range(6))
        if type(event) not in HIDING_EVENTS:
            assert not changed, event
        elif type(event) is HandDealt:
            assert changed, event  # nobody sees the stock
