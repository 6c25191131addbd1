"""Prints garbage instead of its --at-th answer."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class Garbage(FixtureBot):
    def misbehave(self, message):
        self.send("this is not json {")
        return True


main(Garbage)
