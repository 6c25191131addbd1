"""Tables: every format of the standings and head-to-head tables parses back or shows every team."""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser

import pytest

from arena.publish import Format, h2h_table, standings_table
from arena.ratings import head_to_head, standings
from arena.store import StoredGame

NAMES = ["random", "greedy", "mixed <r&g>", "node, random"]


def game(order, entries, places, scores):
    return StoredGame(
        order, 0, order, 1, entries, (0, 1, 2), places, scores, (1, 1, 1), (1, 0, 1), "x"
    )


GAMES = [
    game(0, (0, 1, 2), (2, 1, 3), (10, 21, -3)),
    game(1, (0, 1, 3), (3, 1, 2), (4, 25, 9)),
    game(2, (1, 2, 3), (1, 2, 2), (22, 7, 7)),
    game(3, (0, 2, 3), (1, 3, 2), (21, 0, 12)),
]
ROWS = standings(NAMES, dict.fromkeys(range(4)), GAMES, {3: 2})
H2H = head_to_head(NAMES, GAMES)


def test_standings_csv_parses_back():
    text = standings_table("night", ROWS, Format.CSV)
    records = list(csv.DictReader(io.StringIO(text)))
    assert [r["team"] for r in records] == [r.name for r in ROWS]
    first = records[0]
    assert list(first) == [
        "rank",
        "team",
        "rating",
        "mu",
        "sigma",
        "games",
        "firsts",
        "average_place",
        "average_score",
        "bids_made",
        "bids_taken",
        "faults",
    ]
    for record, row in zip(records, ROWS, strict=True):
        assert int(record["rank"]) == row.rank
        assert float(record["rating"]) == pytest.approx(row.rating, abs=1e-3)
        assert int(record["games"]) == row.games
        assert int(record["faults"]) == row.faults
        assert int(record["bids_made"]) == row.bids_made


def test_standings_json_parses_back():
    data = json.loads(standings_table("night one", ROWS, Format.JSON))
    assert data["tournament"] == "night one"
    assert [r["team"] for r in data["standings"]] == [r.name for r in ROWS]
    node = next(r for r in data["standings"] if r["team"] == "node, random")
    assert (node["games"], node["faults"], node["firsts"]) == (3, 2, 0)
    assert node["average_score"] == pytest.approx(28 / 3, abs=0.01)


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells: list[str] = []
        self._in = False

    def handle_starttag(self, tag, attrs):
        self._in = tag in ("td", "th")
        if self._in:
            self.cells.append("")

    def handle_endtag(self, tag):
        if self._in:
            self.cells[-1] = self.cells[-1].strip()
        self._in = False

    def handle_data(self, data):
        if self._in:
            self.cells[-1] += data


@pytest.mark.parametrize("fmt", [Format.TEXT, Format.MARKDOWN])
def test_standings_text_and_markdown_show_every_team(fmt):
    text = standings_table("night", ROWS, fmt)
    assert "night" in text.splitlines()[0]
    for row in ROWS:
        line = next(line for line in text.splitlines() if row.name in line)
        assert f"{row.rating:.2f}" in line
        assert f"{row.bids_made}/{row.bids_taken}" in line
    if fmt is Format.MARKDOWN:
        assert "| team" in text


def test_standings_html_shows_every_team_escaped():
    text = standings_table("night", ROWS, Format.HTML)
    parser = _Cells()
    parser.feed(text)
    for row in ROWS:
        assert row.name in parser.cells
    assert "mixed &lt;r&amp;g&gt;" in text


def test_h2h_csv_and_json_parse_back():
    records = list(csv.DictReader(io.StringIO(h2h_table("n", H2H, Format.CSV))))
    assert len(records) == 4 * 3
    pair = next(r for r in records if r["team"] == "greedy" and r["opponent"] == "random")
    assert (pair["above"], pair["below"], pair["games"]) == ("2", "0", "2")
    data = json.loads(h2h_table("n", H2H, Format.JSON))
    assert data["head_to_head"] == [
        {**r, **{k: int(r[k]) for k in ("above", "below", "games")}} for r in records
    ]


@pytest.mark.parametrize("fmt", [Format.TEXT, Format.MARKDOWN])
def test_h2h_text_and_markdown_show_every_team(fmt):
    text = h2h_table("n", H2H, fmt)
    lines = text.splitlines()
    for name in NAMES:
        assert any(line.strip("| ").startswith(name) for line in lines)
    greedy_row = next(line for line in lines if line.strip("| ").startswith("greedy"))
    if fmt is Format.MARKDOWN:
        cells = [c.strip() for c in greedy_row.strip("|").split("|")]
    else:
        cells = re.split(r"\s{2,}", greedy_row.strip())
    # greedy finished above every other team in every game they shared
    assert cells == ["greedy", "2/2", "—", "2/2", "2/2"]


def test_h2h_html_shows_every_team():
    parser = _Cells()
    parser.feed(h2h_table("n", H2H, Format.HTML))
    for name in NAMES:
        assert name in parser.cells
    n = len(NAMES) + 1
    rows = [parser.cells[i : i + n] for i in range(0, len(parser.cells), n)]
    greedy = next(r for r in rows if r[0] == "greedy")
    assert greedy == ["greedy", "2/2", "—", "2/2", "2/2"]
