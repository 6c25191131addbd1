"""Exits (status 3) instead of answering its --at-th request."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class Quitter(FixtureBot):
    def misbehave(self, message):
        print("quitter: leaving the table now", file=sys.stderr, flush=True)
        sys.exit(3)


main(Quitter)
