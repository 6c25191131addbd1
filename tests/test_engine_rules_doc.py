"""docs/rules.md stays honest: rules 1-23 in order, and every test it names exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
REFERENCE = re.compile(r"\b([a-z]+)::(test_\w+)")


def items(text: str) -> list[str]:
    """The numbered rules and the bulleted arena rulings, each as one block of text."""
    return re.split(r"\n(?=\d+\. |- \*\*A\d)", text)


def test_the_rules_are_numbered_1_to_23_like_the_rules_brief():
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", DOC, re.MULTILINE)]
    assert numbers == list(range(1, 24))


def test_every_test_the_rules_name_exists():
    named = set(REFERENCE.findall(DOC))
    assert len(named) > 50
    for module, name in named:
        source = (ROOT / "tests" / f"test_engine_{module}.py").read_text(encoding="utf-8")
        assert re.search(rf"^def {name}\(", source, re.MULTILINE), f"{module}::{name}"


def test_every_chosen_ruling_names_its_test():
    chosen = [item for item in items(DOC) if "**Chosen:**" in item]
    assert len(chosen) >= 8  # rules 6, 9, 20, 23 and arena rulings A1, A2, A4 ...
    for item in chosen:
        assert REFERENCE.search(item), item[:80]


def test_the_arena_rulings_a1_to_a5_are_stated():
    assert re.findall(r"^- \*\*(A\d)\.", DOC, re.MULTILINE) == ["A1", "A2", "A3", "A4", "A5"]
