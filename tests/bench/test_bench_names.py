"""Every bench script names only what the bench's own modules define.

The benches import each other (``load``, ``load_gen``, ``load_stack``...), and they run by
hand, not in the suite: when ``bench/load.py`` was split into modules, ``bench/throttle.py``
kept asking ``load`` for functions that had moved or gone, and nothing said so until someone
ran it. Read from the source (no module is imported: ``load`` sets Django up with production
settings), every ``from <bench module> import name`` and every ``<bench module>.name`` must
find ``name`` defined at that module's top level."""

import ast
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
MODULES = {path.stem: path for path in BENCH.glob("*.py")}


def _defined(module: str) -> set[str]:
    """Names bound at the top level of bench/<module>.py (definitions, assignments, imports)."""
    names: set[str] = set()
    for node in ast.parse(MODULES[module].read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def _wanted(path: Path) -> list[tuple[str, str, int]]:
    """(bench module, name, line) for each name ``path`` takes from another bench module."""
    tree = ast.parse(path.read_text())
    aliases = {
        alias.asname or alias.name: alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name in MODULES
    }
    wanted = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in MODULES and not node.level:
            wanted += [(node.module, alias.name, node.lineno) for alias in node.names]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
        ):
            wanted.append((aliases[node.value.id], node.attr, node.lineno))
    return wanted


@pytest.mark.parametrize("script", sorted(MODULES), ids=str)
def test_every_name_taken_from_a_bench_module_is_defined_there(script):
    missing = [
        f"bench/{script}.py:{line}: {module}.{name}"
        for module, name, line in _wanted(MODULES[script])
        if name not in _defined(module)
    ]
    assert not missing, "names the bench modules do not define:\n" + "\n".join(missing)


def test_the_check_finds_a_name_that_moved(tmp_path, monkeypatch):
    """The check itself: a script asking ``load`` for a function it no longer has is caught."""
    script = tmp_path / "stale.py"
    script.write_text("import load\nfrom load_gen import p, submit_all\nload.build_event()\n")
    monkeypatch.setitem(MODULES, "stale", script)
    wanted = _wanted(script)
    assert ("load", "build_event", 3) in wanted and ("load_gen", "submit_all", 2) in wanted
    assert "build_event" not in _defined("load") and "p" in _defined("load_gen")
