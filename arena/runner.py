"""Plays a league night: the schedule's unfinished matches on workers, each stored as it ends.

Matches go to workers through the standard :class:`concurrent.futures.Executor` interface (a
local :class:`~concurrent.futures.ProcessPoolExecutor` by default, one process per core); each
match is one :func:`arena.referee.play_match` call in a worker, with its own six bot processes.
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
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    as_completed,
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

    ``workers`` overrides the file's (default: one per core). ``executor`` replaces the local
    process pool (the caller then owns it; it is not shut down here). ``play_fn`` is what the
    workers call with each :class:`MatchSpec` (must be picklable for a process pool).
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
        stored: set[Future] = set()

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
            for match in pending:
                futures[executor.submit(play_fn, match_spec(t, match, log_dir))] = match
            for future in as_completed(futures):
                if not future.cancelled() and isinstance(
                    future.exception(), (KeyboardInterrupt, MatchCancelled)
                ):
                    # SIGINT reached a worker but not this process: the night is interrupted.
                    raise KeyboardInterrupt
                save(future)
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
