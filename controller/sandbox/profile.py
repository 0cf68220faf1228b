"""What the sandbox plays for each supported release: a :class:`SandboxVersion`.

Built once per release from ``controller.versions.Release`` (the switches every part of
pipesctl shares) and the sandbox's data files: ``data/versions.json`` (the game data that
differs from 26.1: strings, missing block, entity and particle ids; written by
``tools/sandbox_versions.py``), ``data/attributes.json`` (the attribute registry and a
player's attributes) and ``data/release-facts.json`` (gamerules, the first release of
the forms only the sandbox cares about, the `version` reply). docs/sandbox-datapacks.md,
"Release profiles", says how they are made and how to add a release; the behaviour of each
difference is in docs/server-behaviour.md, "Versions: frame position" to "Versions: block and
entity ids".
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from controller import versions
from controller.lang import lang_table_for
from controller.versions import Release

from .attributes import AttributeType, attribute_names, attributes_of
from .current import CURRENT
from .registry import Registry, base_registry
from .slots import slot_ranges

__all__ = [
    "DEFAULT_RELEASE",
    "GameRule",
    "PackFolders",
    "SandboxVersion",
    "current_profile",
    "default_profile",
    "playing",
    "profile_of",
    "upgrades",
]

_DATA = Path(__file__).with_name("data")
# The release a sandbox plays unless told otherwise: the one its 26.1 data and tests describe.
DEFAULT_RELEASE = versions.release("26.1")
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


@dataclass(frozen=True)
class GameRule:
    """One gamerule as a release's `gamerule` command knows it."""

    name: str  # the command's literal (and the query/set feedback)
    key: str  # the sandbox's own name for it (the 1.21.11 one where the rule was renamed)
    default: bool | int
    low: int = 0
    high: int = _INT_MAX


@dataclass(frozen=True)
class PackFolders:
    """Where a data pack keeps what the sandbox reads (docs/sandbox-datapacks.md)."""

    function: str
    advancement: str
    function_tags: str
    entity_type_tags: str


_SINGULAR = PackFolders("function", "advancement", "tags/function", "tags/entity_type")
_PLURAL = PackFolders("functions", "advancements", "tags/functions", "tags/entity_types")


@dataclass(frozen=True)
class SandboxVersion:
    """Everything the sandbox does differently for one release, looked up once."""

    release: Release
    registry: Registry
    gamerules: tuple[GameRule, ...]
    namespaced_gamerules: bool  # `gamerule minecraft:<name>` works too
    block_strict_mode: bool  # `setblock|fill|clone … strict`
    fill_mode_after_filter: bool  # `fill … replace <filter> outline|hollow|destroy|strict`
    fall_distance_double: bool  # `fall_distance` (double), else `FallDistance` (float)
    frame_rotation_always_saved: bool  # ItemRotation/ItemDropChance also for an empty frame
    attached_log: str  # the ERROR line's subject when a hanging entity's block is invalid
    pack_folders: PackFolders
    version_fields: tuple[tuple[str, tuple[str, ...]], ...]  # `version`: (key, args) per line
    paper_version_text: str
    nearest_selector: bool  # the `@n` selector
    attribute_base_reset: bool  # `attribute … base reset`
    test_command: bool  # the `test` command (registered only as far as `help test` needs)
    attributes: Mapping[str, AttributeType]  # the attribute registry, by id
    player_attributes: Mapping[str, float]  # a player's attributes and their base values
    slot_ranges: Mapping[str, tuple[int, ...]]  # SlotRanges: name → slot indices

    @property
    def name(self) -> str:
        """The release's name (`1.21.4`)."""
        return self.release.name

    @property
    def text_form(self) -> Literal["json", "snbt"]:
        """How `CustomName` and other text inside NBT is written (Release.text_form)."""
        return self.release.text_form

    @property
    def attached_position(self) -> Literal["block_pos", "tile"]:
        """How a frame saves its block (Release.attached_position)."""
        return self.release.attached_position

    @property
    def has_version_command(self) -> bool:
        """Whether vanilla has `version` (Release.has_version_command)."""
        return self.release.has_version_command

    @property
    def save_form(self) -> tuple[object, ...]:
        """Everything that decides how a saved world is written and read back: two releases
        with the same form can load each other's saves without a data fixer."""
        return (
            self.text_form,
            self.attached_position,
            self.fall_distance_double,
            self.frame_rotation_always_saved,
            self.pack_folders,
            self.gamerules,
            frozenset(self.registry.blocks),
            frozenset(self.registry.entities),
        )

    @functools.cached_property
    def rule_names(self) -> Mapping[str, str]:
        """The sandbox's key of each rule → its name in this release."""
        return {rule.key: rule.name for rule in self.gamerules}

    def default_rules(self) -> dict[str, bool | int]:
        """A new world's gamerules, by this release's names."""
        return {rule.name: rule.default for rule in self.gamerules}

    def __repr__(self) -> str:
        return f"SandboxVersion({self.release.name})"


