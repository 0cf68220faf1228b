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
from controller.world.mapart import all_pictures
from tests.support.map_worlds import BASE, write_level_dat


def test_data_version_and_layout_come_from_level_dat(tmp_path: Path) -> None:
    write_level_dat(tmp_path, 4790, "26.1.2")
    assert read_level_info(tmp_path) == LevelInfo(4790, "26.1.2")
    target = resolve_target(tmp_path, "1.21.4")  # level.dat beats the option
    assert (target.layout, target.data_version) == (Layout.NAMESPACED, 4790)
    install_pictures(tmp_path, all_pictures(BASE), target)
    root = nbtlib.load(tmp_path / "data" / "minecraft" / "maps" / f"{BASE + 3}.dat")
    assert root["DataVersion"] == 4790


def test_old_world_level_dat_gives_legacy_layout(tmp_path: Path) -> None:
    write_level_dat(tmp_path, 4189, "1.21.4")
    target = resolve_target(tmp_path, "26.1")
    assert (target.layout, target.data_version) == (Layout.LEGACY, 4189)


def test_level_dat_without_version_name_uses_data_version(tmp_path: Path) -> None:
    write_level_dat(tmp_path, 4788, None)
    assert resolve_target(tmp_path, "1.21.4").layout is Layout.NAMESPACED
    write_level_dat(tmp_path, 4671, None)
    assert resolve_target(tmp_path, "26.1").layout is Layout.LEGACY


def test_without_level_dat_the_version_decides(tmp_path: Path) -> None:
    target = resolve_target(tmp_path, "26.1.2")
    assert (target.layout, target.data_version) == (Layout.NAMESPACED, 4790)
    assert resolve_target(tmp_path, "27.4", data_version=5100).data_version == 5100
    with pytest.raises(UsageError, match="--data-version"):
        resolve_target(tmp_path, "27.4")


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
