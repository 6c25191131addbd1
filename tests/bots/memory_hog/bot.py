"""Allocates 8 GiB (touching every page) instead of its --at-th answer."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class MemoryHog(FixtureBot):
    def misbehave(self, message):
        blocks = []
        for _ in range(64):
            blocks.append(bytearray(128 << 20))  # zero-filled: every page touched
        return False


main(MemoryHog)
