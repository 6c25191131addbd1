"""``arena bench match`` runs and reports its figures (no speed is asserted)."""

from __future__ import annotations

from click.testing import CliRunner

from arena.cli import main


def test_bench_match_prints_rates_ratio_and_start_up():
    result = CliRunner().invoke(
        main, ["bench", "match", "--games", "1", "--rounds", "2"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split(":")[0].strip() for line in lines] == [
        "referee + SDK",
        "bare echo",
        "ratio",
        "rounds",
        "echo, 6 bots",
        "echo, orjson",
        "start-up",
    ]
    assert "decisions/s" in lines[0]
    assert "round trips/s" in lines[1]
    round_ratios = lines[3].split(":")[1].split("(")[0].split()
    assert len(round_ratios) == 2 and all(float(r) > 0 for r in round_ratios)
