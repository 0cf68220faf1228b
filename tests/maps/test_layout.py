"""The map file layout and DataVersion by version, and the paths per layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.errors import UsageError
from controller.maps.layout import (
    Layout,
    counter_path,
    data_version_for,
    layout_for_data_version,
    layout_for_version,
    map_path,
)


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
    assert counter_path(tmp_path, Layout.LEGACY) == tmp_path / "data" / "idcounts.dat"
    assert counter_path(tmp_path, Layout.NAMESPACED) == tmp_path / "data/minecraft/maps/last_id.dat"


def test_known_data_versions() -> None:
    assert data_version_for("26.1.2") == 4790
    assert data_version_for("26.1") == data_version_for("26.1.0") == 4786
    assert data_version_for("1.21.4") == 4189
    assert data_version_for("1.19.2") is None
