"""Nothing in the repository reaches outside it: a user's clone has nothing beside it.

Every tracked file outside docs/ is read as text and must not name the source documents'
folder beside the repository (`shared/...` as a path), nor reach above the repository root
(a `Path(__file__).parents[N]` higher than the root, a `../` path, an absolute path into the
machine the project was written on). docs/ may name the folder, to say where facts came from.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()

SHARED_PATH = re.compile(r"\bshared/")
UP_PATH = re.compile(r"""(?:^|["'\s(=/])\.\./""")
ABSOLUTE_WORK = re.compile(r"""["'\s]/work/""")
ENV_NAME = "GAMECERT_" + "SHARED"  # spelt in two parts: this file names it, never reads it
ENV_SHARED = re.compile(ENV_NAME)
PARENTS = re.compile(r"parents\[(\d+)\]")
# JavaScript's require() and import resolve a relative path against the file itself, so in
# the Node.js kit '../..' stays inside the repository while it climbs no higher than the
# file's own depth; elsewhere (a Python path is the working folder's) any ../ is refused.
JS = (".js", ".cjs", ".mjs")
UPS = re.compile(r"""(?:^|["'\s(=/])((?:\.\.(?:/|(?=["'\s)`]|$)))+)""")


def tracked_files() -> list[str]:
    """The files git tracks (the work tree when this is not a git checkout, e.g. an sdist)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             timeout=60, check=True).stdout.decode("utf-8")
        files = [f for f in out.split("\0") if f]
    except (OSError, subprocess.SubprocessError):
        files = []
    if not files:
        skip = {".git", ".tox", ".venv", "build", "dist", "__pycache__"}
        files = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(ROOT).parts)
                 and not any(part.endswith(".egg-info") for part in p.parts)]
    return sorted(files)


def problems(path: str, text: str) -> list[str]:
    """Each way `text` (the content of tracked file `path`) names or reads outside the
    repository, as 'path:line: what'."""
    depth = path.count("/")  # parents[depth] of a file at that depth is the repository root
    out: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        if SHARED_PATH.search(line):
            out.append(f"{path}:{n}: names the shared/ folder beside the repository")
        if path.endswith(JS):
            out += [f"{path}:{n}: a ../ path above the repository"
                    for ups in UPS.findall(line) if ups.count("..") > depth]
        elif UP_PATH.search(line):
            out.append(f"{path}:{n}: a ../ path")
        if ABSOLUTE_WORK.search(line):
            out.append(f"{path}:{n}: an absolute /work/ path")
        if ENV_SHARED.search(line):
            out.append(f"{path}:{n}: reads the shared folder through ${ENV_NAME}")
        out += [f"{path}:{n}: parents[{m}] leaves the repository (root is parents[{depth}])"
                for m in map(int, PARENTS.findall(line)) if m > depth]
    return out


def test_the_file_list_is_the_repository() -> None:
    files = tracked_files()
    assert SELF in files
    assert "spec/botwars.json" in files and "pyproject.toml" in files


def test_no_tracked_file_outside_docs_names_or_reads_outside_the_repository() -> None:
    found: list[str] = []
    for path in tracked_files():
        if path == SELF or path.startswith("docs/") or not (ROOT / path).is_file():
            continue
        text = (ROOT / path).read_bytes().decode("utf-8", errors="replace")
        found += problems(path, text)
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("path", "line"), [
    ("tests/botwars/boards.py", 'shared = Path(__file__).resolve().parents[3] / "sha' + 'red"'),
    ("tests/x.py", 'path = "shared/seeds/002.txt"'),
    ("spec/botwars.json", '"file": "shared/rules/botwars.md"'),
    ("tests/x.py", 'open("../sha' + 'red/seeds/README.md")'),
    ("fuzz/x.py", f'base = os.environ.get("{ENV_NAME}")'),
    ("tests/x.py", 'Path("/work/shared/seeds")'),
    ("package/adapters/node/test/x.test.mjs", "import data from '../../../../../../data.json';"),
    ("package/adapters/node/toys.cjs", "const x = require('../../../..');"),
])
def test_each_way_out_is_caught(path: str, line: str) -> None:
    assert problems(path, line)


@pytest.mark.parametrize(("path", "line"), [
    ("tests/botwars/conftest.py", "ROOT = Path(__file__).resolve().parents[2]"),
    ("examples/engines/flit-js/bench.py", "ROOT = Path(__file__).resolve().parents[3]"),
    ("oracles/base.py", '"""The oracle shape shared by every game."""'),
    ("spec/carcassonne.json", '"chosen": "shared",'),
    ("tests/x.py", 'PICTURES = Path(__file__).parent / "data" / "battle_pictures.json"'),
    ("package/adapters/node/test/fixtures/counter-wire.cjs",
     "const { serve } = require('../..');"),
    ("package/adapters/node/test/wire.test.mjs", "import * as esm from '../index.mjs';"),
])
def test_paths_inside_the_repository_pass(path: str, line: str) -> None:
    assert problems(path, line) == []
