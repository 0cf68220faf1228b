"""Map data files: nbtlib round trip, what a map reader sees, layout, ownership, atomicity."""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbtlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbtlib import Byte, ByteArray, Compound, File, Int, String
from PIL import Image

from controller.errors import UsageError
from controller.world import mapfiles
from controller.world.mapart import PICTURE_COUNT, all_pictures
from controller.world.mapfiles import (
    ForeignMapsError,
    Layout,
    Target,
    atomic_save,
    data_version_for,
    install_pictures,
    layout_for_data_version,
    layout_for_version,
    map_file,
    map_path,
    read_colors,
    read_level_info,
    resolve_target,
)

BASE = 1_000_000
T26 = Target(Layout.NAMESPACED, 4790, "test")
T121 = Target(Layout.LEGACY, 4189, "test")


def write_level_dat(world: Path, data_version: int | None, name: str | None) -> None:
    """A minimal level.dat like the server writes (gzipped, Data.DataVersion, Data.Version.Name)."""
    data: dict[str, Any] = {"LevelName": String("world")}
    if data_version is not None:
        data["DataVersion"] = Int(data_version)
    if name is not None:
        data["Version"] = Compound({"Name": String(name), "Id": Int(data_version or 0)})
    world.mkdir(parents=True, exist_ok=True)
    File({"Data": Compound(data)}, gzipped=True).save(world / "level.dat")


def counter_file(last_id: int) -> File:
    return File({"data": Compound({"map": Int(last_id)}), "DataVersion": Int(4790)}, gzipped=True)


def test_files_round_trip_through_nbtlib(tmp_path: Path) -> None:
    pictures = all_pictures(BASE)
    install_pictures(tmp_path, pictures, T26)
    for map_id, picture in pictures.items():
        path = tmp_path / "data" / "minecraft" / "maps" / f"{map_id}.dat"
        assert path.read_bytes()[:2] == b"\x1f\x8b"  # gzipped
        root = nbtlib.load(path)
        assert root.root_name == ""
        assert set(root) == {"data", "DataVersion"}
        assert root["DataVersion"] == Int(4790) and isinstance(root["DataVersion"], Int)
        data = root["data"]
        # explicit false (the default is true, and would paint frame markers on the picture)
        assert isinstance(data["trackingPosition"], Byte) and data["trackingPosition"] == 0
        assert isinstance(data["locked"], Byte) and data["locked"] == 1
        assert isinstance(data["scale"], Byte) and data["scale"] == 0
        assert data["dimension"] == String("minecraft:overworld")
        assert isinstance(data["xCenter"], Int) and isinstance(data["zCenter"], Int)
        colors = data["colors"]
        assert isinstance(colors, ByteArray) and len(colors) == 128 * 128
        # pixel index = x + z * 128: row-major with row z = north first
        decoded = np.asarray(colors).astype(np.uint8).reshape(128, 128)
        assert np.array_equal(decoded, picture)


def test_server_style_reader_shows_the_picture(tmp_path: Path) -> None:
    """pillow-minecraft-map's own NBT reader (independent of nbtlib) decodes what we drew."""
    pictures = all_pictures(BASE)
    install_pictures(tmp_path, pictures, T121)
    for map_id, picture in pictures.items():
        # open the file ourselves: the plugin drops its file handle without closing it
        with open(tmp_path / "data" / f"map_{map_id}.dat", "rb") as fh, Image.open(fh) as image:
            assert image.format == "MINECRAFT_MAP"
            assert image.mode == "P" and image.size == (128, 128)
            assert image.info["data_version"] == 4189
            assert np.array_equal(np.asarray(image), picture)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 2**31 - 1),
    st.integers(-(2**31), 2**31 - 1),
)
def test_any_colours_round_trip(seed: int, data_version: int, x: int) -> None:
    picture = np.random.default_rng(seed).integers(0, 256, (128, 128), dtype=np.uint8)
    colours = picture.tobytes()
    encoded = mapfiles.encode_file(map_file(picture, data_version, x_center=x))
    root = File.parse(io.BytesIO(encoded))
    assert root["DataVersion"] == data_version and root["data"]["xCenter"] == x
    assert np.asarray(root["data"]["colors"]).astype(np.uint8).tobytes() == colours


