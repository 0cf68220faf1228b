"""One map file: nbtlib round trip, what a map reader sees, atomic and reproducible writes."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import nbtlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbtlib import Byte, ByteArray, File, Int, String
from PIL import Image

from controller.maps.install import install_pictures
from controller.maps.layout import Layout, map_path
from controller.maps.mapfile import atomic_save, encode_file, map_file
from controller.world.mapart import all_pictures
from tests.support.map_worlds import BASE, T26, T121, foreign_picture


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
    encoded = encode_file(map_file(picture, data_version, x_center=x))
    root = File.parse(io.BytesIO(encoded))
    assert root["DataVersion"] == data_version and root["data"]["xCenter"] == x
    assert np.asarray(root["data"]["colors"]).astype(np.uint8).tobytes() == colours


def test_map_file_rejects_wrong_size() -> None:
    with pytest.raises(ValueError, match="16384"):
        map_file(np.zeros((64, 64), dtype=np.uint8), 4790)


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


def test_identical_pictures_give_identical_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    install_pictures(a, all_pictures(BASE), T26)
    install_pictures(b, all_pictures(BASE), T26)
    for map_id in all_pictures(BASE):
        assert (
            map_path(a, Layout.NAMESPACED, map_id).read_bytes()
            == map_path(b, Layout.NAMESPACED, map_id).read_bytes()
        )
