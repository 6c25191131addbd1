"""Sleeps 60 s instead of answering its --at-th request."""

import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class Sleeper(FixtureBot):
    def misbehave(self, message):
        time.sleep(60)
        return True


main(Sleeper)