def test_map_file_rejects_wrong_size() -> None:
    with pytest.raises(ValueError, match="16384"):
        map_file(np.zeros((64, 64), dtype=np.uint8), 4790)


@pytest.mark.parametrize(
    ("version", "layout"),
    [
        ("1.21", Layout.LEGACY),
        ("1.21.4", Layout.LEGACY),
        ("1.21.11", Layout.LEGACY),
        ("26.1", Layout.NAMESPACED),
        ("26.1.2", Layout.NAMESPACED),
        ("26.2", Layout.NAMESPACED),
        ("26.1-snapshot-6", Layout.NAMESPACED),
        ("26.2 Pre-Release 4", Layout.NAMESPACED),
    ],
)
def test_layout_by_version_name(version: str, layout: Layout) -> None:
    assert layout_for_version(version) is layout


def test_layout_rejects_names_without_release_number() -> None:
    with pytest.raises(UsageError):
        layout_for_version("24w14a")


@given(st.integers(0, 10_000))
def test_layout_by_data_version(data_version: int) -> None:
    expected = Layout.NAMESPACED if data_version >= 4786 else Layout.LEGACY
    assert layout_for_data_version(data_version) is expected


def test_paths_per_layout(tmp_path: Path) -> None:
    assert map_path(tmp_path, Layout.LEGACY, 7) == tmp_path / "data" / "map_7.dat"
    assert map_path(tmp_path, Layout.NAMESPACED, 7) == tmp_path / "data/minecraft/maps/7.dat"
    assert mapfiles.counter_path(tmp_path, Layout.LEGACY) == tmp_path / "data" / "idcounts.dat"
    assert (
        mapfiles.counter_path(tmp_path, Layout.NAMESPACED)
        == tmp_path / "data/minecraft/maps/last_id.dat"
    )


def test_known_data_versions() -> None:
    assert data_version_for("26.1.2") == 4790
    assert data_version_for("26.1") == data_version_for("26.1.0") == 4786
    assert data_version_for("1.21.4") == 4189
    assert data_version_for("1.19.2") is None


def test_data_version_and_layout_come_from_level_dat(tmp_path: Path) -> None:
    write_level_dat(tmp_path, 4790, "26.1.2")
    assert read_level_info(tmp_path) == mapfiles.LevelInfo(4790, "26.1.2")
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


def foreign_picture() -> np.ndarray[Any, np.dtype[np.uint8]]:
    return np.full((128, 128), 34, dtype=np.uint8)  # a snowy map a player made


def test_foreign_map_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    theirs = map_path(tmp_path, Layout.NAMESPACED, BASE + 5)
    atomic_save(map_file(foreign_picture(), 4790, x_center=512), theirs)
    before = theirs.read_bytes()
    with pytest.raises(ForeignMapsError) as info:
        install_pictures(tmp_path, all_pictures(BASE), T26)
    assert info.value.paths == [theirs]
    assert "--force" in str(info.value)
    assert theirs.read_bytes() == before
    assert sorted(p.name for p in theirs.parent.iterdir()) == [theirs.name]


def test_unreadable_file_at_our_id_is_foreign(tmp_path: Path) -> None:
    junk = map_path(tmp_path, Layout.LEGACY, BASE)
    junk.parent.mkdir(parents=True)
    junk.write_bytes(b"hello")
    with pytest.raises(ForeignMapsError):
        install_pictures(tmp_path, all_pictures(BASE), T121)


