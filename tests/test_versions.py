"""The release table and its switches (controller/versions.py)."""

from __future__ import annotations

import pytest

from controller.versions import (
    NEWEST,
    OLDEST,
    RELEASES,
    UnsupportedVersion,
    by_data_version,
    parse_number,
    release,
)


def test_releases_are_ordered_and_unique() -> None:
    numbers = [r.number for r in RELEASES]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    data_versions = [r.data_version for r in RELEASES]
    assert data_versions == sorted(data_versions) and len(set(data_versions)) == len(RELEASES)
    assert OLDEST.name == "1.20.5" and NEWEST is RELEASES[-1]


@pytest.mark.parametrize("name", ["26.1", "26.1.0", " 26.1 "])
def test_release_by_name_ignores_a_zero_patch(name: str) -> None:
    assert release(name).data_version == 4786


@pytest.mark.parametrize("name", ["1.20.4", "1.19.2", "26.3", "27.0", "24w14a", "", "1.21.x"])
def test_unsupported_names_are_refused_with_the_range(name: str) -> None:
    with pytest.raises(UnsupportedVersion, match=f"serves Java 1.20.5 to {NEWEST.name}"):
        release(name)


def test_by_data_version() -> None:
    assert by_data_version(4189).name == "1.21.4"
    with pytest.raises(UnsupportedVersion, match="DataVersion 4779"):
        by_data_version(4779)  # a 26.1 snapshot


def test_switches_flip_once_at_their_release() -> None:
    for flag in (
        "text_form",
        "attached_position",
        "snake_case_gamerules",
        "has_version_command",
        "singular_pack_folders",
        "namespaced_maps",
        "interaction_range_attribute",
        "interaction_buffer",
        "pauses_when_empty",
    ):
        values = [getattr(r, flag) for r in RELEASES]
        changes = sum(a != b for a, b in zip(values, values[1:], strict=False))
        assert changes == 1, flag
    assert release("1.21.4").text_form == "json" and release("1.21.5").text_form == "snbt"
    assert not release("1.20.6").singular_pack_folders and release("1.21").singular_pack_folders
    assert not release("1.21.1").pauses_when_empty and release("1.21.2").pauses_when_empty


def test_parse_number() -> None:
    assert parse_number("1.21") == (1, 21, 0)
    assert parse_number("26.1-snapshot-6") is None


def test_the_interaction_range_changes_at_1_21_2() -> None:
    """docs/server-behaviour.md "Versions: entity interaction reach"."""
    old, new = release("1.21.1"), release("1.21.2")
    assert old.interaction_range_attribute == "minecraft:player.entity_interaction_range"
    assert new.interaction_range_attribute == "minecraft:entity_interaction_range"
    assert (old.interaction_buffer, new.interaction_buffer) == (1.0, 3.0)


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("1.20.5", "41"), ("1.21.1", "48"), ("1.21.3", "57"), ("1.21.4", "61"), ("1.21.6", "80"),
     ("1.21.8", "81"), ("1.21.10", "88.0"), ("1.21.11", "94.1"), ("26.2", "107.1")],
)  # fmt: skip
def test_data_pack_formats_read_from_the_releases(name: str, fmt: str) -> None:
    """docs/datapack.md "Formats": the rows with a copy of the release's own constants."""
    assert str(release(name).pack) == fmt
