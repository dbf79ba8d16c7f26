"""The shape of the product code, read from its source (no imports run):

- no circle of imports among product modules (``tournaments``, ``scoring``, ``config``),
  counting imports inside functions too, since they are the same dependency, only later;
- no module takes a private name (``_name``) from another;
- every ``job_enqueue`` names a task the Celery app has registered.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tournaments.services.jobs import job_enqueue

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tournaments", "scoring", "config")


def _modules() -> dict[str, ast.Module]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = ast.parse(path.read_text(), filename=str(path))
    return found


MODULES = _modules()


def _imports(tree: ast.Module):
    """(imported module, names taken from it) for every import in the tree, at any depth."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, tree in MODULES.items():
        for module, names in _imports(tree):
            targets = [module] + [f"{module}.{n}" for n in names]  # "from pkg import module"
            graph[name].update(t for t in targets if t in MODULES and t != name)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == node:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for node in graph:
        if node not in index:
            visit(node)
    return circles


def test_the_reader_sees_the_whole_product():
    assert {"tournaments.tasks", "tournaments.services.jobs", "scoring"} <= set(MODULES)
    assert len(MODULES) > 150


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_circle_of_imports():
    assert _circles(_graph()) == []


def test_no_private_name_taken_from_another_module():
    taken = [
        f"{name} takes {module}.{imported}"
        for name, tree in MODULES.items()
        for module, names in _imports(tree)
        if module in MODULES
        for imported in names
        if imported.startswith("_") and not imported.startswith("__")
    ]
    assert taken == []


def _enqueued_task_names() -> list[str]:
    names = []
    for tree in MODULES.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "job_enqueue":
                task = next(k.value for k in node.keywords if k.arg == "task")
                assert isinstance(task, ast.Constant), ast.unparse(node)
                names.append(task.value)
    return names


def test_every_job_names_a_registered_task():
    from config.celery import app

    names = _enqueued_task_names()
    assert len(names) >= 11  # every call site in the product today
    assert [name for name in names if name not in app.tasks] == []


@pytest.mark.django_db
def test_an_unknown_task_name_is_refused_before_a_job_is_made():
    from tournaments.models import Job

    with pytest.raises(LookupError, match="tournaments.tasks.pair_gmae"):
        job_enqueue(kind="pairing", key="event:1:1", task="tournaments.tasks.pair_gmae")
    assert not Job.objects.exists()


# What names a person rather than an entry: an account link, a rating, a win chance, a club
# award, a night card, a player's own page, a name match.
PERSON_HOLDERS = {"link", "rating", "prediction", "award", "card", "page", "c", "candidate"}


def test_entries_are_named_through_the_entrant_seam():
    """``Entry.name`` and ``selectors.entrants`` name an entry; nothing reaches past them to
    the player's name (tests/tournaments/entrants/test_seam.py checks the pages themselves)."""
    import re

    sources = [p for p in (ROOT / "tournaments").rglob("*.py") if "migrations" not in p.parts]
    sources += list((ROOT / "templates").rglob("*.html")) + list(
        (ROOT / "templates").rglob("*.txt")
    )
    reached = []
    for path in sources:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for found in re.finditer(r"\b(\w+)\.player\.name\b|\"(?:entry__)?player__name\"", line):
                if found.group(1) not in PERSON_HOLDERS:
                    reached.append(f"{path.relative_to(ROOT)}:{number}: {found.group(0)}")
    allowed = {
        "tournaments/models/events.py": "ENTRANT_NAME itself",
        "tournaments/selectors/players.py": "the national MRP table ranks people",
        "tournaments/selectors/clubs.py": "club ratings and night cards are a person's",
    }
    assert [r for r in reached if r.split(":")[0] not in allowed] == []
