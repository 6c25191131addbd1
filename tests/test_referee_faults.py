"""Each misbehaving bot yields exactly its fault; the match goes on, the other games are valid,
the faulting bot is restarted, and no process survives."""

from __future__ import annotations

import pytest
from referee_support import fixture_bot, good_teams, pids, spec, survivors

from arena.engine.record import verify
from arena.referee import FaultKind, Limits, TimeControl, play_match

MISBEHAVIOURS = [
    ("quitter", FaultKind.CRASH),
    ("garbage", FaultKind.MALFORMED),
    ("illegal", FaultKind.ILLEGAL),
    ("wrong_id", FaultKind.WRONG_ID),
    ("long_line", FaultKind.LINE_TOO_LONG),
    ("forker", FaultKind.CRASH),
    ("chatter", FaultKind.HANDSHAKE),
    ("old_protocol", FaultKind.HANDSHAKE),
]


def check_fault_game(outcome, kind: FaultKind, bot: str) -> None:
    """Game ``outcome`` was ended by one fault of ``kind`` by ``bot`` (entry 1, lower seat)."""
    assert [f.kind for f in outcome.faults] == [kind]
    fault = outcome.faults[0]
    assert (fault.game, fault.entry, fault.bot) == (outcome.index, 1, bot)
    assert fault.seat == outcome.seat_pairs[1]
    assert outcome.ended_by == "fault"
    assert outcome.record["result"]["ended_by"] == "fault"
    assert outcome.record["faults"] == [fault.to_json()]
    assert verify(outcome.record) == []
    # The faulting entry is last; the other two by score (equal scores share 1st).
    assert outcome.places[1] == 3
    s0, s2 = outcome.scores[0], outcome.scores[2]
    expected = (1, 1) if s0 == s2 else ((1, 2) if s0 > s2 else (2, 1))
    assert (outcome.places[0], outcome.places[2]) == expected


@pytest.mark.parametrize(("bot", "kind"), MISBEHAVIOURS, ids=[m[0] for m in MISBEHAVIOURS])
def test_misbehaving_bot_yields_its_fault_and_is_restarted(tmp_path, bot, kind):
    bad = fixture_bot(tmp_path, bot)
    result = play_match(spec(good_teams(tmp_path, bad), games=2))

    assert len(result.games) == 2
    for outcome in result.games:
        check_fault_game(outcome, kind, bot)
    # A fresh process for each game (the forker's children are listed too).
    per_process = 2 if bot == "forker" else 1
    assert len(pids(tmp_path, bot)) == 2 * per_process
    # The five good bots were started once and kept for both games.
    assert len(pids(tmp_path, "good")) == 5
    assert survivors(tmp_path) == []


def test_fault_quotes_the_offending_line(tmp_path):
    bad = fixture_bot(tmp_path, "garbage")
    result = play_match(spec(good_teams(tmp_path, bad), games=1))
    (fault,) = result.games[0].faults
    assert fault.offending == "this is not json {"
    assert "not JSON" in fault.detail


def test_wrong_id_fault_names_both_ids(tmp_path):
    bad = fixture_bot(tmp_path, "wrong_id")
    result = play_match(spec(good_teams(tmp_path, bad), games=1))
    (fault,) = result.games[0].faults
    assert '"action": "pass"' in fault.offending
    assert "while request" in fault.detail


def test_crash_fault_carries_the_stderr_tail(tmp_path):
    bad = fixture_bot(tmp_path, "quitter")
    result = play_match(spec(good_teams(tmp_path, bad), games=1))
    (fault,) = result.games[0].faults
    assert "quitter: leaving the table now" in fault.stderr_tail


def test_illegal_card_fault_says_why(tmp_path):
    bad = fixture_bot(tmp_path, "illegal")
    result = play_match(spec(good_teams(tmp_path, bad), games=1))
    (fault,) = result.games[0].faults
    assert fault.detail.startswith("illegal action 'play ")
    assert fault.offending.startswith('{"type": "action"')


def test_a_10_mb_line_is_cut_short_in_the_fault(tmp_path):
    bad = fixture_bot(tmp_path, "long_line")
    result = play_match(spec(good_teams(tmp_path, bad), games=1))
    (fault,) = result.games[0].faults
    assert len(fault.offending) <= 300
    assert len(fault.to_json()["offending"]) <= 300


def test_sleeping_bot_times_out_after_move_plus_bank(tmp_path):
    bad = fixture_bot(tmp_path, "sleeper", "--at", "1")  # at once, so the bank is whole
    tc = TimeControl(move=0.3, bank=0.4, handshake=10.0)
    result = play_match(spec(good_teams(tmp_path, bad), games=1, time_control=tc))
    check_fault_game(result.games[0], FaultKind.TIMEOUT, "sleeper")
    assert result.games[0].faults[0].detail == "no answer within 0.700 s"
    assert survivors(tmp_path) == []


def test_silent_bot_fails_the_handshake(tmp_path):
    bad = fixture_bot(tmp_path, "silent")
    tc = TimeControl(move=1.0, bank=2.0, handshake=2.0)
    result = play_match(spec(good_teams(tmp_path, bad), games=1, time_control=tc))
    check_fault_game(result.games[0], FaultKind.HANDSHAKE, "silent")
    assert "no answer within" in result.games[0].faults[0].detail
    assert survivors(tmp_path) == []


def test_memory_hog_crashes_under_the_memory_limit(tmp_path):
    bad = fixture_bot(tmp_path, "memory_hog")
    limits = Limits(memory_mb=256)
    result = play_match(spec(good_teams(tmp_path, bad), games=1, limits=limits))
    check_fault_game(result.games[0], FaultKind.CRASH, "memory_hog")
    assert "MemoryError" in result.games[0].faults[0].stderr_tail
    assert survivors(tmp_path) == []


def test_a_program_that_cannot_start_is_a_start_fault(tmp_path):
    bad = fixture_bot(tmp_path, "good", as_name="missing-program")
    (bad / "bot.yaml").write_text(
        "name: missing\nversion: '1'\nauthors: [x]\ncommand: [./no-such-program]\n"
    )
    result = play_match(spec(good_teams(tmp_path, bad), games=1))
    check_fault_game(result.games[0], FaultKind.START, "missing-program")
    assert survivors(tmp_path) == []


def test_a_folder_without_manifest_is_a_start_fault(tmp_path):
    bad = tmp_path / "empty-bot"
    bad.mkdir()
    result = play_match(spec(good_teams(tmp_path, bad), games=1))
    check_fault_game(result.games[0], FaultKind.START, "empty-bot")
