"""Release profiles: what the sandbox plays for each supported release, from its data files
(docs/sandbox-datapacks.md, "Release profiles")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller import versions
from controller.lang import lang_table, lang_table_for
from controller.sandbox.profile import DEFAULT_RELEASE, default_profile, profile_of
from controller.sandbox.registry import base_registry

DATA = Path(__file__).resolve().parents[2] / "controller" / "sandbox" / "data"
UNKNOWN_OLD = "Unknown or incomplete command, see below for error"
UNKNOWN_NEW = "Unknown or incomplete command. See below for error"


def test_every_supported_release_has_game_data() -> None:
    doc = json.loads((DATA / "versions.json").read_text(encoding="utf-8"))
    assert set(doc["releases"]) == {r.name for r in versions.RELEASES}
    for name, paths in doc["releases"].items():
        for kind, key in (("language", "lang"), ("blocks", "blocks"), ("entities", "entities")):
            assert key in doc["data"][paths[kind]], (name, kind)
    assert doc["data"]["26.1"] == {"lang": {}, "blocks": [], "entities": [], "particles": []}


def test_the_default_is_26_1_and_its_table_is_the_bundled_one() -> None:
    assert DEFAULT_RELEASE.name == "26.1"
    assert default_profile().release is DEFAULT_RELEASE
    assert dict(lang_table_for(DEFAULT_RELEASE)) == dict(lang_table())


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("1.20.5", UNKNOWN_OLD),
        ("1.21.1", UNKNOWN_OLD),
        ("1.21.4", UNKNOWN_OLD),
        ("1.21.8", UNKNOWN_OLD),
        ("1.21.9", UNKNOWN_NEW),
        ("1.21.11", UNKNOWN_NEW),
        ("26.2", UNKNOWN_NEW),
    ],
)
def test_each_release_speaks_its_own_language_file(name: str, text: str) -> None:
    """PrismarineJS/minecraft-data data/pc/<v>/language.json: the wording changed in 1.21.9."""
    table = lang_table_for(versions.release(name))
    assert table["command.unknown.command"] == text


def test_strings_a_release_does_not_have_are_left_out() -> None:
    old = lang_table_for(versions.release("1.21.5"))
    assert "commands.version.header" not in old  # `version` arrives in 1.21.6
    assert "commands.version.header" in lang_table_for(versions.release("1.21.6"))
    assert profile_of(versions.release("1.21.5")).registry.tr("commands.version.header") == (
        "commands.version.header"  # Language.getOrDefault: the key itself
    )


def test_ids_a_release_does_not_have_are_unknown_to_it() -> None:
    r121 = profile_of(versions.release("1.21.1")).registry
    r1214 = profile_of(versions.release("1.21.4")).registry
    assert r121.block("minecraft:pale_oak_log") is None  # the pale garden arrives in 1.21.2+
    assert r1214.block("minecraft:pale_oak_log") is not None
    assert "creaking" not in r121.entities and "creaking" in r1214.entities
    for name in ("item_frame", "glow_item_frame", "marker", "armor_stand"):
        for release in versions.RELEASES:
            assert name in profile_of(release).registry.entities, (name, release)
    assert base_registry().block("minecraft:pale_oak_log") is not None


@pytest.mark.parametrize(
    ("name", "fill", "forks", "feedback"),
    [
        ("1.20.5", "commandModificationBlockLimit", "maxCommandForkCount", "sendCommandFeedback"),
        ("1.21.10", "commandModificationBlockLimit", "maxCommandForkCount", "sendCommandFeedback"),
        ("1.21.11", "max_block_modifications", "max_command_forks", "send_command_feedback"),
        ("26.1", "max_block_modifications", "max_command_forks", "send_command_feedback"),
    ],
)
def test_the_rules_pipesctl_reads_have_the_release_s_names(
    name: str, fill: str, forks: str, feedback: str
) -> None:
    profile = profile_of(versions.release(name))
    names = profile.rule_names
    assert (names["max_block_modifications"], names["max_command_forks"]) == (fill, forks)
    assert names["send_command_feedback"] == feedback
    assert profile.default_rules()[fill] == 32768
    assert profile.namespaced_gamerules == versions.release(name).snake_case_gamerules


def test_spawn_chunk_radius_is_gone_from_1_21_9() -> None:
    before = {r.name for r in profile_of(versions.release("1.21.8")).gamerules}
    after = {r.name for r in profile_of(versions.release("1.21.9")).gamerules}
    assert "spawnChunkRadius" in before and "spawnChunkRadius" not in after
    assert {"pvp", "spawnMonsters"} <= after - before


PAIRS = st.tuples(st.sampled_from(versions.RELEASES), st.sampled_from(versions.RELEASES))


@given(PAIRS)
def test_a_form_once_introduced_stays(pair: tuple[versions.Release, versions.Release]) -> None:
    """Every switch is a first release: a later release has at least the earlier's forms."""
    older, newer = sorted(pair, key=lambda r: r.number)
    a, b = profile_of(older), profile_of(newer)
    for flag in (
        "block_strict_mode",
        "fill_mode_after_filter",
        "fall_distance_double",
        "frame_rotation_always_saved",
        "namespaced_gamerules",
        "has_version_command",
        "nearest_selector",
        "attribute_base_reset",
        "test_command",
    ):
        assert getattr(a, flag) <= getattr(b, flag), flag
    assert set(a.registry.blocks) <= set(b.registry.blocks)


def test_profiles_are_built_once() -> None:
    release = versions.release("1.21.4")
    assert profile_of(release) is profile_of(release)
    assert profile_of(release).registry is profile_of(release).registry
