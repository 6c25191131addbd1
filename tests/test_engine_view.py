"""Seat views, event visibility, determinization and copies: what a seat may know."""

import random

import pytest
from conftest import snapshot

from arena.engine import (
    PASS,
    Bid,
    Card,
    DeterminizeError,
    Discard,
    Game,
    NameTrump,
    Phase,
    Suit,
    determinize,
    sample_determinization,
    visible_to,
)
from arena.engine.events import (
    BidMade,
    CardPlayed,
    DealerExchanged,
    Exchanged,
    HandDealt,
    HandScored,
    TrickWon,
    TrumpNamed,
)

SEED = 21


def cards_in(value) -> set[Card]:
    """Every card anywhere inside a view, an event or a nested tuple."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list | frozenset):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    if hasattr(value, "__slots__") and hasattr(value, "__dataclass_fields__"):
        return cards_in(tuple(getattr(value, f) for f in value.__dataclass_fields__))
    return set()


def advance(game: Game, rng: random.Random, until) -> Game:
    while not until(game):
        game.apply(game.legal_actions().sample(rng))
    return game


def game_in(phase: Phase, seed: int = SEED, rng_seed: int = 1, tricks: int = 0) -> Game:
    """A game from ``seed`` moved on by random legal actions to ``phase`` (in play: after
    ``tricks`` tricks and one more card)."""
    game = Game.new(seed)
    rng = random.Random(rng_seed)
    advance(game, rng, lambda g: g.phase is phase)
    if phase is Phase.PLAY:
        advance(game, rng, lambda g: len(g.tricks) == tricks and len(g.trick) == 1)
    return game


def played_cards(game: Game) -> set[Card]:
    return {c for _l, trick, _w in game.tricks for _s, c in trick} | {c for _s, c in game.trick}


def known_to(game: Game, seat: int) -> set[Card]:
    known = set(game.hands[seat]) | set(game.discards[seat]) | set(game.draws[seat])
    if seat == game.dealer:
        known |= set(game.pickup)
    return known | played_cards(game)


def test_a_view_holds_the_own_hand_and_everything_public():
    game = game_in(Phase.PLAY, tricks=2)
    for seat in range(6):
        view = game.view(seat)
        assert view.seat == seat and view.team == seat % 3 and view.partner == (seat + 3) % 6
        assert view.hand == tuple(game.hands[seat])
        assert view.discarded == tuple(game.discards[seat])
        assert view.drawn == tuple(game.draws[seat])
        assert view.bids == tuple(game.bids) and len(view.bids) >= 1
        assert (view.bid, view.bidder, view.trump) == (game.bid, game.bidder, game.trump)
        assert view.exchanged == tuple(game.exchanged)
        assert None not in view.exchanged
        assert view.hand_sizes == tuple(len(h) for h in game.hands)
        assert view.stock_size == 0
        assert view.tricks == tuple(game.tricks) and len(view.tricks) == 2
        assert view.trick == tuple(game.trick) and len(view.trick) == 1
        assert view.scores == tuple(game.scores)
        assert (view.dealer, view.turn, view.phase) == (game.dealer, game.turn, Phase.PLAY)


@pytest.mark.parametrize("phase", [Phase.BIDDING, Phase.DRAW, Phase.DEALER_DISCARD, Phase.PLAY])
def test_a_view_never_holds_another_seats_unplayed_cards_discards_or_the_stock(phase):
    game = game_in(phase, tricks=3)
    for seat in range(6):
        seen = cards_in(game.view(seat))
        assert seen == known_to(game, seat)
        assert not seen & set(game.stock)
        for other in range(6):
            if other != seat:
                assert not seen & set(game.hands[other])
                assert not seen & set(game.discards[other])


def test_a_non_dealer_sees_its_own_exchange_and_everyones_exchange_count():
    game = game_in(Phase.DEALER_DISCARD)
    seat = (game.dealer + 1) % 6
    view = game.view(seat)
    assert view.discarded == tuple(game.discards[seat])
    assert view.drawn == tuple(game.draws[seat])
    assert len(view.drawn) == len(view.discarded) == game.exchanged[seat]
    assert view.exchanged[game.dealer] is None
    assert all(view.exchanged[s] == len(game.discards[s]) for s in range(6) if s != game.dealer)


def test_only_the_dealers_view_holds_the_picked_up_stock():
    game = game_in(Phase.DEALER_DISCARD)
    assert len(game.pickup) >= 2
    for seat in range(6):
        want = tuple(game.pickup) if seat == game.dealer else ()
        assert game.view(seat).picked_up == want
    assert set(game.pickup) <= set(game.view(game.dealer).hand)


def test_visible_to_hides_other_hands_and_the_stock_of_a_deal():
    game = Game.new(SEED)
    dealt = game.events[0]
    assert type(dealt) is HandDealt
    for seat in range(6):
        seen = visible_to(dealt, seat)
        assert seen.hands[seat] == tuple(game.hands[seat])
        assert all(seen.hands[s] == () for s in range(6) if s != seat)
        assert seen.stock == ()
        assert (seen.hand, seen.dealer) == (0, game.dealer)


def test_visible_to_shows_only_the_count_of_another_seats_exchange():
    game = game_in(Phase.PLAY)
    exchanges = [e for e in game.events if type(e) in (Exchanged, DealerExchanged)]
    assert len(exchanges) == 6
    for event in exchanges:
        for seat in range(6):
            seen = visible_to(event, seat)
            if seat == event.seat:
                assert seen == event
            else:
                assert seen == type(event)(event.seat, event.count, None, None)


def test_visible_to_shows_public_events_unchanged():
    game = game_in(Phase.PLAY, tricks=1)
    public = (BidMade, TrumpNamed, CardPlayed, TrickWon)
    events = [e for e in game.events if type(e) in public]
    assert {type(e) for e in events} == set(public)
    for event in events:
        assert all(visible_to(event, seat) == event for seat in range(6))


def test_visible_to_shows_the_hand_score_to_everyone():
    game = Game.new(SEED)
    rng = random.Random(3)
    advance(game, rng, lambda g: any(type(e) is HandScored for e in g.events))
    scored = next(e for e in game.events if type(e) is HandScored)
    assert all(visible_to(scored, seat) == scored for seat in range(6))


def refusal(view, hands, stock) -> str:
    with pytest.raises(DeterminizeError) as info:
        determinize(view, hands, stock)
    return str(info.value)


def hidden(game: Game, seat: int):
    return {s: list(game.hands[s]) for s in range(6) if s != seat}, list(game.stock)


def same_for(a: Game, b: Game, seat: int) -> None:
    assert a.view(seat) == b.view(seat)
    assert a.hands == b.hands and a.scores == b.scores and a.tricks == b.tricks
    assert a.legal_actions() == b.legal_actions()


@pytest.mark.parametrize(
    ("phase", "tricks"),
    [
        (Phase.BIDDING, 0),
        (Phase.TRUMP, 0),
        (Phase.DRAW, 0),
        (Phase.DEALER_DISCARD, 0),
        (Phase.PLAY, 0),
        (Phase.PLAY, 4),
    ],
)
@pytest.mark.parametrize("seat_offset", [0, 1, 3])
def test_determinize_with_the_true_hidden_cards_continues_exactly_like_the_real_game(
    phase, tricks, seat_offset
):
    game = game_in(phase, tricks=tricks, rng_seed=seat_offset + 10)
    seat = (game.current_player + seat_offset) % 6
    hands, stock = hidden(game, seat)
    copy = determinize(game.view(seat), hands, stock, seed=game.seed)
    same_for(game, copy, seat)
    rng = random.Random(99)
    hand_no = game.hand_no
    # The rest of this hand and the whole next deal.
    while game.hand_no <= hand_no + 1 and not game.is_over:
        action = game.legal_actions().sample(rng)
        game.apply(action)
        copy.apply(action)
        same_for(game, copy, seat)


def test_determinize_refuses_a_hand_of_the_wrong_size():
    game = game_in(Phase.DRAW)
    seat = game.current_player
    hands, stock = hidden(game, seat)
    other = (seat + 1) % 6
    hands[other] = hands[other][:-1]
    assert refusal(game.view(seat), hands, stock) == f"seat {other} needs 6 cards, got 5"
    del hands[other]
    assert refusal(game.view(seat), hands, stock) == f"seat {other} needs 6 cards, got 0"


def test_determinize_refuses_a_stock_of_the_wrong_size():
    game = game_in(Phase.DRAW)
    seat = game.current_player
    hands, stock = hidden(game, seat)
    assert refusal(game.view(seat), hands, stock[1:]) == "the stock needs 17 cards, got 16"


def test_determinize_refuses_a_card_given_twice():
    game = game_in(Phase.DRAW)
    seat = game.current_player
    hands, stock = hidden(game, seat)
    a, b = (seat + 1) % 6, (seat + 2) % 6
    twice = hands[a][0]
    hands[b][0] = twice
    assert refusal(game.view(seat), hands, stock) == f"seat {b}: {twice} is given twice"
    hands, stock = hidden(game, seat)
    stock[0] = hands[a][0]
    assert refusal(game.view(seat), hands, stock) == f"the stock: {stock[0]} is given twice"


def test_determinize_refuses_a_card_the_seat_has_seen():
    game = game_in(Phase.PLAY, tricks=1)
    seat = game.current_player
    hands, stock = hidden(game, seat)
    other = (seat + 1) % 6
    own = game.hands[seat][0]
    hands[other][0] = own
    assert refusal(game.view(seat), hands, stock) == f"seat {other}: {own} is not an unseen card"
    hands, stock = hidden(game, seat)
    played = game.tricks[0][1][0][1]
    hands[other][0] = played
    assert refusal(game.view(seat), hands, stock) == f"seat {other}: {played} is not an unseen card"


def test_a_sampled_determinization_fits_the_view():
    game = game_in(Phase.PLAY, tricks=2)
    seat = game.current_player
    view = game.view(seat)
    sample = sample_determinization(view, random.Random(4))
    assert sample.view(seat) == view
    assert [len(h) for h in sample.hands] == [len(h) for h in game.hands]


def test_a_copy_is_independent_of_the_original():
    game = game_in(Phase.PLAY, tricks=1)
    before = snapshot(game)
    copy = game.copy()
    rng = random.Random(5)
    for _ in range(20):
        copy.apply(copy.legal_actions().sample(rng))
    assert snapshot(game) == before
    after_copy = snapshot(copy)
    for _ in range(20):
        game.apply(game.legal_actions().sample(rng))
    assert snapshot(copy) == after_copy
    assert copy.events is None
    assert game.copy(log=True).events == game.events
    assert game.copy(log=True).events is not game.events


def test_a_copy_plays_on_exactly_like_the_original():
    game = game_in(Phase.DRAW)
    copy = game.copy(log=True)
    rng_a, rng_b = random.Random(8), random.Random(8)
    for _ in range(60):
        game.apply(game.legal_actions().sample(rng_a))
        copy.apply(copy.legal_actions().sample(rng_b))
    assert snapshot(copy) == snapshot(game)


def test_a_view_shows_every_bid_the_trump_and_the_exchange_counts():
    game = Game.new(SEED)
    d = game.dealer
    for action in [PASS, Bid(3), PASS, Bid(5), PASS, PASS]:
        game.apply(action)
    game.apply(NameTrump(Suit.CLUBS))
    view = game.view(d)
    assert view.bids == (
        ((d + 1) % 6, None),
        ((d + 2) % 6, 3),
        ((d + 3) % 6, None),
        ((d + 4) % 6, 5),
        ((d + 5) % 6, None),
        (d, None),
    )
    assert (view.bid, view.bidder, view.trump, view.phase) == (
        5,
        (d + 4) % 6,
        Suit.CLUBS,
        Phase.DRAW,
    )
    game.apply(Discard())
    want = tuple(0 if s == (d + 1) % 6 else None for s in range(6))
    assert all(game.view(s).exchanged == want for s in range(6))
