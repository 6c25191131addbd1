"""Plays a league night: the schedule's unfinished matches on workers, each stored as it ends.

Matches go to workers through the standard :class:`concurrent.futures.Executor` interface (a
local :class:`~concurrent.futures.ProcessPoolExecutor` by default, one process per core); each
match is one :func:`arena.referee.play_match` call in a worker, with its own six bot processes.
Matches are handed out as workers free up, longest expected first (:class:`LongestFirst`).
The main process alone writes to the store, one transaction per finished match, so a night
killed at any moment loses at most the matches in flight and running it again resumes it.
Ratings are recomputed from every stored game, in schedule order, at the end of every run.

Ctrl-C stops cleanly: pending matches are cancelled, workers interrupt the matches they play
(the referee stops its bots on the way out), every finished match is kept.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
)
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import multiprocessing_logging

from arena.process import bot_hash
from arena.ratings import rate
from arena.referee import play_match
from arena.referee.spec import MatchResult, MatchSpec
from arena.schedule import ScheduledMatch, build_schedule
from arena.store import Night, Store, StoreError
from arena.tournament import Tournament

__all__ = [
    "LongestFirst",
    "MatchCancelled",
    "MatchFailure",
    "NightReport",
    "Progress",
    "match_spec",
    "play",
    "run_night",
    "store_ratings",
]

log = logging.getLogger(__name__)


class MatchCancelled(Exception):
    """A worker was asked to play a match after the night was interrupted."""


@dataclass(frozen=True)
class MatchFailure:
    match: int
    error: str
    """One line: the exception the match raised."""


@dataclass(frozen=True)
class NightReport:
    """What one run of a night did."""

    night: Night
    """The night as stored after the run."""
    total: int
    """Matches in the schedule."""
    stored: int
    """Matches stored now, this run's and earlier runs'."""
    played: int
    """Matches stored by this run."""
    games: int
    """Games stored by this run."""
    seconds: float
    """Wall time of this run's play."""
    failures: tuple[MatchFailure, ...] = ()
    """Matches that raised instead of reporting a result; they stay pending."""
    interrupted: bool = False
    discarded: bool = False
    """An earlier night of the same name was discarded (``restart``)."""

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


def match_spec(
    tournament: Tournament, match: ScheduledMatch, log_dir: Path | None = None
) -> MatchSpec:
    """What the referee is asked to play for one scheduled match."""
    t = tournament
    a, b, c = (t.entries[i].team() for i in match.entries)
    return MatchSpec(
        teams=(a, b, c),
        games=match.game_specs(),
        rules=t.rules,
        time_control=t.time_control,
        limits=t.limits,
        sandbox=t.sandbox,
        fault_policy=t.fault_policy,
        max_faults=t.max_faults,
        log_dir=None if log_dir is None else log_dir / f"match-{match.index:03d}",
    )


# ---------------------------------------------------------------------- in the worker

_stop_event = None
_stopping = False
_in_match = False


def _worker_init(stop_event) -> None:
    """Pool initializer: the first SIGINT (from the terminal, or sent by the watcher when the
    main process sets ``stop_event``) interrupts the match being played; later ones are ignored
    so that the referee's clean-up of its bots is never itself interrupted."""
    global _stop_event
    _stop_event = stop_event
    signal.signal(signal.SIGINT, _on_sigint)
    threading.Thread(target=_watch_stop, name="stop-watch", daemon=True).start()


def _watch_stop() -> None:
    _stop_event.wait()
    os.kill(os.getpid(), signal.SIGINT)


def _on_sigint(signum, frame) -> None:
    global _stopping
    if _stopping:
        return
    _stopping = True
    if _in_match:
        raise KeyboardInterrupt


def play(spec: MatchSpec) -> MatchResult:
    """Play one match (runs in a worker)."""
    global _in_match
    _in_match = True
    try:
        if _stopping:
            raise MatchCancelled("the night was interrupted")
        return play_match(spec)
    finally:
        _in_match = False


# ---------------------------------------------------------------------- in the main process


