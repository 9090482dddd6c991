"""No import circles between gamecert's modules, and no import back up the flow (the guide:
data flows one way, spec to engine and oracles, to search, to findings, to reports).

Every module of the installed package `gamecert` is read with `ast`, as the repository lays
it out (pyproject's package-dir). All its imports count: module-level ones, ones inside
functions (a lazy import hides a circle, it does not remove it) and ones under
`if TYPE_CHECKING:`. `from package import name` is an edge to the submodule when `name` is
one, else to the package itself. The test fails on any cycle and names its modules in order.

The layers (`LAYERS`, docs/architecture.md's map) order the folders: a module may import its
own folder and the folders of earlier layers, never a later layer's nor a sibling's in its
own layer (the reference engines and the oracles are written apart). A back edge is fixed
by moving code; none is excused.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The flow, lowest first; folders in one layer are siblings. A folder is a module's package
# under `gamecert` (`fuzz.step`, `oracles`); `gamecert` is the package root (`package/`:
# the public API and `python -m gamecert`), `adapters` its adapter kit.
LAYERS: list[tuple[str, ...]] = [
    ("schemas",),
    ("spec",),  # the rule catalogues, validated by the schemas
    ("reference_engine", "oracles"),  # the rules twice, written apart
    ("fuzz", "fuzz.atomic_write", "fuzz.engines"),  # files written whole; engines under test
    ("fuzz.step",),  # the lockstep: one step played on two engines and judged
    ("fuzz.findings",),  # triage, minimising, traces, baselines, chance statistics
    ("fuzz.games",),  # each game's search knowledge (starts, play, probes, ...)
    ("fuzz.search",),  # the state machine, rounds, runners, campaigns
    ("fuzz.reports", "fuzz.botcheck"),  # certificates; the bot harness
    ("fuzz.cli",),  # the command line and the pytest plugin
    ("adapters", "gamecert"),  # the adapter kit; the public API
]


def modules() -> dict[str, Path]:
    """Module name -> source file, for every module of the package as it installs."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    dirs: dict[str, str] = setup["package-dir"]
    out: dict[str, Path] = {}
    for package in setup["packages"]:
        # the longest package-dir prefix maps the package to its folder
        base = max((p for p in dirs if package == p or package.startswith(p + ".")), key=len)
        folder = ROOT / dirs[base] / Path(*package[len(base):].split(".")[1:])
        for path in sorted(folder.glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            out[name] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The gamecert modules `name` imports, anywhere in its source."""
    is_package = path.stem == "__init__"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = name.split(".")
                keep = len(parts) - node.level + (1 if is_package else 0)
                base = ".".join(parts[:keep] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:
                    out.add(sub)
                elif base in known:
                    out.add(base)
    out.discard(name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(one_cycle(graph, set(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def one_cycle(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A path from the first module of the component back to itself, inside it."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & component):
            if w == start:
                return [*paths[v], start]
            if w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    raise AssertionError("a strongly connected component always has a cycle")


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_package_is_read_whole() -> None:
    g = graph()
    assert "gamecert.reference_engine.carcassonne.engine" in g
    assert "gamecert.fuzz.cli.main" in g and len(g) > 40
    assert "gamecert.reference_engine.carcassonne.state" in (
        g["gamecert.reference_engine.carcassonne.engine"])


def test_no_import_cycles_between_gamecert_modules() -> None:
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_the_cycle_finder_sees_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    """The detector itself: a function-level import closing a circle is a cycle."""
    a = tmp_path / "a.py"
    b = tmp_path / "b.py"
    a.write_text("from pkg import b\n")
    b.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.c\n"
                 "def f():\n    from pkg.a import thing\n")
    known = {"pkg.a": a, "pkg.b": b, "pkg.c": tmp_path / "c.py"}
    (tmp_path / "c.py").write_text("")
    g = {name: imports(name, path, known) for name, path in known.items()}
    assert g["pkg.b"] == {"pkg.a", "pkg.c"}
    assert cycles(g) == [["pkg.a", "pkg.b", "pkg.a"]]


def folder(module: str) -> str:
    """The folder (a key of `LAYERS`) a gamecert module belongs to."""
    parts = module.split(".")[1:]
    if not parts or parts[0] == "__main__":
        return "gamecert"
    if parts[0] == "fuzz" and len(parts) > 1:
        return "fuzz." + parts[1]
    return parts[0]


def back_edges(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a later layer's module, or of a sibling folder's in the same layer."""
    rank = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    found = []
    for module, imported in sorted(graph.items()):
        here = folder(module)
        for other in sorted(imported):
            there = folder(other)
            if there != here and rank[there] >= rank[here]:
                found.append(f"{module} ({here}) imports {other} ({there})")
    return found


def test_every_folder_has_a_layer() -> None:
    ranked = {name for layer in LAYERS for name in layer}
    assert {folder(m) for m in graph()} <= ranked
    assert folder("gamecert.fuzz.step.lockstep") == "fuzz.step"
    assert folder("gamecert.__main__") == folder("gamecert") == "gamecert"


def test_no_import_runs_back_up_the_flow() -> None:
    found = back_edges(graph())
    assert not found, "imports against the flow:\n" + "\n".join(found)


def test_the_layer_check_sees_back_and_sibling_edges() -> None:
    """The checker itself: a lower layer importing a higher one, and a sibling importing a
    sibling, are both found; imports down the flow and inside a folder are not."""
    g = {
        "gamecert.fuzz.step.lockstep": {"gamecert.fuzz.search.campaign",
                                        "gamecert.fuzz.engines.engine",
                                        "gamecert.fuzz.step.judge"},
        "gamecert.oracles.flit": {"gamecert.reference_engine.flit", "gamecert.spec"},
        "gamecert.fuzz.cli.main": {"gamecert.fuzz.search.campaign"},
    }
    assert back_edges(g) == [
        "gamecert.fuzz.step.lockstep (fuzz.step) imports gamecert.fuzz.search.campaign "
        "(fuzz.search)",
        "gamecert.oracles.flit (oracles) imports gamecert.reference_engine.flit "
        "(reference_engine)"]
