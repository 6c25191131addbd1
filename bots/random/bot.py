"""The random bot: a uniformly random legal action at every decision (the baseline).

Usage: ``python3 bot.py [--seed N]``; without a seed it plays differently every run.
"""

from __future__ import annotations

import argparse

from arena.sdk import Bot, run


class RandomBot(Bot):
    """Every decision uniformly at random among the legal actions (the ``Bot`` defaults)."""

    name = "random"
    version = "1.0"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible play")
    args = parser.parse_args(argv)
    run(RandomBot(args.seed))


if __name__ == "__main__":
    main()