class LongestFirst:
    """The order in which a night hands its matches to the workers: longest expected first,
    so that the night does not end on a long match while the other workers idle.

    A match is expected to take the sum, over its three entries, of a third of the mean time
    of that entry's matches finished so far (an entry with none yet counts at the mean of all
    finished matches). Until a match has finished, and between equal expectations, schedule
    order. Where the time goes does not affect any result: ratings follow schedule order."""

    def __init__(self, pending: list[ScheduledMatch]) -> None:
        self.pending = list(pending)
        self.seconds: dict[int, float] = {}
        """Entry index -> total seconds of its finished matches."""
        self.counts: dict[int, int] = {}
        """Entry index -> its finished matches."""

    def finished(self, match: ScheduledMatch, seconds: float) -> None:
        for entry in match.entries:
            self.seconds[entry] = self.seconds.get(entry, 0.0) + seconds
            self.counts[entry] = self.counts.get(entry, 0) + 1

    def expected(self, match: ScheduledMatch) -> float:
        """Seconds ``match`` is expected to take (0.0 before any match has finished)."""
        if not self.counts:
            return 0.0
        mean = sum(self.seconds.values()) / sum(self.counts.values())
        return sum(
            self.seconds[e] / self.counts[e] / 3 if e in self.counts else mean / 3
            for e in match.entries
        )

    def next(self) -> ScheduledMatch | None:
        """The next match to play (removed from the pending ones), or ``None``."""
        if not self.pending:
            return None
        best = max(self.pending, key=self.expected)  # the first of equals: schedule order
        self.pending.remove(best)
        return best


class Progress:
    """The progress line on a stream: rewritten in place on a terminal, one line per update
    otherwise (so a log file or pipe gets whole lines)."""

    def __init__(self, stream: TextIO | None, total: int, done: int, games_per_match: int):
        self.stream = stream
        self.total = total
        self.done = done
        self.games_per_match = games_per_match
        self.games = 0
        self.start = time.monotonic()
        self.tty = bool(stream is not None and stream.isatty())

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        rate = self.games / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) * self.games_per_match
        eta = f"{left / rate:.0f}s" if rate > 0 else "?"
        return (
            f"matches {self.done}/{self.total}  {rate:.1f} games/s  "
            f"time left ~{eta if self.done < self.total else '0s'}"
        )

    def update(self, games: int) -> None:
        self.done += 1
        self.games += games
        self.show()

    def show(self) -> None:
        if self.stream is None:
            return
        if self.tty:
            self.stream.write("\r" + self.line() + "\x1b[K")
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.stream is not None and self.tty:
            self.stream.write("\n")
            self.stream.flush()


def store_ratings(store: Store, night: Night) -> None:
    """Recompute the night's ratings from all its stored games in schedule order, and store them."""
    start = {e.index: e.start for e in store.entries(night)}
    ratings = rate(store.games(night), start)
    store.save_ratings(night, {e: (r.mu, r.sigma) for e, r in ratings.items()})


