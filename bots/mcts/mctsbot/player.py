"""The mcts bot: candidate actions for each decision, searched within the time it is given.

Candidates: bidding every legal bid (and the pass), trump naming every suit, a non-dealer's
draw the lay-aways of its 0-3 weakest non-trumps (and near variants), the dealer's discard the
weakest cards and near variants, play every legal card; the search picks the one with the best
mean outcome over sampled deals. By default only trump naming and play are searched (see
:data:`SEARCHED`); the other phases, and any decision with no time left, use the heuristic.
"""

from __future__ import annotations

import logging
import os
import time

from arena.engine import (
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
    View,
)
from arena.sdk import Bot

from .knowledge import SampleError
from .policy import EFF, TRUMP, bid_amount, choose_discard, choose_play, choose_trump, keep_value
from .search import search

__all__ = [
    "DEFAULT_CPU_SECONDS",
    "DEFAULT_SHARE",
    "MAX_SHARE",
    "SEARCHED",
    "MctsBot",
    "discard_candidates",
]

log = logging.getLogger(__name__)

DEFAULT_SHARE = 0.5
"""Share of the per-decision time limit the bot uses when not told otherwise."""
MARGIN = 0.02
"""Seconds kept free for answering after the search stops."""
MIN_SEARCH = 0.003
"""Below this much time the bot answers with the heuristic at once."""
MAX_SHARE = 0.9
SEARCHED = frozenset({Phase.TRUMP, Phase.PLAY})
"""Phases decided by search by default; the others by the heuristic policy. Measured in-process
against two greedy teams (60 games each, 0.02 s of search a decision): searching every phase
finished first in 17 games, bids by the heuristic in 25, bids and discards by the heuristic in
30 (and 28 on other deals), only play searched in 31. The rollouts undervalue bidding and
laying away, so the search is kept where it wins."""
DEFAULT_CPU_SECONDS = 400.0
"""CPU seconds the bot plans to spend on a whole match: the arena kills a bot process that uses
more than its ``cpu_seconds`` limit (600 by default), so at slow time controls and long
matches the bot thinks less per decision rather than die."""
DECISIONS_PER_GAME = 65
"""Decisions with a choice that one seat makes in an average game (measured: 63, up to ~120);
with only trump and play searched, fewer are searched, so the pacing errs on the safe side."""


def _share_from_env() -> float:
    text = os.environ.get("MCTS_SHARE")
    if not text:
        return DEFAULT_SHARE
    try:
        return float(text)
    except ValueError:
        log.warning("MCTS_SHARE=%r is not a number; using %s", text, DEFAULT_SHARE)
        return DEFAULT_SHARE


