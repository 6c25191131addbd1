"""Imports point one way: engine <- protocol <- referee <- runner <- cli (docs: STYLE)."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "arena"

# What each part of arena may import from arena (besides itself).
ALLOWED = {
    "engine": set(),
    "protocol": {"engine"},
    "process": set(),
    "sdk": {"engine", "protocol"},
    "referee": {"engine", "protocol", "process", "replay"},
    "replay": set(),
    "schedule": {"engine", "referee"},
    "ratings": {"engine", "referee"},
    "tournament": {"engine", "referee", "process"},
    "store": {"engine", "referee", "process", "tournament", "schedule", "ratings"},
    "publish": {"engine", "referee", "ratings", "store"},
    "runner": {
        "engine",
        "referee",
        "process",
        "schedule",
        "ratings",
        "store",
        "tournament",
        "publish",
    },
    "bench_match": {"engine", "protocol", "referee", "process"},
}


def part_of(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return rel.parts[0].removesuffix(".py")


def arena_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's own package
                package = ["arena", *path.relative_to(ROOT).parent.parts]
                base = package[: len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
                names = [module] if node.module else [f"{module}.{a.name}" for a in node.names]
            else:
                names = [node.module or ""]
        else:
            continue
        for name in names:
            if name.startswith("arena.") and len(name.split(".")) > 1:
                found.add(name.split(".")[1])
    return found


SOURCES = sorted(p for p in ROOT.rglob("*.py") if p.parent != ROOT or p.name != "__init__.py")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_one_way(path):
    part = part_of(path)
    imported = arena_imports(path) - {part}
    if part == "cli":
        return  # the CLI may import everything
    assert "cli" not in imported, f"{path} imports the CLI"
    allowed = ALLOWED.get(part)
    assert allowed is not None, f"{part} is a new part of arena: give it a place in ALLOWED"
    assert imported <= allowed, f"{path} imports {sorted(imported - allowed)}"


def test_engine_uses_only_the_standard_library():
    stdlib = set(sys.stdlib_module_names)
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                tops = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = [(node.module or "").split(".")[0]]
            else:
                continue
            for top in tops:
                assert top in stdlib or top == "__future__", f"{path} imports {top}"