def run_night(
    tournament: Tournament,
    store: Store,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    restart: bool = False,
    progress: TextIO | None = None,
    log_dir: Path | None = None,
    play_fn: Callable[[MatchSpec], MatchResult] = play,
) -> NightReport:
    """Play every unfinished match of ``tournament`` and store each as it ends.

    ``workers`` overrides the file's (default: one per core); it is also how many matches are
    in flight at once, each next one chosen by :class:`LongestFirst` as one ends. ``executor``
    replaces the local process pool (the caller then owns it; it is not shut down here; give
    its capacity as ``workers``). ``play_fn`` is what the workers call with each
    :class:`MatchSpec` (must be picklable for a process pool).
    ``progress`` is the stream for the progress line (none when ``None``).
    On Ctrl-C the report says ``interrupted``; nothing is raised."""
    t = tournament
    schedule = build_schedule([e.name for e in t.entries], t.seed, t.cycles)
    hashes = [tuple(bot_hash(folder) for folder in e.bots) for e in t.entries]
    night, discarded = store.begin_night(t, schedule, hashes, restart=restart)
    pending_ids = store.pending_matches(night)
    pending = [m for m in schedule if m.index in pending_ids]
    games_per_match = len(schedule[0].games)
    bar = Progress(progress, len(schedule), len(schedule) - len(pending), games_per_match)
    start = time.monotonic()
    played = games = 0
    failures: list[MatchFailure] = []
    interrupted = False
    if pending:
        log.info("night %r: %d of %d matches to play", night.name, len(pending), len(schedule))
        bar.show()
        own = executor is None
        stop_event = None
        if own:
            ctx = multiprocessing.get_context("fork")
            stop_event = ctx.Event()
            multiprocessing_logging.install_mp_handler()
            n = workers or t.workers or os.cpu_count() or 1
            executor = ProcessPoolExecutor(
                max_workers=max(1, min(n, len(pending))),
                mp_context=ctx,
                initializer=_worker_init,
                initargs=(stop_event,),
            )
        futures: dict[Future, ScheduledMatch] = {}
        began: dict[Future, float] = {}
        stored: set[Future] = set()
        order = LongestFirst(pending)
        slots = max(1, workers or t.workers or os.cpu_count() or 1)

        def submit_next() -> set[Future]:
            """Hand the next match to the executor; its future (none when all are out)."""
            match = order.next()
            if match is None:
                return set()
            future = executor.submit(play_fn, match_spec(t, match, log_dir))
            futures[future], began[future] = match, time.monotonic()
            return {future}

        def save(future: Future) -> None:
            nonlocal played, games
            match = futures[future]
            try:
                result = future.result()
            except (CancelledError, MatchCancelled, KeyboardInterrupt):
                return
            except Exception as exc:
                log.error("match %d failed", match.index, exc_info=exc)
                failures.append(MatchFailure(match.index, f"{type(exc).__name__}: {exc}"))
                stored.add(future)
                return
            try:
                store.save_match(night, match, result)
            except StoreError as exc:  # a result that does not fit its match: a referee bug
                log.error("match %d: result refused: %s", match.index, exc)
                failures.append(MatchFailure(match.index, f"StoreError: {exc}"))
                stored.add(future)
                return
            stored.add(future)
            played += 1
            games += len(result.games)
            bar.update(len(result.games))

        try:
            # As many matches in flight as there are workers, the next chosen as each ends.
            in_flight: set[Future] = set()
            for _ in range(slots):
                in_flight |= submit_next()
            while in_flight:
                done, in_flight = wait_futures(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    if not future.cancelled() and isinstance(
                        future.exception(), (KeyboardInterrupt, MatchCancelled)
                    ):
                        # SIGINT reached a worker but not this process: the night is
                        # interrupted.
                        raise KeyboardInterrupt
                    save(future)
                    order.finished(futures[future], time.monotonic() - began[future])
                    in_flight |= submit_next()
        except KeyboardInterrupt:
            interrupted = True
            _stop(futures, stop_event, save, stored)
        finally:
            if own:
                executor.shutdown(wait=True, cancel_futures=True)
                multiprocessing_logging.uninstall_mp_handler()
            bar.finish()
    seconds = time.monotonic() - start
    store_ratings(store, night)
    night = store.night(night.name)
    return NightReport(
        night=night,
        total=len(schedule),
        stored=night.done,
        played=played,
        games=games,
        seconds=seconds,
        failures=tuple(failures),
        interrupted=interrupted,
        discarded=discarded,
    )


def _stop(futures, stop_event, save, stored) -> None:
    """After Ctrl-C: cancel what has not started, let running matches stop their bots, and
    keep every match that finished. Further Ctrl-Cs are ignored meanwhile."""
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if in_main else None
    try:
        log.warning("interrupted: stopping the matches in play")
        if stop_event is not None:
            stop_event.set()
        for future in futures:
            future.cancel()
        wait_futures(list(futures))
        for future in futures:
            if future not in stored and not future.cancelled():
                save(future)
    finally:
        if in_main:
            signal.signal(signal.SIGINT, previous)