class MctsBot(Bot):
    name = "mcts"
    version = "1.0"

    def __init__(
        self,
        seed: int | None = None,
        share: float | None = None,
        cpu_seconds: float = DEFAULT_CPU_SECONDS,
        searched: frozenset[Phase] = SEARCHED,
    ) -> None:
        super().__init__(seed)
        share = _share_from_env() if share is None else share
        if not 0.0 < share <= MAX_SHARE:
            raise ValueError(f"share {share!r} is out of range: give a number in (0, {MAX_SHARE}]")
        self.share = share
        self.cpu_seconds = cpu_seconds
        self.searched = frozenset(searched)
        """The phases decided by search (the others by the heuristic policy)."""
        self._cpu_start = time.process_time()
        self._games_done = 0
        self.decisions = 0
        self.simulations = 0
        self.search_seconds = 0.0

    # -- decisions
    def bid(self, view: View, legal: LegalActions) -> Bid:
        return self._decide(view, legal, list(legal.choices), self._heuristic_bid)

    def name_trump(self, view: View, legal: LegalActions) -> NameTrump:
        return self._decide(view, legal, list(TRUMPS), lambda v, lg: TRUMPS[choose_trump(v.hand)])

    def discard(self, view: View, legal: LegalActions) -> Discard:
        cands = [Discard(c) for c in discard_candidates(view, legal.discard)]
        return self._decide(view, legal, cands, self._heuristic_discard)

    def play(self, view: View, legal: LegalActions) -> Play:
        return self._decide(view, legal, list(legal.choices), self._heuristic_play)

    def on_match_start(self, info) -> None:
        self._cpu_start = time.process_time()
        self._games_done = 0

    def on_game_end(self, game: int, result: dict) -> None:
        self._games_done += 1
        if self.decisions:
            log.info(
                "game %s: %d decisions, %d simulations in %.2fs (%.0f sims/decision)",
                game,
                self.decisions,
                self.simulations,
                self.search_seconds,
                self.simulations / self.decisions,
            )
        self.decisions = self.simulations = 0
        self.search_seconds = 0.0

    # -- machinery
    def _decide(
        self, view: View, legal: LegalActions, candidates: list[Action], heuristic
    ) -> Action:
        if len(candidates) == 1:
            return candidates[0]
        if legal.phase not in self.searched:
            return heuristic(view, legal)
        # Keep a little time for answering: MARGIN, or a quarter of a very short budget.
        budget = self.time_budget(self.share)
        budget -= min(MARGIN, 0.25 * self.share * (self.info.move_seconds if self.info else 0.0))
        budget = min(budget, self._cpu_allowance())
        if budget < MIN_SEARCH:
            log.info(
                "hand %d %s: no time (%.3fs), heuristic", view.hand_no, legal.phase.value, budget
            )
            return heuristic(view, legal)
        try:
            result = search(view, candidates, time.monotonic() + budget, self.rng)
        except SampleError as e:  # a view the sampler cannot explain: play on by the heuristic
            log.warning("hand %d %s: %s; heuristic", view.hand_no, legal.phase.value, e)
            return heuristic(view, legal)
        self.decisions += 1
        self.simulations += result.simulations
        self.search_seconds += result.seconds
        action = heuristic(view, legal) if result.iterations == 0 else result.action
        log.info(
            "hand %d %s: sims=%d deals=%d in %.3fs -> %s (%s)",
            view.hand_no,
            legal.phase.value,
            result.simulations,
            result.iterations,
            result.seconds,
            action,
            " ".join(f"{a}={m:+.2f}" for a, m in zip(candidates, result.means, strict=False)),
        )
        return action

    def _cpu_allowance(self) -> float:
        """Seconds this decision may use so that the match stays within ``cpu_seconds``."""
        games = self.info.games if self.info is not None else 1
        used = time.process_time() - self._cpu_start
        ahead = DECISIONS_PER_GAME * max(1, games - self._games_done) - self.decisions
        return max(0.0, self.cpu_seconds - used) / max(20, ahead)

    @staticmethod
    def _heuristic_bid(view: View, legal: LegalActions) -> Bid:
        n = bid_amount(
            view.hand, view.bid, view.bidder is not None and view.bidder % 3 == view.team
        )
        action = PASS if n is None else BIDS[n]
        return action if action in legal else PASS

    @staticmethod
    def _heuristic_discard(view: View, legal: LegalActions) -> Discard:
        spec = legal.discard
        return Discard(
            choose_discard(view.hand, spec, view.trump, legal.phase is Phase.DEALER_DISCARD)
        )

    @staticmethod
    def _heuristic_play(view: View, legal: LegalActions) -> Play:
        # Any unseen card may be in any other hand (a conservative view of safety).
        card = choose_play(
            list(view.hand), view.trick, view.trump, view.seat, view.bidder, view.unseen()
        )
        action = PLAYS[card]
        return action if action in legal else legal.choices[0]


def discard_candidates(view: View, spec: DiscardSpec, limit: int = 10) -> list[frozenset]:
    """A few sensible legal discards: the heuristic's, the weakest 0..n cards, near variants."""
    trump = view.trump
    dealer = view.phase is Phase.DEALER_DISCARD
    required = spec.required
    ordered = sorted(spec.optional, key=lambda c: keep_value(c, trump))
    out: list[frozenset] = []

    def add(cards) -> None:
        s = required.union(cards)
        if s not in out and spec.problem(s) is None:
            out.append(s)

    add(choose_discard(view.hand, spec, trump, dealer))
    lo = max(0, spec.min_count - len(required))
    hi = min(len(ordered), spec.max_count - len(required))
    for k in range(hi, lo - 1, -1):
        add(ordered[:k])
    k = hi
    # Near variants of laying away the k weakest: swap one of the last laid away for one of
    # the next few kept.
    for i in range(max(0, k - 3), k):
        for j in range(k, min(len(ordered), k + 3)):
            add([c for n, c in enumerate(ordered[:k]) if n != i] + [ordered[j]])
    # Making a void: lay away whole short plain suits first.
    eff = EFF[trump]
    counts: dict[int, int] = {}
    for c in view.hand:
        if eff[c] != TRUMP:
            counts[eff[c]] = counts.get(eff[c], 0) + 1
    short = sorted(
        ordered, key=lambda c: (eff[c] == TRUMP, counts.get(eff[c], 0), keep_value(c, trump))
    )
    add(short[:k])
    return out[:limit]
