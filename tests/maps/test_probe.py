"""Probing a world folder: level.dat, the target it gives, the session lock."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import nbtlib
import pytest

from controller.errors import UsageError
from controller.maps.install import install_pictures
from controller.maps.layout import Layout
from controller.maps.probe import (
    LevelInfo,
    check_world_folder,
    read_level_info,
    resolve_target,
    server_holds_world,
)
from controller.versions import NEWEST, OLDEST, RELEASES, Release, UnsupportedVersion, release
from controller.world.mapart import all_pictures
from tests.support.map_worlds import BASE, write_level_dat


def test_the_release_comes_from_level_dat(tmp_path: Path) -> None:
    write_level_dat(tmp_path, 4790, "26.1.2")
    assert read_level_info(tmp_path) == LevelInfo(4790, "26.1.2")
    target = resolve_target(tmp_path, None, "1.21.4")  # level.dat beats the configured version
    assert target.release is release("26.1.2")
    assert (target.layout, target.data_version) == (Layout.NAMESPACED, 4790)
    assert target.reason == "level.dat: DataVersion 4790 (26.1.2)"
    install_pictures(tmp_path, all_pictures(BASE), target)
    root = nbtlib.load(tmp_path / "data" / "minecraft" / "maps" / f"{BASE + 3}.dat")
    assert root["DataVersion"] == 4790


@pytest.mark.parametrize("target", RELEASES, ids=str)
def test_every_release_is_recognised_by_its_level_dat(tmp_path: Path, target: Release) -> None:
    """A level.dat as each release writes it (Data.DataVersion, Data.Version.Name): the same
    layout from 1.20.5 to 26.2 (docs/server-behaviour.md, "Versions: level.dat")."""
    write_level_dat(tmp_path, target.data_version, target.name)
    found = resolve_target(tmp_path, None, "26.1")
    assert found.release is target
    assert found.layout is (Layout.NAMESPACED if target.namespaced_maps else Layout.LEGACY)


def test_the_data_version_decides_over_the_name(tmp_path: Path) -> None:
    """The name is shown only; DataVersion is the number the game itself goes by."""
    write_level_dat(tmp_path, 4788, None)
    assert resolve_target(tmp_path, None, "1.21.4").release is release("26.1.1")
    write_level_dat(tmp_path, 4671, "Paper 1.21.11")
    assert resolve_target(tmp_path, None, "26.1").release is release("1.21.11")


@pytest.mark.parametrize(
    ("data_version", "name"), [(4779, "26.1-snapshot-11"), (3700, "1.20.4"), (5011, None)]
)
def test_an_unsupported_level_dat_is_refused_with_the_range(
    tmp_path: Path, data_version: int, name: str | None
) -> None:
    write_level_dat(tmp_path, data_version, name)
    with pytest.raises(UnsupportedVersion) as info:
        resolve_target(tmp_path, None, "26.1")
    message = str(info.value)
    assert f"DataVersion {data_version}" in message and "\n" not in message
    assert f"Java {OLDEST.name} to {NEWEST.name}" in message and "--version" in message


def test_a_level_dat_without_data_version_is_refused(tmp_path: Path) -> None:
    write_level_dat(tmp_path, None, "1.8.9")
    with pytest.raises(UsageError, match="no Data.DataVersion .* --version"):
        resolve_target(tmp_path, None, "26.1")


def test_version_overrides_level_dat(tmp_path: Path) -> None:
    write_level_dat(tmp_path, 4189, "1.21.4")
    target = resolve_target(tmp_path, "1.21.5", "26.1")
    assert (target.release, target.layout) == (release("1.21.5"), Layout.LEGACY)
    assert target.reason == (
        "--version 1.21.5, DataVersion 4325; level.dat says DataVersion 4189 (1.21.4)"
    )
    write_level_dat(tmp_path, 4779, "26.1-snapshot-11")  # unknown, but overridden
    assert resolve_target(tmp_path, "26.1", "1.21.4").data_version == 4786
    with pytest.raises(UnsupportedVersion, match="1.21.12 is not supported"):
        resolve_target(tmp_path, "1.21.12", "26.1")


def test_without_level_dat_the_configured_version_decides(tmp_path: Path) -> None:
    target = resolve_target(tmp_path, None, "26.1.2")
    assert (target.layout, target.data_version) == (Layout.NAMESPACED, 4790)
    assert target.reason == "no level.dat yet: version 26.1.2, DataVersion 4790"
    assert resolve_target(None, None, "1.21.8").reason == "export: version 1.21.8, DataVersion 4440"
    with pytest.raises(UnsupportedVersion, match="27.4 is not supported"):
        resolve_target(tmp_path, None, "27.4")


def test_damaged_level_dat_is_reported(tmp_path: Path) -> None:
    (tmp_path / "level.dat").write_bytes(b"\x1f\x8bnot really")
    with pytest.raises(UsageError, match="level.dat"):
        read_level_info(tmp_path)


LOCKER = (
    "import fcntl, os, sys\n"
    "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
    "fcntl.lockf(fd, fcntl.LOCK_EX)\n"
    "print('locked', flush=True)\n"
    "sys.stdin.read()\n"
)


@pytest.fixture
def locked_world(tmp_path: Path) -> Iterator[Path]:
    """A world whose session.lock another process holds, as a running server does."""
    proc = subprocess.Popen(
        [sys.executable, "-c", LOCKER, str(tmp_path / "session.lock")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdin is not None
    try:
        assert proc.stdout.readline().strip() == "locked"
        yield tmp_path
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
        proc.stdout.close()


def test_running_server_is_noticed_by_its_session_lock(locked_world: Path) -> None:
    assert server_holds_world(locked_world)


def test_free_or_missing_session_lock_means_no_server(tmp_path: Path) -> None:
    assert not server_holds_world(tmp_path)
    (tmp_path / "session.lock").write_text("\u2603", encoding="utf-8")
    assert not server_holds_world(tmp_path)


def test_a_world_folder_needs_level_dat(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"does not exist: check --world-dir .* add --create"):
        check_world_folder(tmp_path / "wrold")
    assert not (tmp_path / "wrold").exists()
    with pytest.raises(UsageError, match=r"holds no level.dat.* add --create"):
        check_world_folder(tmp_path)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(UsageError, match="is not a folder"):
        check_world_folder(tmp_path / "file")
    write_level_dat(tmp_path, 4790, "26.1.2")
    check_world_folder(tmp_path)
