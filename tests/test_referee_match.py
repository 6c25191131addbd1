"""A match between well-behaved bots: six processes started once, every game played to the end,
seats following the seat pairs, results per entry agreeing with the records."""

from __future__ import annotations

from pathlib import Path

from referee_support import fixture_bot, pids, spec, survivors

from arena.engine.record import actions_of, verify
from arena.referee import GameSpec, MatchSpec, Sandbox, TeamSpec, play_match

SHIPPED = Path(__file__).resolve().parent.parent / "bots"


def named_teams(tmp_path):
    folders = [fixture_bot(tmp_path, "good", as_name=f"good{i}") for i in range(6)]
    return [(f"team{e}", folders[2 * e], folders[2 * e + 1]) for e in range(3)]


def test_a_match_plays_every_game_with_six_processes_started_once(tmp_path):
    result = play_match(spec(named_teams(tmp_path), games=3))

    assert [g.index for g in result.games] == [0, 1, 2]
    assert [g.ended_by for g in result.games] == ["finished"] * 3
    for i in range(6):
        assert len(pids(tmp_path, f"good{i}")) == 1
    assert result.startup_seconds > 0
    assert result.shutdown_seconds > 0  # timed apart from the games, like the start-up
    assert survivors(tmp_path) == []


def test_every_record_verifies_and_counts_the_decisions(tmp_path):
    result = play_match(spec(named_teams(tmp_path), games=3))
    for outcome in result.games:
        assert verify(outcome.record) == []
        assert outcome.record["faults"] == []
        assert outcome.record["result"]["ended_by"] == "finished"
    assert result.decisions == sum(len(actions_of(g.record)) for g in result.games)
    assert sum(len(t) for t in result.decision_seconds) == result.decisions


def test_seats_follow_the_seat_pairs(tmp_path):
    result = play_match(spec(named_teams(tmp_path), games=3))
    for outcome in result.games:
        players = [s["player"] for s in outcome.record["seating"]]
        for entry, pair in enumerate(outcome.seat_pairs):
            assert players[pair] == f"good{2 * entry}"
            assert players[pair + 3] == f"good{2 * entry + 1}"


def test_places_scores_and_bids_are_given_per_entry(tmp_path):
    result = play_match(spec(named_teams(tmp_path), games=3))
    for outcome in result.games:
        team_result = outcome.record["result"]
        pairs = outcome.seat_pairs
        assert outcome.places == tuple(team_result["places"][p] for p in pairs)
        assert outcome.scores == tuple(team_result["scores"][p] for p in pairs)
        taken, made = [0, 0, 0], [0, 0, 0]
        for hand in outcome.record["hands"]:
            if hand["made"] is not None:
                entry = pairs.index(hand["bidder"] % 3)
                taken[entry] += 1
                made[entry] += hand["made"]
        assert outcome.bids_taken == tuple(taken)
        assert outcome.bids_made == tuple(made)


def test_bots_stderr_goes_to_per_bot_logs_in_log_dir(tmp_path):
    quitter = fixture_bot(tmp_path, "quitter")
    good = fixture_bot(tmp_path, "good")
    teams = [("a", good, good), ("b", quitter, good), ("c", good, good)]
    play_match(spec(teams, games=1, log_dir=tmp_path / "logs"))
    logs = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert len(logs) == 6
    quitter_logs = [p for p in (tmp_path / "logs").iterdir() if "quitter" in p.name]
    assert len(quitter_logs) == 1
    assert "leaving the table now" in quitter_logs[0].read_text()


def test_a_match_of_shipped_sdk_bots(tmp_path):
    random_bot, greedy = SHIPPED / "random", SHIPPED / "greedy"
    match = MatchSpec(
        teams=(
            TeamSpec("random", (random_bot, random_bot)),
            TeamSpec("greedy", (greedy, greedy)),
            TeamSpec("mixed", (random_bot, greedy)),
        ),
        games=(GameSpec(5, (0, 1, 2)), GameSpec(5, (2, 0, 1))),
        sandbox=Sandbox.NONE,
    )
    result = play_match(match)
    for outcome in result.games:
        assert outcome.ended_by == "finished", outcome.faults
        assert verify(outcome.record) == []
