"""The mcts bot (``bots/mcts``): its sampler of hidden cards keeps every constraint the seat
knows, it answers legally in every phase and within its time, and it plays through the protocol
as a real process."""

from __future__ import annotations

import dataclasses
import logging
import random
import sys
import time

import pytest
import yaml
from test_sdk_driver import ROOT, play_game, python_bot

from arena.engine import (
    DECK,
    JOKER,
    Game,
    Phase,
    Rules,
    Suit,
    is_trump,
    left_bauer,
    right_bauer,
    trick_power,
)
from arena.protocol import bye_message, hello_message
from arena.sdk import MatchInfo

MCTS = ROOT / "bots" / "mcts"
sys.path.insert(0, str(MCTS))

from mctsbot.knowledge import RELAXED, STRICT, Knowledge, SampleError, voids_of  # noqa: E402
from mctsbot.player import SEARCHED, MctsBot, discard_candidates  # noqa: E402
from mctsbot.policy import EFF, POW, policy_action  # noqa: E402


def _situations(games: int, per_game: int, seed: int = 7):
    """(true game, seat) pairs at random moments of games played half by the heuristic and
    half at random, in every phase, for a random observing seat."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        game = Game.new(seed * 1000 + g, Rules(target=21, max_hands=8))
        moments = 0
        while not game.is_over and moments < per_game:
            if rng.random() < 0.15:
                out.append((game.copy(), rng.randrange(6)))
                moments += 1
            legal = game.legal_actions()
            game.apply(policy_action(game) if rng.random() < 0.5 else legal.sample(rng))
    return out


def _true_voids(game: Game) -> list[set]:
    """Independently of the bot: (seat, led card) pairs where a seat did not follow."""
    trump = game.trump
    out = [set() for _ in range(6)]
    tricks = [t for _l, t, _w in game.tricks] + ([tuple(game.trick)] if game.trick else [])
    for trick in tricks:
        led = trick[0][1]
        for seat, card in trick[1:]:
            if is_trump(led, trump):
                if not is_trump(card, trump):
                    out[seat].add("trump")
            elif is_trump(card, trump) or card.suit != led.suit:
                out[seat].add(led.suit)
    return out


def _holds(cards, void, trump) -> list:
    if trump is None:
        return []
    return [
        c
        for c in cards
        if ("trump" in void and is_trump(c, trump)) or (not is_trump(c, trump) and c.suit in void)
    ]


SITUATIONS = _situations(games=40, per_game=12)


def test_the_situations_cover_every_phase_and_some_voids():
    phases = {game.phase for game, _seat in SITUATIONS}
    assert phases >= {Phase.BIDDING, Phase.TRUMP, Phase.DRAW, Phase.DEALER_DISCARD, Phase.PLAY}
    assert sum(bool(v) for game, _s in SITUATIONS for v in _true_voids(game)) > 50


def test_the_policy_tables_agree_with_the_engine():
    for trump in Suit:
        for card in DECK:
            want = 4 if is_trump(card, trump) else card.suit
            assert EFF[trump][card] == want
            assert POW[trump][card] == trick_power(card, trump)


def test_the_voids_read_from_a_view_are_the_true_voids():
    for game, seat in SITUATIONS:
        if game.trump is None:
            continue
        got = voids_of(game.view(seat))
        for s, void in enumerate(_true_voids(game)):
            want = {4 if v == "trump" else int(v) for v in void}
            assert got[s] == want


def test_the_true_deal_always_meets_the_constraints():
    """The constraints are sound: they never rule out what really happened."""
    relaxed = 0
    for game, seat in SITUATIONS:
        k = Knowledge(game.view(seat))
        strict_ok = all(not is_trump(c, game.trump) for c in game.discards[game.dealer])
        if strict_ok:
            assert k.mode == STRICT
        mode = STRICT if strict_ok else RELAXED
        relaxed += mode == RELAXED
        for s in range(6):
            if s == seat:
                continue
            for c in game.hands[s]:
                assert k.allowed(c, s, mode), (s, c)
            for c in game.discards[s]:
                assert k.allowed(c, 7 + s, mode), (s, c)
        for c in game.stock:
            assert k.allowed(c, 6, mode)
    assert relaxed > 0


def test_sampled_deals_keep_sizes_own_cards_voids_and_the_discard_rules():
    rng = random.Random(3)
    checked = 0
    relaxed_trump_discards = 0
    for game, seat in SITUATIONS:
        view = game.view(seat)
        k = Knowledge(view)
        trump = game.trump
        voids = _true_voids(game)
        for _ in range(4):
            a = k.assign(rng)
            sampled = k.sample(rng)
            # The sampled game looks exactly like the true one from this seat.
            assert sampled.view(seat) == view
            assert sampled.hands[seat] == game.hands[seat]
            # Every unseen card is placed exactly once; each place has its true size.
            placed = [c for h in a.hands.values() for c in h] + a.stock
            placed += [c for d in a.discards.values() for c in d]
            assert sorted(placed) == sorted(view.unseen())
            assert len(a.stock) == len(game.stock)
            for s in range(6):
                if s == seat:
                    continue
                assert len(a.hands[s]) == len(game.hands[s])
                assert len(a.discards.get(s, ())) == len(game.discards[s])
                assert _holds(a.hands[s], voids[s], trump) == []
                assert _holds(sampled.hands[s], voids[s], trump) == []
                laid = a.discards.get(s, [])
                if trump is None:
                    assert laid == []
                elif s != game.dealer:
                    assert [c for c in laid if is_trump(c, trump)] == []
                else:
                    protected = {
                        DECK[trump * 13 + 12],
                        DECK[trump * 13],
                        right_bauer(trump),
                        left_bauer(trump),
                        JOKER,
                    }
                    assert protected.isdisjoint(laid)
                    if any(is_trump(c, trump) for c in laid):
                        relaxed_trump_discards += 1
                        assert all(is_trump(c, trump) for c in a.hands[s])
            checked += 1
    assert checked == 4 * len(SITUATIONS)
    assert relaxed_trump_discards > 0


def test_sampling_never_fails_even_where_the_quick_placement_does():
    rng = random.Random(0)
    hard = 0
    for n, (game, seat) in enumerate(_situations(games=150, per_game=20, seed=99)):
        if game.phase is not Phase.PLAY:
            continue
        k = Knowledge(game.view(seat))
        fails = any(k._greedy(rng) is None for _ in range(20))
        hard += fails
        if not fails and n % 10:
            continue
        for _ in range(3):
            placed = k._exact(rng)
            assert sorted(c for p in placed for c in p) == sorted(k.unseen)
            assert [len(p) for p in placed] == k.caps
            for place, cards in enumerate(placed):
                assert all(k.allowed(c, place, k.mode) for c in cards)
    assert hard > 0


def test_a_sampled_deal_plays_on_to_the_end_of_the_hand():
    rng = random.Random(5)
    for game, seat in SITUATIONS[::3]:
        sampled = Knowledge(game.view(seat)).sample(rng)
        hand_no = sampled.hand_no
        while sampled.hand_no == hand_no and not sampled.is_over:
            sampled.apply(policy_action(sampled))
        assert sampled.hand_no == hand_no + 1 or sampled.is_over


def test_discard_candidates_are_all_legal_and_distinct():
    for game, _seat in SITUATIONS:
        if game.phase not in (Phase.DRAW, Phase.DEALER_DISCARD):
            continue
        view = game.view(game.turn)
        spec = game.legal_actions().discard
        cands = discard_candidates(view, spec)
        assert len(set(cands)) == len(cands) >= 1
        for c in cands:
            assert spec.problem(c) is None


ALL_PHASES = frozenset({Phase.BIDDING, Phase.TRUMP, Phase.DRAW, Phase.DEALER_DISCARD, Phase.PLAY})


def _bot(seat: int, move: float, share: float = 0.5, searched=ALL_PHASES) -> MctsBot:
    bot = MctsBot(seed=seat, share=share, searched=searched)
    bot.info = MatchInfo(seat, Rules(), move, 10.0)
    return bot


def test_the_bot_answers_legally_in_every_phase_searched_or_not():
    bot = _bot(0, move=0.01)
    by_default = _bot(0, move=0.01, searched=SEARCHED)
    phases = set()
    for game, _seat in SITUATIONS:
        seat = game.turn
        bot.info.seat = seat
        bot.request_received = time.monotonic()
        legal = game.legal_actions()
        assert bot.act(game.view(seat), legal) in legal
        by_default.info.seat = seat
        by_default.request_received = time.monotonic()
        assert by_default.act(game.view(seat), legal) in legal
        phases.add(legal.phase)
    assert phases == ALL_PHASES
    assert bot.simulations > 1000


def test_the_bot_plays_whole_games_within_its_share_of_the_move_time():
    move, share = 0.1, 0.5
    bots = {s: _bot(s, move, share) for s in (0, 3, 1, 4)}
    rng = random.Random(1)
    slowest = 0.0
    decisions = 0
    for seed in (11, 12):
        game = Game.new(seed, Rules(target=21, max_hands=3))
        while not game.is_over:
            seat = game.current_player
            legal = game.legal_actions()
            bot = bots.get(seat)
            if bot is None:
                game.apply(legal.sample(rng))
                continue
            bot.request_received = time.monotonic()
            action = bot.act(game.view(seat), legal)
            slowest = max(slowest, time.monotonic() - bot.request_received)
            decisions += 1
            assert action in legal
            game.apply(action)
    assert decisions > 40
    # Generous: the machine is shared, but the limit itself is never reached.
    assert slowest < move


def test_with_no_time_left_the_bot_answers_at_once_with_a_legal_action():
    bot = _bot(0, move=0.001)
    for game, _seat in SITUATIONS[:80]:
        seat = game.turn
        bot.info.seat = seat
        bot.request_received = time.monotonic()
        action = bot.act(game.view(seat), game.legal_actions())
        assert time.monotonic() - bot.request_received < 0.05
        assert action in game.legal_actions()
    assert bot.simulations == 0


def test_a_spent_cpu_allowance_for_the_match_leaves_only_the_heuristic():
    bot = MctsBot(seed=0, cpu_seconds=0.0)
    bot.info = MatchInfo(0, Rules(), 1.0, 10.0, games=6)
    for game, _seat in SITUATIONS[:40]:
        bot.info.seat = game.turn
        bot.request_received = time.monotonic()
        legal = game.legal_actions()
        assert bot.act(game.view(game.turn), legal) in legal
        assert time.monotonic() - bot.request_received < 0.05
    assert bot.simulations == 0


def test_a_view_the_sampler_cannot_explain_is_answered_by_the_heuristic(caplog):
    game = next(
        g for g, _s in SITUATIONS if g.phase is Phase.PLAY and len(g.legal_actions().choices) > 1
    )
    seat = game.turn
    view = game.view(seat)
    other = (seat + 1) % 6
    sizes = tuple(n + (s == other) for s, n in enumerate(view.hand_sizes))
    bad = dataclasses.replace(view, hand_sizes=sizes)
    with pytest.raises(SampleError, match="does not add up"):
        Knowledge(bad)
    bot = _bot(seat, move=1.0)
    bot.request_received = time.monotonic()
    legal = game.legal_actions()
    with caplog.at_level(logging.WARNING):
        assert bot.act(bad, legal) in legal
    assert bot.simulations == 0
    assert "does not add up" in caplog.text


def test_a_share_outside_its_range_is_refused():
    with pytest.raises(ValueError, match=r"share 1\.5 is out of range"):
        MctsBot(share=1.5)


def test_the_manifest_runs_bot_py_with_half_the_move_time():
    manifest = yaml.safe_load((MCTS / "bot.yaml").read_text())
    assert manifest["name"] == "mcts"
    assert manifest["command"] == ["python3", "bot.py", "--share", "0.5"]
    assert {Phase.TRUMP, Phase.PLAY} == SEARCHED
    assert (MCTS / "bot.py").is_file()


def test_the_bot_plays_a_game_through_the_protocol_and_logs_its_simulations():
    with python_bot(MCTS / "bot.py", "--share", "0.5", "--seed", "1") as pipe:
        pipe.send(hello_message(2, Rules(), {"move": 0.04, "bank": 1.0, "handshake": 5.0}, 1))
        assert pipe.receive()["name"] == "mcts"
        started = time.monotonic()
        log = play_game(pipe, seat=2, seed=9, rules=Rules(target=21, max_hands=3))
        elapsed = time.monotonic() - started
        assert log.game.is_over
        assert elapsed < log.requests * 0.04 + 2.0
        pipe.send(bye_message())
        assert pipe.wait_exit() == 0
        stderr = pipe.stderr()
    lines = [ln for ln in stderr.splitlines() if " sims=" in ln]
    assert lines, stderr
    assert "Traceback" not in stderr
