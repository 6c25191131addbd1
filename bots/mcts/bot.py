"""The mcts bot's program: determinized Monte Carlo search on the arena SDK.

Usage: ``python3 bot.py [--share S] [--cpu-seconds C] [--search PHASES] [--seed N]``: use the
share S (default 0.5, at most 0.9) of the per-decision time limit (the environment variable
``MCTS_SHARE`` sets the default too), at most C CPU seconds (default 400) over a whole match,
and search in the phases listed (default ``play,trump``; the others use the heuristic).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mctsbot.player import DEFAULT_CPU_SECONDS, DEFAULT_SHARE, MAX_SHARE, SEARCHED, MctsBot

from arena.engine import Phase
from arena.sdk import run

PHASES = [p for p in Phase if p is not Phase.OVER]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="mcts", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--share",
        type=float,
        default=None,
        help=f"share of the per-decision time limit to use (default {DEFAULT_SHARE}, "
        f"at most {MAX_SHARE})",
    )
    parser.add_argument(
        "--cpu-seconds",
        type=float,
        default=DEFAULT_CPU_SECONDS,
        help=f"CPU seconds to spend on a whole match at most (default {DEFAULT_CPU_SECONDS:g}; "
        "keep it below the arena's cpu_seconds limit)",
    )
    parser.add_argument(
        "--search",
        default=",".join(sorted(p.value for p in SEARCHED)),
        help="phases decided by search, comma-separated, from "
        f"{','.join(p.value for p in PHASES)} (default %(default)s; the others use the "
        "heuristic)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the bot's own sampling")
    args = parser.parse_args(argv)
    if args.share is not None and not 0.0 < args.share <= MAX_SHARE:
        parser.error(f"--share {args.share!r} is out of range: give a number in (0, {MAX_SHARE}]")
    try:
        searched = frozenset(Phase(word) for word in args.search.split(",") if word)
    except ValueError:
        parser.error(
            f"--search {args.search!r}: give phases from {','.join(p.value for p in PHASES)}"
        )
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(message)s")
    bot = MctsBot(seed=args.seed, share=args.share, cpu_seconds=args.cpu_seconds, searched=searched)
    run(bot)


if __name__ == "__main__":
    main()