@functools.cache
def _facts() -> Mapping[str, Any]:
    with (_DATA / "release-facts.json").open(encoding="utf-8") as fh:
        facts: dict[str, Any] = json.load(fh)
    return facts


@functools.cache
def _game_data() -> Mapping[str, Any]:
    with (_DATA / "versions.json").open(encoding="utf-8") as fh:
        doc: dict[str, Any] = json.load(fh)
    return doc


def _from(release: Release, feature: str) -> bool:
    first = versions.parse_number(str(_facts()["features"][feature]["from"]))
    assert first is not None, feature
    return release.at_least(first)


def _gamerules(release: Release) -> tuple[GameRule, ...]:
    if release.snake_case_gamerules:
        from .world import GAMERULE_BOUNDS, GAMERULES

        return tuple(
            GameRule(name, name, default, *GAMERULE_BOUNDS.get(name, (0, _INT_MAX)))
            for name, default in GAMERULES.items()
        )
    facts = _facts()["gamerules"]
    renamed: Mapping[str, str] = facts["renamed"]
    rules: dict[str, GameRule] = {}
    for step in facts["steps"]:
        if not _at_least(release, step["from"]):
            break
        for name in step.get("remove", ()):
            rules.pop(name, None)
        for name, default, *bounds in step["add"]:
            low, high = bounds if bounds else (_INT_MIN, _INT_MAX)
            rules[name] = GameRule(name, renamed.get(name, name), default, low, high)
    return tuple(rules.values())


def _at_least(release: Release, name: str) -> bool:
    number = versions.parse_number(name)
    assert number is not None, name
    return release.at_least(number)


def _version_fields(release: Release) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """VersionCommand's lines after the header (docs/server-behaviour.md, "Feedback: version")."""
    if not release.has_version_command:
        return ()
    facts = _facts()["version_command"]
    stable = "commands.version.stable.yes" if facts["stable"] else "commands.version.stable.no"
    return (
        ("commands.version.id", (release.name,)),
        ("commands.version.name", (release.name,)),
        ("commands.version.data", (str(release.data_version),)),
        ("commands.version.series", (str(facts["series"]),)),
        ("commands.version.protocol", (str(release.protocol), f"0x{release.protocol:x}")),
        ("commands.version.build_time", (str(facts["build_time"]),)),
        ("commands.version.pack.resource", (str(facts["pack_resource"]),)),
        ("commands.version.pack.data", (str(release.pack),)),
        (stable, ()),
    )


@functools.cache
def profile_of(release: Release) -> SandboxVersion:
    """The sandbox's profile of a supported release (built once)."""
    paths = _game_data()["releases"][release.name]
    data = _game_data()["data"]
    attributes, player_attributes = attributes_of(release)
    names = attribute_names()
    lang = dict(lang_table_for(release))
    lang.update({a.description: names[a.description] for a in attributes.values()})
    registry = base_registry().restricted(
        lang,
        data[paths["blocks"]]["blocks"],
        data[paths["entities"]]["entities"],
        data[paths["particles"]]["particles"],
    )
    return SandboxVersion(
        release=release,
        registry=registry,
        gamerules=_gamerules(release),
        namespaced_gamerules=release.snake_case_gamerules,
        block_strict_mode=_from(release, "block_strict_mode"),
        fill_mode_after_filter=_from(release, "fill_mode_after_filter"),
        fall_distance_double=_from(release, "fall_distance_double"),
        frame_rotation_always_saved=_from(release, "frame_rotation_always_saved"),
        attached_log="Block-attached entity"
        if _from(release, "block_attached_log")
        else "Hanging entity",
        pack_folders=_SINGULAR if release.singular_pack_folders else _PLURAL,
        version_fields=_version_fields(release),
        paper_version_text=str(_facts()["paper_version"]["text"]),
        nearest_selector=_from(release, "nearest_selector"),
        attribute_base_reset=_from(release, "attribute_base_reset"),
        test_command=_from(release, "test_command"),
        attributes=attributes,
        player_attributes=player_attributes,
        slot_ranges=slot_ranges(
            saddle=_from(release, "saddle_slot"),
            mob_inventory=_from(release, "mob_inventory_slots"),
        ),
    )


def upgrades(saved: Release, newer: Release) -> bool:
    """Whether a world saved by `saved` loads unchanged in `newer`, a release no older."""
    if newer.number < saved.number:
        return False
    return profile_of(saved).save_form == profile_of(newer).save_form


def default_profile() -> SandboxVersion:
    """The profile of :data:`DEFAULT_RELEASE`."""
    return profile_of(DEFAULT_RELEASE)


def current_profile() -> SandboxVersion:
    """The profile of the game being run, else the default."""
    playing_now = CURRENT.get()
    return playing_now if playing_now is not None else default_profile()


@contextmanager
def playing(profile: SandboxVersion) -> Iterator[None]:
    """Run the body as ``profile``'s release (strings, registries, NBT forms)."""
    token = CURRENT.set(profile)
    try:
        yield
    finally:
        CURRENT.reset(token)
