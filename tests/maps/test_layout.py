"""The map file layout by release, and the paths per layout."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.maps.layout import Layout, counter_path, layout_for, map_path
from controller.versions import RELEASES, Release, release


@pytest.mark.parametrize("target", RELEASES, ids=str)
def test_layout_by_release(target: Release) -> None:
    """docs/server-behaviour.md "Map data files: location": data/map_<id>.dat up to 1.21.11,
    data/minecraft/maps/<id>.dat from 26.1."""
    expected = Layout.NAMESPACED if target.number >= (26, 1, 0) else Layout.LEGACY
    assert layout_for(target) is expected


def test_the_layout_changes_between_1_21_11_and_26_1() -> None:
    assert layout_for(release("1.21.11")) is Layout.LEGACY
    assert layout_for(release("26.1")) is Layout.NAMESPACED


def test_paths_per_layout(tmp_path: Path) -> None:
    assert map_path(tmp_path, Layout.LEGACY, 7) == tmp_path / "data" / "map_7.dat"
    assert map_path(tmp_path, Layout.NAMESPACED, 7) == tmp_path / "data/minecraft/maps/7.dat"
    assert counter_path(tmp_path, Layout.LEGACY) == tmp_path / "data" / "idcounts.dat"
    assert counter_path(tmp_path, Layout.NAMESPACED) == tmp_path / "data/minecraft/maps/last_id.dat"
    with pytest.raises(ValueError, match="not negative"):
        map_path(tmp_path, Layout.LEGACY, -1)
