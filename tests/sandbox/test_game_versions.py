"""The sandbox plays the release it is given and refuses what that release refuses
(docs/server-behaviour.md, "Versions: frame position" to "Versions: block and entity ids";
docs/sandbox-datapacks.md, "Release profiles")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller import versions
from controller.sandbox.datapacks import pack_compatibility
from controller.sandbox.game import Game
from controller.versions import UnsupportedVersion
from tests.support.sandbox_game import reply

UID = "00000001-0000-0002-0000-000300000004"  # [I;1,2,3,4]
MAP = 'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":5}}'
POS = "Pos:[3.5d,64.03125d,3.5d]"
OLD, NEW = "see below for error", "See below for error"


def game(version: str) -> Game:
    g = Game(version=version)
    assert reply(g, "forceload add 0 0").startswith("Marked chunk")
    return g


def frame(g: Game, extra: str) -> str:
    """Summon a floor frame with UUID [I;1,2,3,4] at 3 64 3; the reply, one tick later loaded."""
    out = reply(g, f"summon minecraft:item_frame 3 64 3 {{UUID:[I;1,2,3,4],Facing:1b,{extra}}}")
    g.tick()
    return out


def test_an_unsupported_release_is_refused() -> None:
    with pytest.raises(UnsupportedVersion, match="1.20.5 to 26.2"):
        Game(version="1.20.4")
    assert Game().release.name == "26.1"
    assert Game(version=versions.release("1.21.4")).release.name == "1.21.4"


# ---------------------------------------------------------------------------- commands
@pytest.mark.parametrize(
    ("version", "wording"),
    [("1.20.5", OLD), ("1.21.4", OLD), ("1.21.8", OLD), ("1.21.9", NEW), ("26.1", NEW)],
)
def test_an_unknown_command_in_the_release_s_words(version: str, wording: str) -> None:
    assert reply(Game(version=version), "foo") == (
        f"Unknown or incomplete command{',' if wording == OLD else '.'} {wording}foo<--[HERE]"
    )


@pytest.mark.parametrize("version", ["1.20.5", "1.21", "1.21.4", "1.21.5"])
def test_no_version_command_before_1_21_6(version: str) -> None:
    """VersionCommand and its strings first appear in 1.21.6 ("Versions: detecting the
    version"): before, `version` is an unknown command."""
    assert reply(Game(version=version), "version") == (
        f"Unknown or incomplete command, {OLD}version<--[HERE]"
    )


@pytest.mark.parametrize(
    ("version", "data", "protocol", "pack"),
    [
        ("1.21.6", 4435, "771 (0x303)", "80"),
        ("1.21.8", 4440, "772 (0x304)", "81"),
        ("1.21.10", 4556, "773 (0x305)", "88.0"),
        ("26.2", 4903, "776 (0x308)", "107.1"),
    ],
)
def test_the_version_command_names_the_release(
    version: str, data: int, protocol: str, pack: str
) -> None:
    got = Game(version=version).execute("version")
    assert got[:4] == ["Server version info:", f"id = {version}", f"name = {version}",
                       f"data = {data}"]  # fmt: skip
    assert got[5] == f"protocol = {protocol}"
    assert got[8] == f"pack_data = {pack}"
    assert got[9] == "stable = yes"


def test_paper_keeps_its_own_version_command_on_every_release() -> None:
    for version in ("1.20.5", "26.1"):
        assert Game("paper", version).execute("version") == [
            "§f§oChecking version, please wait...\n"
        ]


@pytest.mark.parametrize(
    "command",
    [
        "setblock 0 64 0 minecraft:stone strict",
        "fill 0 64 0 1 64 1 minecraft:stone strict",
        "fill 0 64 0 1 64 1 minecraft:stone replace minecraft:air hollow",
        "clone 0 64 0 1 64 1 4 64 4 strict",
    ],
)
def test_forms_new_in_1_21_5_are_refused_before(command: str) -> None:
    old = reply(game("1.21.4"), command)
    assert old.startswith("Incorrect argument for command"), old
    new = reply(game("1.21.5"), command)
    assert not new.startswith(("Incorrect argument", "Unknown or incomplete")), new


@pytest.mark.parametrize(("version", "text"), [("1.21.4", "The time is 0"),
                                               ("1.21.11", "The time is 0"),
                                               ("26.1", "The game time is 0 tick(s)")])  # fmt: skip
def test_time_query_gametime(version: str, text: str) -> None:
    """TimeCommand: `commands.time.query` before 26.1, its own key in 26.1."""
    assert reply(Game(version=version), "time query gametime") == text


# ---------------------------------------------------------------------------- gamerules
def test_gamerules_before_1_21_11_are_camel_case_without_a_namespace() -> None:
    g = Game(version="1.21.4")
    assert reply(g, "gamerule commandModificationBlockLimit") == (
        "Gamerule commandModificationBlockLimit is currently set to: 32768"
    )
    for name in ("max_block_modifications", "minecraft:commandModificationBlockLimit"):
        assert reply(g, f"gamerule {name}") == (
            f"Incorrect argument for commandgamerule {name}<--[HERE]"
        )


def test_gamerules_from_1_21_11_are_snake_case_with_or_without_a_namespace() -> None:
    g = Game(version="1.21.11")
    for name in ("max_block_modifications", "minecraft:max_block_modifications"):
        assert reply(g, f"gamerule {name}") == (
            "Gamerule max_block_modifications is currently set to: 32768"
        )
    assert reply(g, "gamerule commandModificationBlockLimit").startswith(
        "Incorrect argument for command"
    )


@pytest.mark.parametrize(
    ("version", "rule", "toobig"),
    [
        ("1.21.4", "commandModificationBlockLimit", "(maximum 8, specified 27)"),
        ("1.21.10", "commandModificationBlockLimit", "(maximum 8, but specified 27)"),
        ("26.1", "max_block_modifications", "(maximum 8, but specified 27)"),
    ],
)
def test_the_fill_limit_follows_the_release_s_rule(version: str, rule: str, toobig: str) -> None:
    g = game(version)
    assert reply(g, f"gamerule {rule} 8") == f"Gamerule {rule} is now set to: 8"
    assert reply(g, "fill 0 64 0 2 66 2 minecraft:stone") == (
        f"Too many blocks in the specified area {toobig}"
    )
    assert reply(g, "fill 0 64 0 1 65 1 minecraft:stone") == "Successfully filled 8 block(s)"


def test_integer_rules_before_1_21_11_take_any_int() -> None:
    """GameRules.IntegerValue.create(int): IntegerArgumentType.integer(), no bounds."""
    g = Game(version="1.21.4")
    assert reply(g, "gamerule maxCommandForkCount -5") == (
        "Gamerule maxCommandForkCount is now set to: -5"
    )
    assert reply(g, "gamerule spawnChunkRadius 33").startswith("Integer must not be more than 32")


# ---------------------------------------------------------------------------- names
def test_a_snbt_name_is_refused_before_1_21_5() -> None:
    """Entity.load parses a string CustomName as JSON: `pipes:lobby:0:0` is not, so the WARN
    line is logged and the frame stays unnamed ("Versions: names inside NBT")."""
    g = game("1.21.4")
    assert frame(g, f'{POS},TileX:3,TileY:64,TileZ:3,CustomName:"pipes:lobby:0:0",{MAP}') == (
        "Summoned new Item Frame"
    )
    assert g.world.server_log == [("WARN", "Failed to parse entity custom name pipes:lobby:0:0")]
    assert reply(g, """execute if entity @e[name="pipes:lobby:0:0"]""") == "Test failed"
    assert reply(g, f"data get entity {UID} CustomName") == "Found no elements matching CustomName"


def test_a_json_name_names_the_frame_before_1_21_5() -> None:
    g = game("1.21.4")
    summoned = frame(g, f"""{POS},TileX:3,TileY:64,TileZ:3,CustomName:'"pipes:lobby:0:0"',{MAP}""")
    assert summoned == "Summoned new pipes:lobby:0:0"
    assert g.world.server_log == []
    assert reply(g, """execute if entity @e[name="pipes:lobby:0:0"]""") == "Test passed, count: 1"
    assert reply(g, f"data get entity {UID} CustomName") == (
        """pipes:lobby:0:0 has the following entity data: '"pipes:lobby:0:0"'"""
    )


def test_a_name_that_is_no_string_leaves_the_frame_unnamed_without_a_log_line() -> None:
    g = game("1.20.5")
    assert frame(g, f'{POS},TileX:3,TileY:64,TileZ:3,CustomName:{{text:"a"}}') == (
        "Summoned new Item Frame"
    )
    assert g.world.server_log == []


def test_a_json_string_is_a_name_with_quotes_from_1_21_5() -> None:
    """ComponentSerialization.CODEC reads a string as literal text: the quotes stay."""
    for version in ("1.21.5", "26.1"):
        g = game(version)
        summoned = frame(g, f"""{POS},block_pos:[I;3,64,3],CustomName:'"pipes:lobby:0:0"'""")
        assert summoned == 'Summoned new "pipes:lobby:0:0"'
        assert g.world.server_log == []


# ---------------------------------------------------------------------------- frame position
@pytest.mark.parametrize(
    ("version", "subject"), [("1.20.5", "Hanging entity"), ("1.21.4", "Block-attached entity")]
)
def test_block_pos_is_not_read_before_1_21_5(version: str, subject: str) -> None:
    """TileX/TileY/TileZ are read with getInt (0 when missing): a frame summoned the 26.x way
    is compared with block 0 0 0 and logged ("Versions: frame position")."""
    g = game(version)
    frame(g, f"{POS},block_pos:[I;3,64,3],{MAP}")
    assert g.world.server_log == [
        ("ERROR", f"{subject} at invalid position: BlockPos{{x=0, y=0, z=0}}")
    ]


def test_tile_keys_are_not_read_from_1_21_5() -> None:
    g = game("1.21.5")
    frame(g, f"{POS},TileX:3,TileY:64,TileZ:3,{MAP}")
    assert g.world.server_log == [("ERROR", "Block-attached entity at invalid position: null")]


def test_a_1_21_4_frame_prints_its_own_keys() -> None:
    g = game("1.21.4")
    frame(g, f"{POS},TileX:3,TileY:64,TileZ:3,Fixed:1b")
    dump = reply(g, f"data get entity {UID}")
    for key in ("TileX: 3", "TileY: 64", "TileZ: 3", "FallDistance: 0.0f"):
        assert key in dump, dump
    for key in ("block_pos", "fall_distance", "ItemRotation", "ItemDropChance"):
        assert key not in dump, dump  # an empty frame saves no rotation before 1.21.5
    # the merged compound differs from the save, so it is loaded, but without an item the
    # rotation is not read
    assert reply(g, f"data merge entity {UID} {{ItemRotation:3b}}") == (
        "Modified entity data of Item Frame"
    )
    assert reply(g, f"data get entity {UID} ItemRotation") == (
        "Found no elements matching ItemRotation"
    )


def test_a_26_1_frame_keeps_its_rotation_without_an_item() -> None:
    g = game("26.1")
    frame(g, f"{POS},block_pos:[I;3,64,3],Fixed:1b")
    assert reply(g, f"data merge entity {UID} {{ItemRotation:3b}}") == (
        "Modified entity data of Item Frame"
    )
    assert reply(g, f"data get entity {UID} ItemRotation") == (
        "Item Frame has the following entity data: 3b"
    )


# ---------------------------------------------------------------------------- data packs
def _pack(root: Path, name: str, meta: dict[str, object], folder: str) -> None:
    pack = root / "datapacks" / name
    (pack / "data" / "t" / folder).mkdir(parents=True)
    (pack / "pack.mcmeta").write_text(json.dumps({"pack": {"description": "t", **meta}}))
    (pack / "data" / "t" / folder / "hello.mcfunction").write_text("say hi\n")


@pytest.mark.parametrize(
    ("version", "meta", "loads_from"),
    [
        ("1.20.6", {"pack_format": 41}, "functions"),
        ("1.21", {"pack_format": 48}, "function"),
        ("1.21.4", {"pack_format": 48}, "function"),  # incompatible, still loaded
        ("26.1", {"min_format": [101, 1], "max_format": 101}, "function"),
    ],
)
def test_functions_load_from_the_release_s_folder(
    tmp_path: Path, version: str, meta: dict[str, object], loads_from: str
) -> None:
    other = "function" if loads_from == "functions" else "functions"
    _pack(tmp_path, "right", meta, loads_from)
    _pack(tmp_path, "wrong", meta, other)
    g = Game(version=version)
    g.configure_datapacks(tmp_path / "datapacks")
    assert reply(g, "function t:hello") == "Running function t:hello"
    enabled = reply(g, "datapack list enabled")
    assert "file/right" in enabled and "file/wrong" in enabled, enabled


@pytest.mark.parametrize("meta", [{"min_format": [61, 0], "max_format": 61}, {}])
def test_a_pack_without_pack_format_is_not_available_before_1_21_9(
    tmp_path: Path, meta: dict[str, object]
) -> None:
    """PackMetadataSection before 1.21.9: `Codec.INT.fieldOf("pack_format")` is required."""
    _pack(tmp_path, "p", meta, "function")
    old = Game(version="1.21.4")
    old.configure_datapacks(tmp_path / "datapacks")
    assert "file/p" not in reply(old, "datapack list")
    new = Game(version="26.1")
    new.configure_datapacks(tmp_path / "datapacks")
    assert "file/p" in reply(new, "datapack list")


@pytest.mark.parametrize(
    ("meta", "verdict"),
    [
        ({"pack_format": 61}, "compatible"),
        ({"pack_format": 48}, "too_old"),
        ({"pack_format": 71}, "too_new"),
        ({"pack_format": 48, "supported_formats": [48, 61]}, "compatible"),
        ({"pack_format": 48, "supported_formats": {"min_inclusive": 48, "max_inclusive": 61}},
         "compatible"),
        ({"pack_format": 48, "supported_formats": 61}, "too_old"),  # range must hold the format
        ({"pack_format": 48, "supported_formats": [61, 48]}, "too_old"),  # min > max: ignored
        ({"min_format": 61, "max_format": 61}, "invalid"),
    ],
)  # fmt: skip
def test_pack_formats_before_1_21_9(meta: dict[str, object], verdict: str) -> None:
    """Pack.getDeclaredPackVersions + PackCompatibility.forVersion of 1.21.4 (format 61)."""
    assert pack_compatibility(meta, versions.release("1.21.4")) == verdict


def test_pack_formats_from_1_21_9_by_release() -> None:
    meta = {"min_format": [101, 1], "max_format": 101}
    assert pack_compatibility(meta, versions.release("26.1")) == "compatible"
    assert pack_compatibility(meta, versions.release("26.2")) == "too_old"
    assert pack_compatibility({"pack_format": 48}, versions.release("1.21.9")) == "too_old"


# ---------------------------------------------------------------------------- saving
def test_a_saved_world_keeps_its_release(tmp_path: Path) -> None:
    g = game("1.21.4")
    frame(g, f"""{POS},TileX:3,TileY:64,TileZ:3,CustomName:'"n"',{MAP}""")
    g.save(tmp_path / "w")
    back = Game.load(tmp_path / "w")
    assert back.release.name == "1.21.4"
    back.tick()
    assert reply(back, f"data get entity {UID} CustomName") == (
        """n has the following entity data: '"n"'"""
    )
    assert back.world.server_log == []
    with pytest.raises(ValueError, match="saved by Minecraft 1.21.4, not 26.1"):
        Game.load(tmp_path / "w", version="26.1")


# ---------------------------------------------------------------------------- text in commands
@pytest.mark.parametrize(
    "text", ['{"text":"hi"}', '"hi"', '["h",{"text":"i"}]', '{"text":"h","extra":["i"]}']
)
def test_json_text_in_commands_before_1_21_5(text: str) -> None:
    """ParserUtils.parseJson: one strict JSON value ("Versions: text in commands")."""
    g = Game(version="1.21.4")
    g.join("Alex", (0.5, 64.0, 0.5))
    assert reply(g, f"tellraw Alex {text}") == ""
    assert reply(g, f"scoreboard objectives add o dummy {text}") == "Created new objective [hi]"
    assert [m["text"] for m in g.inbox("Alex")] == ["hi"]


@pytest.mark.parametrize("text", ['{text:"hi"}', "'hi'", "hi", "12", "[]", '{"bold":true}'])
def test_what_is_no_json_text_before_1_21_5(text: str) -> None:
    g = Game(version="1.21.4")
    g.join("Alex", (0.5, 64.0, 0.5))
    assert reply(g, f"tellraw Alex {text}").startswith("Invalid chat component: ")
    assert g.inbox("Alex") == []


def test_snbt_text_in_commands_from_1_21_5() -> None:
    g = Game(version="1.21.5")
    g.join("Alex", (0.5, 64.0, 0.5))
    assert reply(g, 'tellraw Alex {text:"hi"}') == ""
    assert [m["text"] for m in g.inbox("Alex")] == ["hi"]


def test_a_save_loads_in_a_newer_release_only_with_the_same_form(tmp_path: Path) -> None:
    g = game("1.21.9")
    g.save(tmp_path / "w")
    assert Game.load(tmp_path / "w", version="1.21.10").release.name == "1.21.10"
    with pytest.raises(ValueError, match="saved by Minecraft 1.21.9, not 1.21.11"):
        Game.load(tmp_path / "w", version="1.21.11")  # gamerules renamed
    with pytest.raises(ValueError, match="saved by Minecraft 1.21.9, not 1.21.8"):
        Game.load(tmp_path / "w", version="1.21.8")  # never back to an older release
