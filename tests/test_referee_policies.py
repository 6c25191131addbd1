"""The fault policies: forfeit (the game ends, restart before the next game, a team with
max_faults forfeits the rest of the match) and fallback (a random legal action, the game goes
on). And the referee stops every process even when interrupted."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from referee_support import fixture_bot, good_teams, pids, spec, survivors

from arena.engine.record import verify
from arena.referee import FaultKind, FaultPolicy, TimeControl, play_match


def test_a_team_with_max_faults_forfeits_its_remaining_games(tmp_path):
    bad = fixture_bot(tmp_path, "garbage", "--at", "1")
    result = play_match(spec(good_teams(tmp_path, bad), games=5, max_faults=3))

    assert [g.ended_by for g in result.games] == ["fault"] * 3 + ["forfeited"] * 2
    assert [len(g.faults) for g in result.games] == [1, 1, 1, 0, 0]
    for outcome in result.games[3:]:
        assert outcome.places == (1, 3, 1)
        assert outcome.scores == (0, 0, 0)
        assert outcome.record["result"]["ended_by"] == "forfeited"
        assert verify(outcome.record) == []
    # Restarted before games 1 and 2; nothing started for the forfeited games.
    assert len(pids(tmp_path, "garbage")) == 3
    assert survivors(tmp_path) == []


def test_forfeit_policy_does_not_restart_the_partner(tmp_path):
    bad = fixture_bot(tmp_path, "garbage", "--at", "1")
    partner = fixture_bot(tmp_path, "good", as_name="partner")
    good = fixture_bot(tmp_path, "good")
    teams = [("g0", good, good), ("bad", bad, partner), ("g2", good, good)]
    play_match(spec(teams, games=3, max_faults=5))
    assert len(pids(tmp_path, "garbage")) == 3
    assert len(pids(tmp_path, "partner")) == 1


def test_fallback_policy_plays_on_with_random_legal_actions(tmp_path):
    bad = fixture_bot(tmp_path, "garbage", "--at", "2")
    result = play_match(
        spec(good_teams(tmp_path, bad), games=2, fault_policy=FaultPolicy.FALLBACK, max_faults=3)
    )
    for outcome in result.games:
        assert outcome.ended_by == "finished"
        assert outcome.record["result"]["ended_by"] == "finished"
        assert verify(outcome.record) == []
        assert sorted(outcome.places)[0] == 1
    faults = [f for g in result.games for f in g.faults]
    # Each fresh process faults at its second request; after three faults the team is no
    # longer asked, so there are exactly three faults and three processes.
    assert [f.kind for f in faults] == [FaultKind.MALFORMED] * 3
    assert len(pids(tmp_path, "garbage")) == 3
    assert survivors(tmp_path) == []


def test_fallback_policy_restarts_a_crashed_bot_before_its_next_decision(tmp_path):
    bad = fixture_bot(tmp_path, "quitter", "--at", "3")
    result = play_match(
        spec(good_teams(tmp_path, bad), games=1, fault_policy=FaultPolicy.FALLBACK, max_faults=2)
    )
    (outcome,) = result.games
    assert outcome.ended_by == "finished"
    assert [f.kind for f in outcome.faults] == [FaultKind.CRASH, FaultKind.CRASH]
    assert len(pids(tmp_path, "quitter")) == 2
    assert verify(outcome.record) == []
    assert survivors(tmp_path) == []


def test_no_process_survives_an_interrupted_match(tmp_path):
    bad = fixture_bot(tmp_path, "sleeper", "--at", "1")
    tc = TimeControl(move=10.0, bank=0.0, handshake=5.0)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            play_match(spec(good_teams(tmp_path, bad), games=1, time_control=tc))
    finally:
        timer.cancel()
    assert len(pids(tmp_path, "sleeper")) == 1
    assert survivors(tmp_path) == []
