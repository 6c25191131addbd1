"""Reads the hello and never answers it."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class Silent(FixtureBot):
    def hello(self, message):
        pass


main(Silent)
