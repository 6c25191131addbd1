"""A spy: writes every line the referee sends it to the file given with --spy."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main

main(FixtureBot)
