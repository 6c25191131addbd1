"""The standings and head-to-head tables of a night in every output format.

Text, Markdown and HTML are laid out by ``tabulate``; CSV (the ``csv`` module) and JSON (the
``json`` module) carry the same figures as plain fields so that they parse back.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from enum import Enum

from tabulate import tabulate

from arena.ratings import HeadToHead, Standing

__all__ = ["Format", "h2h_table", "standings_table"]


class Format(Enum):
    TEXT = "text"
    MARKDOWN = "markdown"
    HTML = "html"
    CSV = "csv"
    JSON = "json"


_TABULATE = {Format.TEXT: "simple", Format.MARKDOWN: "github", Format.HTML: "html"}

_STANDING_FIELDS = (
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
)


def _standing_record(s: Standing) -> dict:
    return {
        "rank": s.rank,
        "team": s.name,
        "rating": round(s.rating, 3),
        "mu": round(s.mu, 3),
        "sigma": round(s.sigma, 3),
        "games": s.games,
        "firsts": s.firsts,
        "average_place": round(s.average_place, 3),
        "average_score": round(s.average_score, 2),
        "bids_made": s.bids_made,
        "bids_taken": s.bids_taken,
        "faults": s.faults,
    }


def standings_table(night: str, rows: Sequence[Standing], fmt: Format) -> str:
    """The standings of the night called ``night``, best first."""
    records = [_standing_record(s) for s in rows]
    if fmt is Format.JSON:
        return json.dumps({"tournament": night, "standings": records}, indent=2) + "\n"
    if fmt is Format.CSV:
        return _csv(_STANDING_FIELDS, records)
    headers = [
        "#",
        "team",
        "rating (mu-3*sigma)",
        "mu",
        "sigma",
        "games",
        "1st",
        "avg place",
        "avg score",
        "bids made/taken",
        "faults",
    ]
    body = [
        [
            s.rank,
            s.name,
            f"{s.rating:.2f}",
            f"{s.mu:.2f}",
            f"{s.sigma:.2f}",
            s.games,
            s.firsts,
            f"{s.average_place:.2f}",
            f"{s.average_score:.1f}",
            f"{s.bids_made}/{s.bids_taken}",
            s.faults,
        ]
        for s in rows
    ]
    return _layout(f"Standings: {night}", headers, body, fmt)


def h2h_table(night: str, h2h: HeadToHead, fmt: Format) -> str:
    """How often each team (row) finished above each other team (column) in the games they
    shared: ``above/games``."""
    n = len(h2h.names)
    pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
    records = [
        {
            "team": h2h.names[a],
            "opponent": h2h.names[b],
            "above": h2h.above[a][b],
            "below": h2h.above[b][a],
            "games": h2h.together[a][b],
        }
        for a, b in pairs
    ]
    if fmt is Format.JSON:
        return json.dumps({"tournament": night, "head_to_head": records}, indent=2) + "\n"
    if fmt is Format.CSV:
        return _csv(("team", "opponent", "above", "below", "games"), records)
    headers = ["team above →", *h2h.names]
    body = [
        [
            h2h.names[a],
            *("—" if a == b else f"{h2h.above[a][b]}/{h2h.together[a][b]}" for b in range(n)),
        ]
        for a in range(n)
    ]
    return _layout(
        f"Head to head: {night} (games finished above the column's team)", headers, body, fmt
    )


def _csv(fields: Sequence[str], records: Sequence[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(fields), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return out.getvalue()


def _layout(title: str, headers: list[str], body: list[list], fmt: Format) -> str:
    table = tabulate(body, headers=headers, tablefmt=_TABULATE[fmt], disable_numparse=True)
    if fmt is Format.HTML:
        from html import escape

        return f"<h2>{escape(title)}</h2>\n{table}\n"
    if fmt is Format.MARKDOWN:
        return f"## {title}\n\n{table}\n"
    return f"{title}\n\n{table}\n"
