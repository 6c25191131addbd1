"""League-night commands: ``arena run``, ``arena table`` and ``arena bench league``."""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

import click

from arena.publish import Format, h2h_table, standings_table
from arena.ratings import head_to_head, standings
from arena.runner import NightReport, run_night
from arena.store import Night, Store, StoreError
from arena.tournament import Tournament, TournamentError, load_tournament

from . import bench, fail, main

__all__ = ["bench_league", "run", "table"]

LEAGUES = Path("leagues")
"""Where databases go by default, under the current directory."""
BENCH_FILE = Path(__file__).resolve().parents[2] / "tournaments" / "bench.yaml"
"""The benchmark's night (shipped with the source)."""

_FORMATS = click.Choice([f.value for f in Format])


def _load(file: str) -> Tournament:
    try:
        return load_tournament(file)
    except TournamentError as exc:
        fail(str(exc))
        raise  # unreachable: fail() exits


def _open(db: Path, *, create: bool) -> Store:
    try:
        return Store.open(db, create=create)
    except StoreError as exc:
        fail(str(exc))
        raise


def _standings_text(store: Store, night: Night, fmt: Format) -> str:
    entries = store.entries(night)
    rows = standings(
        [e.name for e in entries],
        {e.index: e.start for e in entries},
        store.games(night),
        Counter(f.entry for f in store.faults(night)),
    )
    return standings_table(night.name, rows, fmt)


def _run(tournament: Tournament, store: Store, workers: int | None, restart: bool) -> NightReport:
    try:
        return run_night(tournament, store, workers=workers, restart=restart, progress=sys.stderr)
    except StoreError as exc:
        fail(str(exc))
        raise
    except KeyboardInterrupt:
        # Before any match started (while hashing bots or opening the night): nothing to keep.
        click.echo("interrupted: run the same command again to resume", err=True)
        sys.exit(130)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    help="Database (default: the file's database:, else leagues/<file stem>.db).",
)
@click.option("--workers", type=click.IntRange(min=1), help="Worker processes (default: cores).")
@click.option("--restart", is_flag=True, help="Discard this night's stored results, start anew.")
@click.option(
    "--format", "fmt", type=_FORMATS, default="text", show_default=True, help="Standings format."
)
def run(file: str, db: str | None, workers: int | None, restart: bool, fmt: str) -> None:
    """Play the league night in FILE (resuming it if stored) and print the standings."""
    tournament = _load(file)
    path = Path(db) if db else tournament.default_database()
    with _open(path, create=True) as store:
        report = _run(tournament, store, workers, restart)
        if report.discarded:
            click.echo(
                f"arena: discarded the earlier results of night {tournament.name!r} (--restart)",
                err=True,
            )
        click.echo(_standings_text(store, report.night, Format(fmt)), nl=False)
    if report.interrupted:
        click.echo(
            f"interrupted: {report.stored} of {report.total} matches stored; "
            "run the same command again to resume",
            err=True,
        )
        sys.exit(130)
    click.echo(
        f"{report.stored}/{report.total} matches stored in {path}; this run: {report.played} "
        f"matches, {report.games} games in {report.seconds:.1f}s "
        f"({report.games_per_second:.1f} games/s)",
        err=True,
    )
    if report.failures:
        first = report.failures[0]
        fail(
            f"{len(report.failures)} match(es) failed (match {first.match}: {first.error}); "
            "see the log (-v), then run the same command again to retry them"
        )


def _default_db() -> Path:
    found = sorted(LEAGUES.glob("*.db"), key=lambda p: p.stat().st_mtime)
    if not found:
        fail(f"no league database in {LEAGUES}/ here; pass --db PATH")
    return found[-1]


@main.command()
@click.option(
    "--db", type=click.Path(dir_okay=False), help="Database (default: newest leagues/*.db)."
)
@click.option("--tournament", "name", help="Night name (default: the latest night).")
@click.option(
    "--format", "fmt", type=_FORMATS, default="text", show_default=True, help="Table format."
)
@click.option("--h2h", is_flag=True, help="Head-to-head table instead of the standings.")
def table(db: str | None, name: str | None, fmt: str, h2h: bool) -> None:
    """Print the standings (or head-to-head table) of a stored night."""
    path = Path(db) if db else _default_db()
    with _open(path, create=False) as store:
        night = store.night(name)
        if night is None:
            known = ", ".join(repr(n.name) for n in store.nights()) or "none"
            what = f"no night {name!r}" if name else "no nights"
            fail(f"{path}: {what} stored (nights: {known}); check --tournament")
        if h2h:
            names = [e.name for e in store.entries(night)]
            text = h2h_table(night.name, head_to_head(names, store.games(night)), Format(fmt))
        else:
            text = _standings_text(store, night, Format(fmt))
    click.echo(text, nl=False)
    if night.finished is None:
        click.echo(
            f"note: night {night.name!r} is unfinished ({night.done}/{night.matches} matches)",
            err=True,
        )


@bench.command("league")
@click.option(
    "--file",
    "file",
    type=click.Path(dir_okay=False),
    default=str(BENCH_FILE),
    show_default=True,
    help="The night to play.",
)
def bench_league(file: str) -> None:
    """Play the same small night with 1 worker and with 2; print games/s and their ratio."""
    tournament = _load(file)
    load = os.getloadavg()[0]
    cores = os.cpu_count() or 1
    if load >= 0.5:
        click.echo(
            f"note: load average {load:.1f} on {cores} cores before the run; "
            "other work on this machine lowers the ratio",
            err=True,
        )
    rates = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        for workers in (1, 2):
            with _open(Path(tmp) / f"bench-{workers}.db", create=True) as store:
                report = _run(tournament, store, workers, False)
            if report.interrupted or report.failures:
                fail(f"the benchmark night did not complete with {workers} worker(s)")
            rates.append(report.games_per_second)
            click.echo(
                f"{workers} worker(s): {report.games} games in {report.seconds:.1f}s = "
                f"{report.games_per_second:.2f} games/s"
            )
    click.echo(f"ratio 2 workers / 1 worker: {rates[1] / rates[0]:.2f}")
