"""A well-behaved test bot: legal actions, quickly."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main

main(FixtureBot)
