"""Commands on bot programs: ``arena play`` (a narrated game or match), ``arena check`` (the
submission check) and ``arena bench match`` (the referee's speed against a bare pipe)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import shlex
import tempfile
from pathlib import Path

import click

import arena
from arena.engine import Rules
from arena.process import ManifestError, load_manifest
from arena.referee import (
    FaultPolicy,
    GameSpec,
    MatchResult,
    MatchSpec,
    Sandbox,
    TeamSpec,
    TimeControl,
    play_match,
)
from arena.replay import narrate

from . import bench, fail, main, max_hands_option

SHIPPED_BOTS = Path(arena.__file__).resolve().parent.parent / "bots"
"""The bots that come with the arena (``bots/`` in the repository)."""

ARRANGEMENTS = tuple(itertools.permutations(range(3)))
"""Seat pairs of the three teams in the six games of a duplicate cycle."""

CHECK_MAX_FAULTS = 10
"""The submission check stops asking a bot after this many faults (it is unfit anyway)."""


def _bot_folder(text: str) -> Path:
    """A bot folder from the command line: a path, or the name of a shipped bot."""
    path = Path(text)
    if not path.exists() and (SHIPPED_BOTS / text).is_dir():
        path = SHIPPED_BOTS / text
    try:
        load_manifest(path)
    except ManifestError as e:
        fail(f"{text}: {e}")
    except OSError as e:
        fail(f"{text}: cannot read the bot folder: {e.strerror or e}")
    return path


def _team(text: str) -> TeamSpec:
    """``FOLDER`` (both seats) or ``FOLDER+FOLDER`` (a mixed pair, lower seat first)."""
    parts = text.split("+")
    if len(parts) > 2 or not all(parts):
        fail(f"{text!r} is not a team: give a bot folder, or two joined by '+' (A+B)")
    folders = [_bot_folder(p) for p in parts]
    if len(folders) == 1:
        folders.append(folders[0])
    name = "+".join(f.name for f in folders) if folders[0] != folders[1] else folders[0].name
    return TeamSpec(name, (folders[0], folders[1]))


def _default_teams() -> list[str]:
    node = SHIPPED_BOTS / "node-random"
    third = str(node) if node.is_dir() else str(SHIPPED_BOTS / "random")
    return [str(SHIPPED_BOTS / "greedy"), str(SHIPPED_BOTS / "random"), third]


def _games(seed: int, count: int) -> tuple[GameSpec, ...]:
    """``count`` games in duplicate cycles: game i has seed ``seed + i // 6`` and the i-th
    arrangement of the teams on the seat pairs."""
    return tuple(GameSpec(seed + i // 6, ARRANGEMENTS[i % 6]) for i in range(count))


_SANDBOX = click.Choice([s.value for s in Sandbox])

move_option = click.option(
    "--move",
    type=click.FloatRange(min=0.001),
    default=1.0,
    show_default=True,
    help="Seconds per decision.",
)
bank_option = click.option(
    "--bank",
    type=click.FloatRange(min=0),
    default=10.0,
    show_default=True,
    help="Seconds of time bank per bot and game.",
)


def _entry_label(index: int, name: str) -> str:
    return f"{'ABC'[index]} ({name})"


def _write_records(path: Path, result: MatchResult) -> list[Path]:
    """One record per file: ``path`` itself for one game, ``STEM-i.SUFFIX`` for several."""
    games = result.games
    if len(games) == 1:
        targets = [path]
    else:
        targets = [path.with_name(f"{path.stem}-{g.index}{path.suffix}") for g in games]
    for target, outcome in zip(targets, games, strict=True):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(outcome.record, indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            fail(f"{target}: cannot write the record: {e.strerror or e}")
    return targets


@main.command()
@click.argument("teams", nargs=-1, metavar="[TEAM TEAM TEAM]")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Games in the match (in duplicate cycles of six).",
)
@click.option("--seed", type=int, default=None, help="Seed of the first deal (default: random).")
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game record as JSON (several games: FILE-0.json, FILE-1.json...).",
)
@move_option
@bank_option
@max_hands_option
@click.option("--sandbox", type=_SANDBOX, default="auto", show_default=True)
@click.option(
    "--fallback",
    is_flag=True,
    help="On a fault play a random legal action and go on (default: forfeit).",
)
@click.option(
    "--narrate/--no-narrate",
    "narrate_",
    default=None,
    help="Tell every game hand by hand (default: only a single game).",
)
def play(teams, games, seed, record_path, move, bank, max_hands, sandbox, fallback, narrate_):
    """Play a game (or a match of --games N) between three teams and tell it.

    Each TEAM is a bot folder (or the name of a shipped bot: greedy, random, node-random...)
    playing both seats of its pair, or two folders joined by '+' for a mixed pair. Without
    TEAMs: greedy, random and node-random.
    """
    if len(teams) not in (0, 3):
        fail(f"give three teams or none, not {len(teams)}: arena play TEAM TEAM TEAM")
    specs = tuple(_team(t) for t in (teams or _default_teams()))
    if record_path is not None:
        folder = record_path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            fail(f"{record_path}: cannot create its folder: {e.strerror or e}")
        try:
            tempfile.TemporaryFile(dir=folder).close()
        except OSError as e:
            fail(f"{record_path}: cannot write there ({e.strerror or e}); give another --record")
    if seed is None:
        seed = random.randrange(1 << 31)
    spec = MatchSpec(
        teams=specs,
        games=_games(seed, games),
        rules=Rules(max_hands=max_hands),
        time_control=TimeControl(move=move, bank=bank),
        sandbox=Sandbox(sandbox),
        fault_policy=FaultPolicy.FALLBACK if fallback else FaultPolicy.FORFEIT,
    )
    click.echo(
        f"Seed {seed}; teams: " + ", ".join(_entry_label(i, t.name) for i, t in enumerate(specs))
    )
    result = play_match(spec)
    tell = games == 1 if narrate_ is None else narrate_
    totals = [0, 0, 0]
    for outcome in result.games:
        if tell:
            click.echo("")
            for line in narrate(outcome.record):
                click.echo(line)
        click.echo(
            f"Game {outcome.index} (seed {outcome.seed}, {outcome.ended_by}): "
            + ", ".join(
                f"{_entry_label(e, specs[e].name)} place {outcome.places[e]} "
                f"score {outcome.scores[e]}"
                for e in range(3)
            )
        )
        for fault in outcome.faults:
            click.echo(
                f"  fault: {fault.kind.value} by {fault.bot} (seat {fault.seat}): "
                f"{fault.detail}" + (f" -- {fault.offending}" if fault.offending else "")
            )
        for e in range(3):
            totals[e] += outcome.places[e]
    if games > 1:
        click.echo(
            "Match: "
            + ", ".join(
                f"{_entry_label(e, specs[e].name)} mean place {totals[e] / games:.2f}"
                for e in range(3)
            )
        )
    click.echo(f"({result.decisions} decisions; bots started in {result.startup_seconds:.2f} s)")
    if record_path is not None:
        for target in _write_records(record_path, result):
            click.echo(f"record written to {target}")


def _percentile(sorted_times: list[float], q: float) -> float:
    if not sorted_times:
        return 0.0
    k = min(len(sorted_times) - 1, max(0, round(q * (len(sorted_times) - 1))))
    return sorted_times[k]


def _stderr_summary(logs: list[Path], last: int = 5) -> str:
    """What the bot wrote to stderr (its log), in short: not a fault, but often a bug."""
    lines: list[str] = []
    for log in logs:
        try:
            lines.extend(log.read_text(encoding="utf-8", errors="replace").splitlines())
        except OSError:
            continue
    if not lines:
        return ""
    tracebacks = sum(line.startswith("Traceback") for line in lines)
    head = f"the bot wrote {len(lines)} lines to stderr"
    if tracebacks:
        head += f", {tracebacks} of them tracebacks (bugs?)"
    return head + "; the last:\n" + "\n".join(f"    {line}" for line in lines[-last:])


@main.command()
@click.argument("bot_dir", type=click.Path(path_type=Path))
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=6,
    show_default=True,
    help="Games against random bots (six: one duplicate cycle).",
)
@click.option("--seed", type=int, default=1, show_default=True)
@move_option
@bank_option
@click.option("--handshake", type=click.FloatRange(min=0.001), default=10.0, show_default=True)
@max_hands_option
@click.option("--sandbox", type=_SANDBOX, default="auto", show_default=True)
def check(bot_dir, games, seed, move, bank, handshake, max_hands, sandbox):
    """The submission check: is the bot in BOT_DIR fit to enter a league?

    Checks the manifest and the handshake, then plays GAMES games with the bot as one team
    against two teams of bots/random, under the league's time control. Every fault is reported
    with the offending line; the decision times are summarised. Exits 1 if there was any fault.
    """
    try:
        manifest = load_manifest(bot_dir)
    except ManifestError as e:
        fail(f"{bot_dir}: {e}")
    except OSError as e:
        fail(f"{bot_dir}: cannot read the bot folder: {e.strerror or e}")
    click.echo(f"manifest ok: {manifest.name} {manifest.version}: {shlex.join(manifest.command)}")
    opponent = SHIPPED_BOTS / "random"
    spec = MatchSpec(
        teams=(
            TeamSpec(manifest.name, (Path(bot_dir), Path(bot_dir))),
            TeamSpec("random-1", (opponent, opponent)),
            TeamSpec("random-2", (opponent, opponent)),
        ),
        games=_games(seed, games),
        rules=Rules(max_hands=max_hands),
        time_control=TimeControl(move=move, bank=bank, handshake=handshake),
        sandbox=Sandbox(sandbox),
        # Fallback, so that one fault does not hide the next: every decision is tried.
        fault_policy=FaultPolicy.FALLBACK,
        max_faults=CHECK_MAX_FAULTS,
    )
    with tempfile.TemporaryDirectory(prefix="arena-check-") as logs:
        result = play_match(dataclasses.replace(spec, log_dir=Path(logs)))
        stderr = _stderr_summary(sorted(Path(logs).glob("entry0-*.log")))
    faults = [f for g in result.games for f in g.faults if f.entry == 0]
    other = [f for g in result.games for f in g.faults if f.entry != 0]
    handshake_faults = [f for f in faults if f.kind.value in ("handshake", "start")]
    if not handshake_faults:
        click.echo(f"handshake ok (six bots started in {result.startup_seconds:.2f} s)")
    times = sorted(result.decision_seconds[0])
    click.echo(f"played {len(result.games)} games, {len(times)} decisions by the bot")
    if times:
        ms = {
            q: 1000 * _percentile(times, p)
            for q, p in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))
        }
        click.echo(
            "decision time ms: "
            + ", ".join(f"{q} {v:.1f}" for q, v in ms.items())
            + f" (limit {1000 * move:.0f} ms a decision + {bank:g} s bank a game)"
        )
    for fault in faults:
        click.echo(f"FAULT game {fault.game} seat {fault.seat}: {fault.kind.value}: {fault.detail}")
        if fault.offending:
            click.echo(f"    offending: {fault.offending}")
        if fault.stderr_tail:
            tail = fault.stderr_tail.rstrip().splitlines()[-5:]
            click.echo("    stderr: " + "\n            ".join(tail))
    if len(faults) >= CHECK_MAX_FAULTS:
        click.echo(f"(stopped asking the bot after {CHECK_MAX_FAULTS} faults)")
    if stderr:
        click.echo(stderr)
    if other:
        click.echo(f"note: the opponents faulted {len(other)} times (not the bot's doing)")
    if faults:
        click.echo(f"NOT FIT: {len(faults)} fault(s)")
        raise SystemExit(1)
    click.echo("FIT: no faults")


@bench.command("match")
@click.option("--games", type=click.IntRange(min=1), default=6, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--sandbox", type=_SANDBOX, default="none", show_default=True)
@click.option(
    "--rounds",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Matches, each followed by the echo of requests on its seeds; the ratio is of the totals.",
)
def bench_match(games, seed, sandbox, rounds):
    """Decisions per second through the referee with six bots/random, against a bare
    JSON-lines echo between two Python processes with requests of the same size."""
    from arena.bench_match import run_bench

    report = run_bench(games=games, seed=seed, sandbox=Sandbox(sandbox), rounds=rounds)
    for line in report.lines():
        click.echo(line)
