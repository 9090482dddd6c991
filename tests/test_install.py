"""One import package: the wheel holds `gamecert` and its dist-info, nothing else, and a
certify works beside packages that are named like our folders (`fuzz`, `spec`, `schemas`).

The wheel is built without its dependencies and installed into a folder of its own; the
dependencies come from the environment running the tests, so no network is needed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                    "-q", "-w", str(out), str(ROOT)], check=True, timeout=300)
    [whl] = out.glob("gamecert-*.whl")
    return whl


def test_the_wheel_has_one_top_level_package(wheel: Path) -> None:
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"gamecert"}
    names = zipfile.ZipFile(wheel).namelist()
    assert "gamecert/spec/flit.json" in names and "gamecert/schemas/report.schema.json" in names
    assert "gamecert/py.typed" in names
    # the Node.js adapter kit ships inside (python -m gamecert.adapters.node_path)
    node = {n for n in names if n.startswith("gamecert/adapters/node/")}
    assert {"gamecert/adapters/node/package.json", "gamecert/adapters/node/index.cjs",
            "gamecert/adapters/node/index.mjs", "gamecert/adapters/node/README.md"} <= node
    kit = ROOT / "package" / "adapters" / "node"
    assert node == {f"gamecert/adapters/node/{p.relative_to(kit).as_posix()}"
                    for p in kit.rglob("*") if p.is_file() and "node_modules" not in p.parts}


def test_every_subpackage_is_listed_in_pyproject() -> None:
    import tomllib

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    folders = {name: Path(folder) for name, folder in cfg["package-dir"].items()}
    found = set()
    for name, folder in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *rel)))
    assert found == listed


def test_certify_beside_same_named_packages(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True, timeout=300)
    assert sorted(p.name for p in site.iterdir() if p.name != "bin") == \
        sorted(["gamecert", next(p.name for p in site.iterdir() if p.name.endswith("dist-info"))])
    others = tmp_path / "others"  # what `pip install fuzz spec schemas` would bring
    for name in ("fuzz", "spec", "schemas", "oracles"):
        (others / name).mkdir(parents=True)
        (others / name / "__init__.py").write_text(f"WHO = 'the other {name}'\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(others), str(site)])}
    work = tmp_path / "work"
    work.mkdir()
    code = ("import fuzz, spec, schemas, gamecert, sys\n"
            "assert fuzz.WHO == 'the other fuzz' and spec.WHO == 'the other spec'\n"
            "assert gamecert.__file__.startswith(sys.argv[1]), gamecert.__file__\n"
            "from gamecert.fuzz.cli.main import main\n"
            "code = main(['certify', 'carcassonne', '--engine', 'reference', '--rounds', '1',\n"
            "             '--quiet'])\n"
            "assert code in (0, 4), code\n"
            "sys.exit(main(['certify', 'flit', '--rounds', '2', '--quiet']))\n")
    done = subprocess.run([sys.executable, "-c", code, str(site)], cwd=work, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 4), done.stdout + done.stderr  # certified or incomplete
    assert "RULES VIOLATED" not in done.stdout and "ENGINE UNUSABLE" not in done.stdout
    assert "-m gamecert serve flit" in done.stdout  # the bundled engine ran as a subprocess
    assert not (work / ".hypothesis").exists()  # nothing written in the user's folder
