"""The referee under bubblewrap: a bot that crashes and leaves a SIGTERM-ignoring child behind
yields its fault, and nothing of it survives the match."""

from __future__ import annotations

import uuid

import pytest
from referee_support import FIXTURES, fixture_bot, spec, tagged_processes

from arena.process import bwrap_works
from arena.referee import FaultKind, Sandbox, play_match

pytestmark = pytest.mark.skipif(not bwrap_works(), reason="bubblewrap is not usable here")


def test_sandboxed_forker_faults_and_leaves_no_process(tmp_path):
    tag = f"arena-test-{uuid.uuid4().hex}"
    # No pid file: the sandbox's /tmp is private; the tag finds the processes instead.
    forker = fixture_bot(tmp_path, "forker", "--at", "1", "--tag", tag, pidfile=False)
    good = FIXTURES / "good"
    teams = [("a", good, good), ("b", forker, good), ("c", good, good)]
    result = play_match(spec(teams, games=2, sandbox=Sandbox.BWRAP))
    for outcome in result.games:
        assert [f.kind for f in outcome.faults] == [FaultKind.CRASH]
        assert outcome.ended_by == "fault"
    assert tagged_processes(tag) == []
