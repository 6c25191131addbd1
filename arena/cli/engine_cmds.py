"""Commands on single games: selfplay, verify, replay, and the engine benchmark."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import click

from arena.engine import Game, Rules
from arena.engine.record import RecordError, build_record, verify
from arena.replay import narrate

from . import bench, fail, main, max_hands_option


def _random_game(seed: int, rules: Rules) -> Game:
    """A game between uniformly random legal players (their choices seeded by ``seed``)."""
    rng = random.Random(f"selfplay/{seed}")
    game = Game.new(seed, rules)
    while not game.is_over:
        game.apply(game.legal_actions().sample(rng))
    return game


def _load_record(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        fail(f"{path}: cannot read: {e.strerror}")
    except (ValueError, UnicodeDecodeError) as e:
        fail(
            f"{path}: not a JSON game record ({e}); "
            "give a file written by `arena selfplay` or `arena play --record`"
        )


@main.command()
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder for the records (created if missing).",
)
@max_hands_option
def selfplay(seed: int, games: int, out: Path, max_hands: int) -> None:
    """Play GAMES games in-process between uniformly random legal players and write their
    records to OUT (game i has seed SEED + i)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"{out}: cannot create the folder: {e.strerror}")
    rules = Rules(max_hands=max_hands)
    for i in range(games):
        game = _random_game(seed + i, rules)
        path = out / f"game-{seed + i}.json"
        players = ["random"] * 6
        path.write_text(json.dumps(build_record(game, players), indent=1) + "\n", encoding="utf-8")
        r = game.result()
        click.echo(f"{path}: team {r.winner} wins, scores {list(r.scores)}, {r.hands} deals")


@main.command(name="verify")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def verify_cmd(files: tuple[str, ...]) -> None:
    """Re-derive every hand of each record from its seed and actions and check every recorded
    result. Exits 1 naming the hand and field of the first inconsistencies."""
    bad = 0
    for path in files:
        record = _load_record(path)
        try:
            problems = verify(record)
        except RecordError as e:
            problems = [str(e)]
        if problems:
            bad += 1
            for p in problems[:20]:
                click.echo(f"{path}: {p}")
            if len(problems) > 20:
                click.echo(f"{path}: ... and {len(problems) - 20} more")
        else:
            click.echo(f"{path}: ok ({len(record['hands'])} deals)")
    if bad:
        raise SystemExit(1)


@main.command(name="replay")
@click.argument("file", type=click.Path(dir_okay=False))
def replay_cmd(file: str) -> None:
    """Print the game in FILE readably."""
    record = _load_record(file)
    try:
        for line in narrate(record):
            click.echo(line)
    except (KeyError, TypeError, IndexError) as e:
        fail(
            f"{file}: not a well-formed game record (missing or bad field {e}); "
            "check it with `arena verify`"
        )


@bench.command(name="engine")
@click.option("--seconds", type=float, default=3.0, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
def bench_engine(seconds: float, seed: int) -> None:
    """Decisions per second of random games played in-process on one core (one decision =
    one bid, trump choice, discard or card played)."""
    for log in (True, False):
        rng = random.Random(seed)
        decisions = games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            game = Game.new(rng.randrange(2**32), log=log)
            while not game.is_over:
                game.apply(game.legal_actions().sample(rng))
                decisions += 1
            games += 1
        elapsed = time.perf_counter() - start
        label = "with events" if log else "without events (search)"
        click.echo(
            f"engine {label}: {decisions / elapsed:,.0f} decisions/s "
            f"({games} games, {decisions:,} decisions in {elapsed:.1f} s)"
        )
