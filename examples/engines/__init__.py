"""Example engines, and where each one's module is.

`flit/`, `botwars/`, `carcassonne/` and `kingdomino/` hold each game's mutants, grouped in
subfolders by rule area (`carcassonne/river/`, `kingdomino/draft/`, ...); `hostile/` holds
the engines that misbehave on the wire, grouped by what they do (`crashes/`, `hangs/`,
`garbage/`, `lies/`). A game's `__init__` lists its mutants by name (`MUTANTS`, `COMPOUNDS`,
`SEASONS`, ...): a name is unique in its folder, and the functions below find its module, so
a test, a benchmark or a command never spells the area. Nothing here may import gamecert:
listing the examples must not load an engine.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


@cache
def _index(folder: str) -> dict[str, Path]:
    """Every module in the subfolders of examples/engines/<folder>/, by name."""
    root = HERE / folder
    if not root.is_dir():
        raise LookupError(f"no folder examples/engines/{folder}/")
    found: dict[str, Path] = {}
    for path in sorted(root.glob("*/*.py")):
        if path.stem == "__init__":
            continue
        if path.stem in found:  # a name must say one module, whatever its area
            raise LookupError(f"examples/engines/{folder}/: two modules named {path.name} "
                              f"({found[path.stem].parent.name}/ and {path.parent.name}/)")
        found[path.stem] = path
    return found


def path_of(folder: str, name: str) -> Path:
    """The file of example engine `name` of examples/engines/<folder>/ (e.g. "flit",
    "hostile"), for the `python path/to/file.py` forms."""
    index = _index(folder)
    if name not in index:
        areas = ", ".join(sorted({p.parent.name for p in index.values()}))
        raise LookupError(f"examples/engines/{folder}/: no module {name}.py in any of its "
                          f"subfolders ({areas})")
    return index[name]


def module_of(folder: str, name: str) -> str:
    """The dotted module of example engine `name`, e.g. module_of("carcassonne",
    "uturn_allowed") == "examples.engines.carcassonne.river.uturn_allowed"."""
    return f"examples.engines.{folder}.{path_of(folder, name).parent.name}.{name}"


def load(folder: str, name: str) -> ModuleType:
    """Example engine `name`'s module, imported."""
    return importlib.import_module(module_of(folder, name))


def engine_spec(folder: str, name: str, wrapper: str = "", attribute: str = "ENGINE") -> str:
    """The `--engine` text for example engine `name`: `module:ENGINE`, behind `wrapper`
    ("bare", "minimal") if given."""
    spec = f"{module_of(folder, name)}:{attribute}"
    return f"{wrapper}:{spec}" if wrapper else spec
