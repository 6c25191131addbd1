"""Ranking tables and reports of a league night, in text, Markdown, HTML, CSV and JSON."""

from .tables import Format, h2h_table, standings_table

__all__ = ["Format", "h2h_table", "standings_table"]
