"""``python -m arena.cli``: the same as the ``arena`` console script."""

from arena.cli import main

main(prog_name="arena")
