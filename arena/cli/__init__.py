"""The ``arena`` command: click commands over every part of the project (imported by nothing).

Each group of commands lives in its own module and registers itself on :data:`main` or
:data:`bench`.
"""

from __future__ import annotations

import logging
import sys

import click

from arena import __version__
from arena.engine import Rules


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
@click.option("-v", "--verbose", count=True, help="More log output (-v info, -vv debug).")
def main(verbose: int) -> None:
    """Schmier Arena: bot-versus-bot league nights for the card game Schmier."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


@main.group()
def bench() -> None:
    """Benchmarks (speed figures, not tests)."""


max_hands_option = click.option(
    "--max-hands",
    type=click.IntRange(min=1),
    default=Rules().max_hands,
    show_default=True,
    help="Deals after which a game ends anyway.",
)
"""The ``--max-hands`` option of every command that plays games."""


def fail(message: str) -> None:
    """Stop with a one-line error on stderr and exit status 2."""
    click.echo(f"arena: error: {message}", err=True)
    sys.exit(2)


# Command modules register themselves on import.
from . import bot_cmds, engine_cmds, league_cmds  # noqa: E402, F401