def test_force_replaces_foreign_maps(tmp_path: Path) -> None:
    theirs = map_path(tmp_path, Layout.NAMESPACED, BASE + 5)
    atomic_save(map_file(foreign_picture(), 4790), theirs)
    plan = install_pictures(tmp_path, all_pictures(BASE), T26, force=True)
    assert [i.action for i in plan if i.map_id == BASE + 5] == ["replace"]
    assert np.array_equal(read_colors(theirs), all_pictures(BASE)[BASE + 5])


def test_our_maps_are_left_or_updated(tmp_path: Path) -> None:
    pictures = all_pictures(BASE)
    install_pictures(tmp_path, pictures, T26)
    path = map_path(tmp_path, Layout.NAMESPACED, BASE)
    stamp = path.stat().st_mtime_ns
    again = install_pictures(tmp_path, pictures, T26)
    assert {i.action for i in again} == {"unchanged"}
    assert path.stat().st_mtime_ns == stamp
    newer = install_pictures(tmp_path, pictures, Target(Layout.NAMESPACED, 4903, "26.2"))
    assert {i.action for i in newer} == {"update"}  # same pictures: ours, not foreign
    assert nbtlib.load(path)["DataVersion"] == 4903


def test_counter_is_never_touched(tmp_path: Path) -> None:
    legacy = mapfiles.counter_path(tmp_path, Layout.LEGACY)
    namespaced = mapfiles.counter_path(tmp_path, Layout.NAMESPACED)
    atomic_save(counter_file(41), legacy)
    before = legacy.read_bytes()
    install_pictures(tmp_path, all_pictures(BASE), T121)
    install_pictures(tmp_path, all_pictures(BASE), T26)
    assert legacy.read_bytes() == before
    assert not namespaced.exists()
    assert mapfiles.read_counter(tmp_path, Layout.LEGACY) == 41
    assert mapfiles.read_counter(tmp_path, Layout.NAMESPACED) is None


def test_atomic_save_leaves_old_file_and_no_temp_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = map_path(tmp_path, Layout.NAMESPACED, BASE)
    atomic_save(map_file(all_pictures(BASE)[BASE], 4790), path)
    before = path.read_bytes()

    def half_write(self: File, fileobj: Any, byteorder: str = "big") -> None:
        fileobj.write(b"\x0a\x00\x00\x0a\x00\x04da")  # a torn write, then the disk fills
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(File, "write", half_write)
    with pytest.raises(OSError, match="No space"):
        atomic_save(map_file(foreign_picture(), 4790), path)
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == [path.name]


def test_failed_install_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_replace = os.replace
    calls = {"n": 0}

    def flaky_replace(src: str, dst: str) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(mapfiles.os, "replace", flaky_replace)
    with pytest.raises(OSError):
        install_pictures(tmp_path, all_pictures(BASE), T26)
    folder = tmp_path / "data" / "minecraft" / "maps"
    names = sorted(os.listdir(folder))
    assert names == [f"{BASE}.dat", f"{BASE + 1}.dat"]  # whole files only, no temp left
    for name in names:
        with gzip.open(folder / name) as fh:
            assert len(fh.read()) > 16384
    monkeypatch.setattr(mapfiles.os, "replace", real_replace)
    plan = install_pictures(tmp_path, all_pictures(BASE), T26)  # a rerun completes the set
    assert [i.action for i in plan].count("write") == PICTURE_COUNT - 2


def test_identical_pictures_give_identical_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    install_pictures(a, all_pictures(BASE), T26)
    install_pictures(b, all_pictures(BASE), T26)
    for map_id in all_pictures(BASE):
        assert (
            map_path(a, Layout.NAMESPACED, map_id).read_bytes()
            == map_path(b, Layout.NAMESPACED, map_id).read_bytes()
        )


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
    assert mapfiles.server_holds_world(locked_world)


def test_free_or_missing_session_lock_means_no_server(tmp_path: Path) -> None:
    assert not mapfiles.server_holds_world(tmp_path)
    (tmp_path / "session.lock").write_text("\u2603", encoding="utf-8")
    assert not mapfiles.server_holds_world(tmp_path)
