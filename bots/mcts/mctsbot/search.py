"""Determinized (perfect-information) Monte Carlo search over one decision's candidate actions.

Each iteration samples one full game consistent with the seat's view, then plays every candidate
action in a copy of it and rolls the hand out to its end with the heuristic policy. All
candidates see the same sampled deals, so their comparison is paired and low in noise. A
candidate's value is the mean, over the sampled games, of the hand's score change for the own
team minus that of the best opponent, with a bonus or penalty if the game ends with the hand.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from arena.engine import Action, Game, View

from .knowledge import Knowledge
from .policy import policy_action

__all__ = ["GAME_END_BONUS", "SearchResult", "evaluate", "rollout", "search"]

GAME_END_BONUS = 8.0
"""Value of winning (or cost of losing) the game with this hand, in hand points."""


@dataclass(frozen=True)
class SearchResult:
    action: Action
    """The best candidate (the first one if no iteration finished)."""
    means: tuple[float, ...]
    """Mean value of each candidate (0.0 where it was never simulated)."""
    iterations: int
    """Sampled games on which every candidate was simulated."""
    simulations: int
    """Rollouts played (including those of an unfinished last iteration)."""
    seconds: float


def rollout(game: Game) -> None:
    """Play ``game`` on with the heuristic policy until its current hand is over."""
    hand_no = game.hand_no
    apply = game.apply
    while game.hand_no == hand_no and not game.is_over:
        apply(policy_action(game))


def evaluate(game: Game, before: tuple[int, ...], team: int) -> float:
    """The own team's score change minus the best opponent's, plus the game-end bonus."""
    scores = game.scores
    own = scores[team] - before[team]
    opp = max(scores[t] - before[t] for t in range(3) if t != team)
    value = float(own - opp)
    if game.is_over:
        value += GAME_END_BONUS if game.winner == team else -GAME_END_BONUS
    return value


def search(
    view: View,
    candidates: list[Action],
    deadline: float,
    rng: random.Random,
    *,
    max_iterations: int | None = None,
) -> SearchResult:
    """Evaluate ``candidates`` (legal actions for ``view.seat``, to move) until ``deadline``
    (a ``time.monotonic()`` value) or ``max_iterations``, and return the best one."""
    start = time.monotonic()
    knowledge = Knowledge(view)
    team = view.seat % 3
    before = view.scores
    k = len(candidates)
    totals = [0.0] * k
    iterations = 0
    simulations = 0
    clock = time.monotonic
    values = [0.0] * k
    while clock() < deadline and (max_iterations is None or iterations < max_iterations):
        base = knowledge.sample(rng)
        done = True
        for i, action in enumerate(candidates):
            game = base if i == k - 1 else base.copy()
            game.apply(action)
            rollout(game)
            values[i] = evaluate(game, before, team)
            simulations += 1
            if i < k - 1 and clock() >= deadline:
                done = False
                break
        if not done:
            break
        iterations += 1
        for i in range(k):
            totals[i] += values[i]
    if iterations:
        means = tuple(t / iterations for t in totals)
        best = max(range(k), key=means.__getitem__)
    else:
        means = tuple(0.0 for _ in range(k))
        best = 0
    return SearchResult(candidates[best], means, iterations, simulations, clock() - start)
