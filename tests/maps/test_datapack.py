"""Writing the data pack into a world: only what differs, and nothing of another release left."""

from __future__ import annotations

from pathlib import Path

from controller.maps.datapack import install_pack
from controller.versions import release
from controller.world.datapack import build


def _tree(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_a_new_release_replaces_the_old_folders(tmp_path: Path) -> None:
    folder = tmp_path / "pipesctl"
    old, new = build(release("1.20.6")), build(release("1.21"))
    install_pack(folder, old)
    done = install_pack(folder, new)
    assert {i.action for i in done if i.path.name == "pack.mcmeta"} == {"update"}
    assert sum(i.action == "remove" for i in done) == len(old) - 1  # all but pack.mcmeta
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert files == sorted(new)
    assert not any("functions" in part or "advancements" in part for part in _tree(folder))
    assert all(any(p.iterdir()) for p in folder.rglob("*") if p.is_dir())  # no empty folder
    assert {i.action for i in install_pack(folder, new)} == {"unchanged"}
