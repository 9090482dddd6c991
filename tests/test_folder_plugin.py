"""The one game plugin (fuzz/games/folder_plugin.py): built from a game folder's job files, it
has exactly the attributes each game's own plugin class had before issue 30 (written down
here from those classes), read from the module that owns each job; a missing job file or
name is an error naming the folder and the file."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamecert.fuzz.games import plugin_for
from gamecert.fuzz.games.folder_plugin import JOBS, FolderPlugin

COMMON = {"game", "starts", "draw_action", "draw_probe", "bot_texts", "targets", "prove",
          "rule_probes", "crafted_for"}
# each game's plugin class before the generic plugin: its public attributes, run_ahead and
# the number of kinds of crafted starts; then what the seeded runs added (issue 31: Carcassonne
# plays them from a later round, `runs_from_round`)
RUNS = {"seeded_runs", "ending_actions"}
BEFORE: dict[str, tuple[set[str], tuple[int, ...] | None, int]] = {
    "flit": (COMMON | {"cheap_to_list", "run_ahead", "run_ahead_policy", "stretch_when_loading",
                       "bot_text_at"},
             (32, 128, 512, 4096), 6),
    "botwars": (COMMON | RUNS, None, 4),
    "carcassonne": (COMMON | {"play_on_action", "seeded_runs", "runs_from_round"}, None, 18),
    "kingdomino": (COMMON | {"cheap_to_list", "run_ahead"} | RUNS, (4, 8, 16), 1),
}


@pytest.mark.parametrize("game", sorted(BEFORE))
def test_each_game_plugin_has_the_jobs_its_own_class_had(game: str) -> None:
    plugin = plugin_for(game)
    attributes, run_ahead, crafted_kinds = BEFORE[game]
    assert isinstance(plugin, FolderPlugin)
    assert plugin.jobs() == attributes
    public = {n for n in dir(plugin) if not n.startswith("_")}
    assert public - {"jobs", "package", "name", "folder"} == attributes
    # the machine reads these with getattr and a default: absent means absent
    assert getattr(plugin, "run_ahead", None) == run_ahead
    assert hasattr(plugin, "run_ahead_policy") == (game == "flit")
    assert hasattr(plugin, "cheap_to_list") == (game in ("flit", "kingdomino"))
    assert hasattr(plugin, "play_on_action") == (game == "carcassonne")
    assert len(plugin.crafted_for) == crafted_kinds


@pytest.mark.parametrize("game", sorted(BEFORE))
def test_each_attribute_comes_from_the_module_that_owns_its_job(game: str) -> None:
    plugin = plugin_for(game)
    job = {j: importlib.import_module(f"gamecert.fuzz.games.{game}.{j}") for j in JOBS}
    assert plugin.game is job["starts"].GAME
    assert plugin.rule_probes is job["probes"].rule_probes
    assert plugin.crafted_for is job["crafted"].CRAFTED_FOR
    assert plugin.prove is getattr(job["proofs"], f"prove_{game}")
    if hasattr(plugin, "cheap_to_list"):
        assert plugin.cheap_to_list is job["play"].cheap_to_list
    if hasattr(plugin, "play_on_action"):
        assert plugin.play_on_action is job["play"].play_on_action


@pytest.fixture
def fake_games(tmp_path: Path) -> Iterator[Path]:
    """A folder on the path for fake game folders; their modules are forgotten after."""
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("fakegame")]:
            del sys.modules[name]


def write_game(root: Path, files: dict[str, str]) -> Path:
    folder = root / "fakegame"
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A fake game folder."""\n')
    for name, text in files.items():
        (folder / f"{name}.py").write_text(text)
    return folder


FULL = {
    "starts": "GAME = object()\ndef start_strategy(profile): return None\n",
    "crafted": "",
    "play": "def draw_action(data, ls): return None\n",
    "probes": "def draw_probe(data, ls): return None\n",
    "bot_text": "def bot_text_strategy(profile): return None\n",
    "targets": "def target_scores(ls): return {}\n",
    "proofs": "",
}


def test_a_folder_with_every_file_but_no_optional_names_has_only_the_required_jobs(
        fake_games: Path) -> None:
    write_game(fake_games, FULL)
    plugin = FolderPlugin("fakegame")
    assert plugin.jobs() == {"game", "starts", "draw_action", "draw_probe", "bot_texts",
                             "targets"}
    assert not hasattr(plugin, "prove") and not hasattr(plugin, "run_ahead")
    assert plugin.targets(None) == {}  # type: ignore[arg-type]


def test_a_missing_job_file_names_the_folder_and_the_file(fake_games: Path) -> None:
    folder = write_game(fake_games, {k: v for k, v in FULL.items() if k != "proofs"})
    with pytest.raises(LookupError) as caught:
        FolderPlugin("fakegame")
    assert f"game folder {folder}: no proofs.py" in str(caught.value)


def test_a_missing_required_name_names_the_file_and_the_name(fake_games: Path) -> None:
    folder = write_game(fake_games, {**FULL, "play": "RUN_AHEAD = (1,)\n"})
    with pytest.raises(LookupError) as caught:
        FolderPlugin("fakegame")
    assert str(caught.value) == f"game folder {folder}: play.py defines no draw_action"


def test_an_import_missing_inside_a_job_file_is_not_taken_for_a_missing_file(
        fake_games: Path) -> None:
    write_game(fake_games, {**FULL, "targets": "import no_such_module_here\n"})
    with pytest.raises(ModuleNotFoundError, match="no_such_module_here"):
        FolderPlugin("fakegame")
