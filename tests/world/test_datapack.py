"""The companion data pack's content (docs/datapack.md)."""

from __future__ import annotations

import json
import pathlib

import pytest

from controller.sandbox.datapacks import PackInfo, load_content
from controller.sandbox.game import Game
from controller.versions import RELEASES, PackFormat, Release, release
from controller.world.datapack import (
    PROTOCOL,
    DatapackConfig,
    build,
    folders,
    function_lines,
    lock_lines,
    mcmeta,
    pack_functions,
)
from controller.world.packformat import compatibility
from tests.support.grammar import assert_valid_commands

R261 = release("26.1")


def _write(root: pathlib.Path, files: dict[str, bytes]) -> pathlib.Path:
    for rel, data in files.items():
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(data)
    return root


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("1.20.5", {"pack_format": 41}),
        ("1.20.6", {"pack_format": 41}),
        ("1.21", {"pack_format": 48}),
        ("1.21.3", {"pack_format": 57}),
        ("1.21.4", {"pack_format": 61}),
        ("1.21.5", {"pack_format": 71}),
        ("1.21.6", {"pack_format": 80}),
        ("1.21.8", {"pack_format": 81}),
        ("1.21.9", {"min_format": [88, 0], "max_format": 88}),
        ("1.21.10", {"min_format": [88, 0], "max_format": 88}),
        ("1.21.11", {"min_format": [94, 1], "max_format": 94}),
        # unverified: no primary source for 26.1's data pack version (docs/datapack.md, "Formats")
        ("26.1", {"min_format": [101, 1], "max_format": 101}),
        ("26.2", {"min_format": [107, 1], "max_format": 107}),
    ],
)
def test_pack_mcmeta_per_version(version: str, expected: dict[str, object]) -> None:
    """docs/datapack.md "Formats": pack_format up to 81, min/max_format above."""
    meta = json.loads(build(release(version))["pack.mcmeta"])
    assert set(meta) == {"pack"}
    pack = meta["pack"]
    assert pack.pop("description")
    assert pack == expected


@pytest.mark.parametrize("target", RELEASES, ids=str)
def test_every_release_finds_its_own_pack_compatible(target: Release) -> None:
    """By the release's own reader (controller.world.packformat), the pack written for it is
    compatible with it and with exactly the releases of the same format; a hotfix that bumps
    only the minor still finds it compatible."""
    pack = json.loads(build(target)["pack.mcmeta"])["pack"]
    for other in RELEASES:
        same = other.pack.major == target.pack.major and other.pack.minor >= target.pack.minor
        assert (compatibility(pack, other) == "compatible") == same, other
    if target.pack.uses_range:
        hotfix = Release("x", 0, 0, PackFormat(target.pack.major, target.pack.minor + 3))
        assert compatibility(pack, hotfix) == "compatible"


@pytest.mark.parametrize("target", RELEASES, ids=str)
def test_files_sit_in_the_folders_the_release_reads(target: Release) -> None:
    """docs/datapack.md "Layout": `functions/`, `advancements/`, `tags/functions/` before 1.21,
    singular from 1.21; the content is the same for every release."""
    plural = not target.at_least((1, 21, 0))
    fn, adv, tags = (
        ("functions", "advancements", "tags/functions")
        if plural
        else ("function", "advancement", "tags/function")
    )
    assert folders(target).function == fn
    files = build(target)
    assert sorted(files) == sorted(
        [
            f"data/minecraft/{tags}/load.json",
            f"data/pipes/{adv}/clicked.json",
            f"data/pipes/{fn}/clicked.mcfunction",
            f"data/pipes/{fn}/done.mcfunction",
            f"data/pipes/{fn}/load.mcfunction",
            f"data/pipes/{fn}/locking.mcfunction",
            f"data/pipes/{fn}/note.mcfunction",
            f"data/pipes/{fn}/version.mcfunction",
            "pack.mcmeta",
        ]
    )
    newest = build(release("26.2"))
    for rel, data in files.items():
        if rel != "pack.mcmeta":
            same = rel.replace(f"/{fn}/", "/function/").replace(f"/{adv}/", "/advancement/")
            assert newest[same.replace(f"/{tags}/", "/tags/function/")] == data


def test_load_tag_names_the_load_function() -> None:
    assert json.loads(build(R261)["data/minecraft/tags/function/load.json"]) == {
        "values": ["pipes:load"]
    }


