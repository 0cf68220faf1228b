"""Installing the pictures: ownership, forcing, updates, the counter, failed writes."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import nbtlib
import numpy as np
import pytest
from nbtlib import Compound, File, Int

from controller.maps import mapfile
from controller.maps.install import ForeignMapsError, install_pictures
from controller.maps.layout import Layout, counter_path, map_path
from controller.maps.mapfile import atomic_save, map_file, read_colors
from controller.maps.probe import Target, read_counter
from controller.versions import release
from controller.world.mapart import PICTURE_COUNT, all_pictures
from tests.support.map_worlds import BASE, T26, T121, foreign_picture


def counter_file(last_id: int) -> File:
    return File({"data": Compound({"map": Int(last_id)}), "DataVersion": Int(4790)}, gzipped=True)


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
    newer = install_pictures(tmp_path, pictures, Target(release("26.2"), "26.2"))
    assert {i.action for i in newer} == {"update"}  # same pictures: ours, not foreign
    assert nbtlib.load(path)["DataVersion"] == 4903


def test_counter_is_never_touched(tmp_path: Path) -> None:
    legacy = counter_path(tmp_path, Layout.LEGACY)
    namespaced = counter_path(tmp_path, Layout.NAMESPACED)
    atomic_save(counter_file(41), legacy)
    before = legacy.read_bytes()
    install_pictures(tmp_path, all_pictures(BASE), T121)
    install_pictures(tmp_path, all_pictures(BASE), T26)
    assert legacy.read_bytes() == before
    assert not namespaced.exists()
    assert read_counter(tmp_path, Layout.LEGACY) == 41
    assert read_counter(tmp_path, Layout.NAMESPACED) is None


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

    monkeypatch.setattr(mapfile.os, "replace", flaky_replace)
    with pytest.raises(OSError):
        install_pictures(tmp_path, all_pictures(BASE), T26)
    folder = tmp_path / "data" / "minecraft" / "maps"
    names = sorted(os.listdir(folder))
    assert names == [f"{BASE}.dat", f"{BASE + 1}.dat"]  # whole files only, no temp left
    for name in names:
        with gzip.open(folder / name) as fh:
            assert len(fh.read()) > 16384
    monkeypatch.setattr(mapfile.os, "replace", real_replace)
    plan = install_pictures(tmp_path, all_pictures(BASE), T26)  # a rerun completes the set
    assert [i.action for i in plan].count("write") == PICTURE_COUNT - 2


def _server_resave(path: Path, *, gzipped: bool, data_version: int = 4786, **extra: object) -> None:
    """The file as the server writes it back: its own key order, defaults omitted
    (`scale`, `unlimitedTracking`), the lists it adds, maybe not gzipped, its DataVersion."""
    data = nbtlib.load(path)["data"]
    resaved = Compound(
        {
            "frames": nbtlib.List[Compound]([]),
            "banners": nbtlib.List[Compound]([]),
            "colors": data["colors"],
            "zCenter": data["zCenter"],
            "locked": data["locked"],
            "trackingPosition": data["trackingPosition"],
            "xCenter": data["xCenter"],
            "dimension": data["dimension"],
            **extra,
        }
    )
    f = File({"DataVersion": Int(data_version), "data": resaved}, gzipped=gzipped, root_name="")
    if gzipped:
        f.save(path, byteorder="big")
    else:
        f.save(path, gzipped=False, byteorder="big")


@pytest.mark.parametrize("gzipped", [True, False])
def test_a_map_the_server_re_encoded_is_unchanged(tmp_path: Path, gzipped: bool) -> None:
    """Pictures and fields are compared, not bytes: a server re-save (other compression, key
    order, omitted defaults, `frames`/`banners`, its DataVersion) is still our picture."""
    pictures = all_pictures(BASE)
    target = Target(release("26.1"), "26.1")
    install_pictures(tmp_path, pictures, target)
    path = map_path(tmp_path, Layout.NAMESPACED, BASE + 3)
    _server_resave(path, gzipped=gzipped)
    before = path.read_bytes()
    plan = install_pictures(tmp_path, pictures, target)
    assert {i.action for i in plan} == {"unchanged"}
    assert path.read_bytes() == before  # not rewritten
    # a file of a newer DataVersion than the target is not downgraded either
    _server_resave(path, gzipped=gzipped, data_version=4790)
    assert {i.action for i in install_pictures(tmp_path, pictures, target)} == {"unchanged"}


@pytest.mark.parametrize(
    ("extra", "action"),
    [
        ({"locked": nbtlib.Byte(0)}, "update"),  # the server could draw terrain into it
        ({"trackingPosition": nbtlib.Byte(1)}, "update"),  # frame markers over the picture
        ({"scale": nbtlib.Byte(2)}, "update"),
        ({"unlimitedTracking": nbtlib.Byte(1)}, "update"),
        ({"xCenter": Int(64)}, "update"),
        ({"scale": nbtlib.Byte(0), "unlimitedTracking": nbtlib.Byte(0)}, "unchanged"),  # defaults
    ],
)
def test_fields_that_matter_are_compared_with_their_defaults(
    tmp_path: Path, extra: dict[str, object], action: str
) -> None:
    pictures = all_pictures(BASE)
    install_pictures(tmp_path, pictures, T26)
    path = map_path(tmp_path, Layout.NAMESPACED, BASE)
    _server_resave(path, gzipped=True, data_version=T26.data_version, **extra)
    plan = install_pictures(tmp_path, pictures, T26)
    assert [i.action for i in plan if i.map_id == BASE] == [action]
    assert {i.action for i in plan if i.map_id != BASE} == {"unchanged"}


def test_a_changed_pixel_is_never_unchanged(tmp_path: Path) -> None:
    """One pixel of another colour is another picture: install refuses it as foreign (it may be
    a map someone drew) and `--force` replaces it; it is never taken as unchanged."""
    pictures = all_pictures(BASE)
    install_pictures(tmp_path, pictures, T26)
    path = map_path(tmp_path, Layout.NAMESPACED, BASE + 1)
    _server_resave(path, gzipped=True, data_version=T26.data_version)
    root = nbtlib.load(path)
    colors = np.asarray(root["data"]["colors"]).copy()
    colors[5000] = colors[5000] + 4 if colors[5000] < 120 else 4
    root["data"]["colors"] = nbtlib.ByteArray(colors)
    root.save(path)
    with pytest.raises(ForeignMapsError) as info:
        install_pictures(tmp_path, pictures, T26)
    assert info.value.paths == [path]
    plan = install_pictures(tmp_path, pictures, T26, force=True)
    assert [i.action for i in plan if i.map_id == BASE + 1] == ["replace"]
    assert np.array_equal(read_colors(path), pictures[BASE + 1])