def test_mcmeta_shapes() -> None:
    assert mcmeta(PackFormat(61), "d") == {"pack": {"description": "d", "pack_format": 61}}
    assert mcmeta(PackFormat(94, 1), "d")["pack"] == {
        "description": "d",
        "min_format": [94, 1],
        "max_format": 94,
    }


def test_advancement_matches_tagged_frames_without_display() -> None:
    """docs/datapack.md "The advancement": the trigger, both frame types, the nbt tag check."""
    adv = json.loads(build(R261)["data/pipes/advancement/clicked.json"])
    assert "display" not in adv and "parent" not in adv
    assert adv["rewards"] == {"function": "pipes:clicked"}
    (criterion,) = adv["criteria"].values()
    assert criterion["trigger"] == "minecraft:player_interacted_with_entity"
    entity = criterion["conditions"]["entity"]
    assert entity == {
        "type": ["minecraft:item_frame", "minecraft:glow_item_frame"],
        "nbt": '{Tags:["pipes"]}',
    }


def _commands(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_function_tags_the_player_counts_and_revokes() -> None:
    """The frames are marked from the clicker's eyes, as far as its game mode reaches: range
    3 (creative 5) + handleInteract's 3 + a map frame's half diagonal, rounded up; only those
    whose ItemRotation is not the one their rotation tag names (turned since settled) and not
    marked yet; those get the clicker's number, which it gets at its first click."""
    text = build(R261)["data/pipes/function/clicked.mcfunction"].decode()
    eyes = "at @s anchored eyes positioned ^ ^ ^ run tag @e[tag=pipes"

    def marks(test: str, radius: str) -> list[str]:
        return [
            f"execute {test} entity @s[gamemode=creative] {eyes},tag=pipes.r{r},"
            f"tag=!pipes.near,distance=..{radius},nbt=!{{ItemRotation:{r}b}}] add pipes.new"
            for r in range(4)
        ]

    def leave(condition: str, steps: int) -> list[str]:
        """The gesture, on the frames this click marked only (`pipes.new`), one step on."""
        return [
            f"execute {condition}as @e[tag=pipes.new,tag=pipes.r{r},distance=..10.71,"
            f"nbt={{ItemRotation:{r + 1}b}}] run data modify entity @s ItemRotation set value "
            f"{(r + steps) % 8}b"
            for r in range(4)
        ]

    first = "execute unless score @s pipes.who matches 1.. run scoreboard players"

    def tail(gesture: list[str]) -> list[str]:
        return [
            "tag @s add pipes.clicked",
            f"{first} add #players pipes.who 1",
            f"{first} operation @s pipes.who = #players pipes.who",
            *marks("if", "8.71"),
            *marks("unless", "6.71"),
            *gesture,
            "scoreboard players operation #who pipes.who = @s pipes.who",
            "execute as @e[tag=pipes.new,distance=..10.71] run function pipes:note",
            "scoreboard players add #clicks pipes.clicks 1",
            "advancement revoke @s only pipes:clicked",
        ]

    lines = _commands(text)
    stick = tail(leave("if items entity @s weapon.mainhand minecraft:stick ", 7))
    assert lines[-len(stick) :] == stick
    assert lines == function_lines()
    locking = _commands(build(R261)["data/pipes/function/locking.mcfunction"].decode())
    assert locking == tail(leave("", 4)) == lock_lines()


@pytest.mark.parametrize(
    ("reach", "marks"),
    [(None, ["8.71", "6.71"]), (4.5, ["8.71", "6.71"]), (8, ["8.71", "8"]), (9, ["9"])],
)
def test_reach_only_widens_the_marks(reach: float | None, marks: list[str]) -> None:
    """`poll_reach` raises a radius it exceeds; one line serves both modes once it exceeds
    the creative one."""
    lines = [
        line
        for line in function_lines(DatapackConfig(reach=reach))
        if line.endswith("add pipes.new")
    ]
    radii = [line.split("distance=..")[1].split(",")[0] for line in lines]
    assert radii == [radius for radius in marks for _ in range(4)]  # one line per rotation tag
    assert ("gamemode" in lines[0]) == (len(marks) == 2)


def test_every_function_file_holds_its_lines() -> None:
    files = build(R261)
    for name, lines in pack_functions().items():
        assert _commands(files[f"data/pipes/function/{name}.mcfunction"].decode()) == lines
    assert pack_functions()["version"] == [f"return {PROTOCOL}"]


def _substituted(line: str) -> str:
    """A macro line with sample arguments in place (what the server parses at a call)."""
    return line[1:].replace("$(clicks)", "17").replace("$(frames)", "5") if line[0] == "$" else line


def test_function_lines_are_valid_commands() -> None:
    """Every line of every function passes vanilla's grammar (mecha), macro lines with their
    arguments substituted, for default and custom names."""
    custom = DatapackConfig(
        namespace="my_rooms", advancement="turn/frame", clicked_tag="t.x+1", reach=12.5
    )
    lines = [line for c in (DatapackConfig(), custom) for f in pack_functions(c).values()
             for line in f]  # fmt: skip
    assert any(line.startswith("$") for line in lines)
    assert_valid_commands([_substituted(line) for line in lines])


def test_custom_names_move_files_and_ids() -> None:
    config = DatapackConfig(
        namespace="rooms", advancement="turn", frame_tag="room", clicked_tag="c"
    )
    files = build(release("26.2"), config)
    adv = json.loads(files["data/rooms/advancement/turn.json"])
    assert adv["rewards"]["function"] == "rooms:turn"
    assert '"room"' in adv["criteria"]["turned_frame"]["conditions"]["entity"]["nbt"]
    assert b"advancement revoke @s only rooms:turn" in files["data/rooms/function/turn.mcfunction"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"namespace": "Pipes"},
        {"advancement": "a b"},
        {"frame_tag": "a/b"},
        {"clicked_tag": ""},
        {"advancement": "done"},
        {"clicks_objective": "a b"},
        {"reach": 0},
        {"reach": 68.5},
    ],
)
def test_bad_names_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        DatapackConfig(**kwargs)


def test_the_sandbox_loads_the_pack(tmp_path: pathlib.Path) -> None:
    """The content loads in the sandbox's 26.1 loader with no error, every line parsing."""
    root = _write(tmp_path / "pipes", build(R261))
    game = Game()
    content = load_content([PackInfo("file/pipes", "world", root)], game.packs._check_line)
    assert content.errors == []
    assert sorted(content.advancements) == ["pipes:clicked"]
    (crit,) = content.advancements["pipes:clicked"].criteria.values()
    # one advancement for every gesture: no player condition, so the frame's nbt is tested once
    assert crit.checkable and crit.entity is not None and crit.player is None
    assert crit.entity.types == {"minecraft:item_frame", "minecraft:glow_item_frame"}
    assert content.advancements["pipes:clicked"].function == "pipes:clicked"
    assert function_lines()[0] == (
        'execute if predicate {condition:"minecraft:entity_properties",entity:"this",'
        "predicate:{flags:{is_sneaking:true}}} run return run function pipes:locking"
    )
    assert content.functions["pipes:clicked"] == function_lines()
    assert content.functions["pipes:locking"] == lock_lines()
    assert sorted(content.functions) == [
        "pipes:clicked",
        "pipes:done",
        "pipes:load",
        "pipes:locking",
        "pipes:note",
        "pipes:version",
    ]
    assert content.function_tags["minecraft:load"] == ["pipes:load"]


ADMIN_FORMS = [
    "datapack list enabled",
    'datapack enable "file/pipesctl"',
    'datapack disable "file/pipesctl"',
    "reload",
    "function pipes:clicked",
    "execute as @a[tag=pipes.clicked] run tag @s remove pipes.clicked",
    "advancement revoke @a only pipes:clicked",
    "advancement grant @a[tag=pipes.clicked] only pipes:clicked turned_frame",
]


def test_admin_forms_are_valid_commands() -> None:
    """The commands a daemon would send to install and read the pack pass vanilla's grammar."""
    assert_valid_commands(ADMIN_FORMS)


@pytest.mark.parametrize("command", ADMIN_FORMS)
def test_admin_forms_parse_in_the_sandbox(command: str) -> None:
    """The sandbox's dispatcher takes the same forms (docs/sandbox-datapacks.md §2–§5)."""
    from controller.sandbox.commands import flatten, get_parse_exception, parse

    game = Game()
    result = parse(game.root, command)
    assert get_parse_exception(result) is None
    assert flatten(result.ctx) is not None
