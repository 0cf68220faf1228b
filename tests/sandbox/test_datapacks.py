"""Sandbox data packs: discovery, datapack/reload/function/advancement, the interaction trigger.

Each test cites its section of docs/sandbox-datapacks.md.
"""

from __future__ import annotations

import json
import pathlib
import uuid
import zipfile

import nbtlib
import pytest
from nbtlib import tag as nbt

from controller.sandbox import Sandbox
from controller.sandbox.game import Game
from controller.versions import release
from controller.world.datapack import DatapackConfig, build
from tests.support.sandbox_game import FRAME, UUID1, check_rows, reply

U1 = uuid.UUID(UUID1)
MAP = nbtlib.Compound(
    {
        "id": nbt.String("minecraft:filled_map"),
        "count": nbt.Int(1),
        "components": nbt.Compound({"minecraft:map_id": nbt.Int(7)}),
    }
)


def write_pack(folder: pathlib.Path, files: dict[str, bytes]) -> pathlib.Path:
    """Write a pack's files under `folder`."""
    for rel, data in files.items():
        f = folder / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(data)
    return folder


def mcmeta(description: str = "test") -> bytes:
    return json.dumps({"pack": {"description": description, "min_format": [101, 1],
                                "max_format": 101}}).encode()  # fmt: skip


def frame_cmd(x: int = 0, y: int = 64, z: int = 0, extra: str = "", rot: int = 0) -> str:
    return FRAME.format(x=x, y=y, z=z, rot=rot, u0=1, u1=-2, u2=3, u3=4, room="lobby", i=0,
                        j=0, extra=extra, map=5)  # fmt: skip


@pytest.fixture
def packs_dir(tmp_path: pathlib.Path) -> pathlib.Path:
    """A datapacks folder holding the companion pack as `file/pipes`."""
    d = tmp_path / "datapacks"
    write_pack(d / "pipes", build(release("26.1")))
    return d


@pytest.fixture
def game(packs_dir: pathlib.Path) -> Game:
    """A started game with the companion pack, a support block, a room frame and Alex."""
    g = Game()
    g.configure_datapacks(packs_dir)
    g.join("Alex", (0.5, 64.0, 2.5))
    g.tick()
    g.tick()
    assert reply(g, "setblock 0 63 0 minecraft:stone") == "Changed the block at 0, 63, 0"
    assert reply(g, frame_cmd()) == "Summoned new pipes:lobby:0:0"
    return g


# ---------------------------------------------------------------------------- §1 discovery
def test_new_packs_are_enabled_at_start(game: Game) -> None:
    """§1: vanilla first, then new world packs; the level.dat config records it."""
    assert game.packs.selected == ["vanilla", "file/pipes"]
    assert game.packs.to_json() == {"Enabled": ["vanilla", "file/pipes"], "Disabled": []}


def test_discovery_rules(tmp_path: pathlib.Path) -> None:
    """§1: folders need pack.mcmeta with a description, files must be .zip; ids are sorted."""
    d = tmp_path / "datapacks"
    write_pack(d / "zeta", {"pack.mcmeta": mcmeta()})
    write_pack(d / "no_meta", {"data/x/function/f.mcfunction": b"say hi\n"})
    write_pack(d / "no_description", {"pack.mcmeta": b'{"pack": {"pack_format": 48}}'})
    write_pack(d / "broken", {"pack.mcmeta": b"{not json"})
    (d / "notes.txt").write_text("not a pack")
    with zipfile.ZipFile(d / "alpha.zip", "w") as z:
        z.writestr("pack.mcmeta", mcmeta())
        z.writestr("data/alpha/function/hi.mcfunction", "say hi\n")
    g = Game()
    g.configure_datapacks(d)
    assert list(g.packs.available) == ["file/alpha.zip", "file/zeta", "vanilla"]
    assert g.packs.selected == ["vanilla", "file/alpha.zip", "file/zeta"]
    assert "alpha:hi" in g.packs.content.functions  # zip content is read


def test_without_packs_only_vanilla(tmp_path: pathlib.Path) -> None:
    g = Game()
    g.configure_datapacks(tmp_path / "missing")
    rows = [
        ("datapack list enabled", "There are 1 data pack(s) enabled: [vanilla (built-in)]", "§2"),
        ("datapack list available", "There are no more data packs available", "§2"),
    ]
    check_rows(g, rows)


# ---------------------------------------------------------------------------- §2 commands
def test_datapack_commands(game: Game) -> None:
    """§2: DataPackCommand messages; names need quotes when they hold a `/`."""
    rows = [
        (
            "datapack list",
            "There are 2 data pack(s) enabled: [vanilla (built-in)], [file/pipes (world)]"
            "There are no more data packs available",
            "§2 listPacks = enabled + available",
        ),
        ('datapack enable "file/pipes"', "Pack 'file/pipes' is already enabled!", "§2"),
        ('datapack enable "file/nope"', "Unknown data pack 'file/nope'", "§2"),
        ('datapack disable "file/nope"', "Unknown data pack 'file/nope'", "§2"),
        (
            "datapack disable file/pipes",
            "Expected whitespace to end one argument, but found trailing data"
            "...sable file/pipes<--[HERE]",
            "§2 StringArgumentType.string stops at /",
        ),
        ('datapack disable "file/pipes"', "Disabling data pack [file/pipes (world)]", "§2"),
    ]
    check_rows(game, rows)
    # the reload completes at the next tick (§3)
    assert game.packs.selected == ["vanilla", "file/pipes"]
    game.tick()
    rows = [
        ('datapack disable "file/pipes"', "Pack 'file/pipes' is not enabled!", "§2"),
        (
            "datapack list",
            "There are 1 data pack(s) enabled: [vanilla (built-in)]"
            "There are 1 data pack(s) available: [file/pipes (world)]",
            "§2",
        ),
        ('datapack enable "file/pipes"', "Enabling data pack [file/pipes (world)]", "§2"),
    ]
    check_rows(game, rows)
    game.tick()
    assert game.packs.selected == ["vanilla", "file/pipes"]


def test_enable_first_puts_the_pack_under_vanilla(game: Game) -> None:
    reply(game, 'datapack disable "file/pipes"')
    game.tick()
    assert reply(game, 'datapack enable "file/pipes" first').startswith("Enabling")
    game.tick()
    assert game.packs.selected == ["file/pipes", "vanilla"]


def test_disabled_pack_is_unloaded_and_stays_disabled_on_reload(game: Game) -> None:
    """§3: reload enables only packs that are neither selected nor in Disabled."""
    reply(game, 'datapack disable "file/pipes"')
    game.tick()
    assert "pipes:clicked" not in game.packs.content.advancements
    assert reply(game, "reload") == "Reloading!"
    game.tick()
    assert game.packs.selected == ["vanilla"]
    assert game.packs.to_json() == {"Enabled": ["vanilla"], "Disabled": ["file/pipes"]}


def test_reload_finds_new_packs_and_new_content(game: Game, packs_dir: pathlib.Path) -> None:
    """§3: `reload` rescans the folder; the new content is active after the next tick."""
    write_pack(packs_dir / "extra", {"pack.mcmeta": mcmeta(),
                                     "data/extra/function/hi.mcfunction": b"say hi\n"})  # fmt: skip
    assert reply(game, "function extra:hi") == "Unknown function extra:hi"
    assert reply(game, "reload") == "Reloading!"
    assert reply(game, "function extra:hi") == "Unknown function extra:hi"  # not yet
    game.tick()
    assert game.packs.selected == ["vanilla", "file/pipes", "file/extra"]
    assert reply(game, "function extra:hi") == "Running function extra:hi"


def test_list_rescans_but_does_not_enable(game: Game, packs_dir: pathlib.Path) -> None:
    """§2: `datapack list` rescans the folder (PackRepository.reload) without selecting."""
    write_pack(packs_dir / "late", {"pack.mcmeta": mcmeta()})
    assert reply(game, "datapack list available") == (
        "There are 1 data pack(s) available: [file/late (world)]"
    )
    assert reply(game, 'datapack enable "file/late"') == "Enabling data pack [file/late (world)]"


# ---------------------------------------------------------------------------- §4 functions
def test_function_command_runs_silently(game: Game, packs_dir: pathlib.Path) -> None:
    """§4: "Running function", then the lines run with their feedback suppressed."""
    write_pack(packs_dir / "extra", {"pack.mcmeta": mcmeta(),
        "data/extra/function/hi.mcfunction": b"# comment\n\nscoreboard objectives add x dummy\n",
        "data/extra/function/two.mcfunction": b"function extra:hi\n",
        "data/extra/tags/function/all.json": b'{"values": ["extra:hi", "extra:two"]}',
    })  # fmt: skip
    reply(game, "reload")
    game.tick()
    rows = [
        ("function extra:hi", "Running function extra:hi", "§4 scheduled.single"),
        ("scoreboard objectives add x dummy", "An objective already exists by that name", "§4"),
        ("function #extra:all", "Running functions extra:hi, extra:two", "§4 scheduled.multiple"),
        ("function #extra:none", "Unknown function tag 'extra:none'", "§4"),
        ("function extra:nope", "Unknown function extra:nope", "§4"),
    ]
    check_rows(game, rows)


@pytest.mark.parametrize(
    "body",
    [
        b"/say hi\n",
        b"say hi\nnot_a_command\n",
        b"tag @s add\n",
        b"$say hi\n",  # StringTemplate: no variables in macro
        b"$say $(x\n",  # unterminated macro variable
        b"$say $(a-b)\n",  # invalid macro variable name
        b"$say $(x)\nnot_a_command\n",  # plain lines of a macro function are checked at load
    ],
)
def test_functions_that_do_not_parse_are_not_loaded(
    game: Game, packs_dir: pathlib.Path, body: bytes
) -> None:
    """§4: a leading `/`, an unknown command or a malformed macro line keeps the function out."""
    write_pack(packs_dir / "bad", {"pack.mcmeta": mcmeta(),
                                   "data/bad/function/f.mcfunction": body})  # fmt: skip
    reply(game, "reload")
    game.tick()
    assert "bad:f" not in game.packs.content.functions
    assert any("bad:f" in e for e in game.packs.content.errors)


# ---------------------------------------------------------------------------- §5 advancements
def test_advancement_commands(game: Game) -> None:
    """§5: AdvancementCommands messages; granting runs the reward, which revokes again."""
    rows = [
        ("advancement grant Alex only pipes:clicked",
         "Granted the advancement pipes:clicked to Alex", "§5 one.to.one"),
        ("advancement revoke Alex only pipes:clicked",
         "Couldn't revoke advancement pipes:clicked from Alex as they don't have it",
         "§5 the reward already revoked it"),
        ("advancement grant Alex only pipes:nope", "Unknown advancement: pipes:nope", "§5"),
        ("advancement grant Alex only pipes:clicked nope",
         "The advancement pipes:clicked does not contain the criterion 'nope'", "§5"),
        ("advancement grant Alex only pipes:clicked turned_frame",
         "Granted criterion 'turned_frame' of advancement pipes:clicked to Alex", "§5"),
        ("advancement grant Nobody only pipes:clicked", "No player was found", "§5"),
    ]  # fmt: skip
    check_rows(game, rows)
    assert "pipes.clicked" in game.world.players["Alex"].tags


def test_revoke_and_grant_without_reward(game: Game, packs_dir: pathlib.Path) -> None:
    """§5: an advancement without reward stays granted until revoked."""
    adv = {"criteria": {"a": {"trigger": "minecraft:impossible"}}}
    files = {"pack.mcmeta": mcmeta(), "data/plain/advancement/x.json": json.dumps(adv).encode()}
    write_pack(packs_dir / "plain", files)
    reply(game, "reload")
    game.tick()
    rows = [
        ("advancement grant Alex only plain:x", "Granted the advancement plain:x to Alex", "§5"),
        ("advancement grant Alex only plain:x",
         "Couldn't grant advancement plain:x to Alex as they already have it", "§5"),
        ("advancement revoke Alex only plain:x", "Revoked the advancement plain:x from Alex", "§5"),
        ("advancement revoke Alex only plain:x a",
         "Couldn't revoke criterion 'a' of advancement plain:x from Alex as they don't have it",
         "§5"),
    ]  # fmt: skip
    check_rows(game, rows)


# ---------------------------------------------------------------------------- §6 trigger
def test_turning_a_room_frame_tags_the_player_every_time(game: Game) -> None:
    """§6: a successful interaction fires the trigger; the reward revokes, so it fires again."""
    player = game.world.players["Alex"]
    for turn in range(1, 4):
        assert game.use_entity("Alex", U1)
        assert player.tags == ["pipes.clicked"]
        assert game.world.get_entity(U1).item_rotation == turn  # type: ignore[union-attr]
        assert game.world.advancements["Alex"].get("pipes:clicked") is None
        assert (
            reply(game, "tag Alex remove pipes.clicked") == "Removed tag 'pipes.clicked' from Alex"
        )


def test_trigger_nbt_check_costs_one_serialization(game: Game) -> None:
    """§6: the advancement's entity nbt condition serializes the frame once, as an nbt=
    selector does (one advancement for every gesture); the reward function's marks test each
    frame within reach once more (here the one frame)."""
    before = dict(game.background_cost)
    game.use_entity("Alex", U1)
    assert game.background_cost["nbt_serializations"] - before["nbt_serializations"] == 1 + 1


def test_a_sneaking_click_tests_the_frame_once_in_the_criterion(game: Game) -> None:
    """§13: the reward tells a sneaking click by an inline predicate on the player (no
    serialization); the lock's own step tests the frames within reach once more and its
    `data modify entity` serializes the clicked frame, then the marks test it."""
    game.sneak("Alex")
    game.tick()
    before = dict(game.background_cost)
    game.use_entity("Alex", U1)
    serialized = game.background_cost["nbt_serializations"] - before["nbt_serializations"]
    assert serialized == 1 + 1 + 1 + 1
    assert game.world.get_entity(U1).item_rotation == 4  # type: ignore[union-attr]


def _frame(game: Game, cmd: str) -> uuid.UUID:
    assert reply(game, cmd).startswith("Summoned new")
    e = list(game.world.entities.values())[-1]
    return e.uuid


@pytest.mark.parametrize(
    ("summon", "hand", "mode", "result", "tagged"),
    [
        ("{Facing:1b,Tags:[\"pipes\"],Item:{id:\"minecraft:filled_map\",count:1}}", None,
         "survival", "success", True),
        ("{Facing:1b,Tags:[\"pipes\"]}", None, "survival", "pass", False),  # empty, empty hand
        ("{Facing:1b,Tags:[\"pipes\"]}", "map", "survival", "success", True),  # inserts
        ("{Facing:1b,Tags:[\"pipes\"],Fixed:1b,Item:{id:\"minecraft:filled_map\",count:1}}",
         None, "survival", "pass", False),
        ("{Facing:1b,Tags:[\"pipes\"],Item:{id:\"minecraft:filled_map\",count:1}}", None,
         "spectator", "pass", False),
        ("{Facing:1b,Tags:[\"other\"],Item:{id:\"minecraft:filled_map\",count:1}}", None,
         "survival", "success", False),  # not a room frame: no tag
        ("{Facing:1b,Tags:[\"pipes\"],Item:{id:\"minecraft:filled_map\",count:1}}", None,
         "creative", "success", True),
    ],
)  # fmt: skip
def test_which_interactions_fire(
    game: Game, summon: str, hand: str | None, mode: str, result: str, tagged: bool
) -> None:
    """§6: ItemFrame.interact's SUCCESS fires; PASS (Fixed, empty+empty hand, spectator) not."""
    reply(game, "setblock 3 63 0 minecraft:stone")
    uid = _frame(game, f"summon minecraft:item_frame 3 64 0 {summon}")
    game.give("Alex", MAP if hand else None)
    game.set_game_mode("Alex", mode)
    assert game.interact("Alex", uid) == result
    assert ("pipes.clicked" in game.world.players["Alex"].tags) == tagged


def test_glow_frames_match_too(game: Game) -> None:
    reply(game, "setblock 3 63 0 minecraft:stone")
    uid = _frame(game, 'summon minecraft:glow_item_frame 3 64 0 {Facing:1b,Tags:["pipes"],'
                       'Item:{id:"minecraft:filled_map",count:1}}')  # fmt: skip
    assert game.use_entity("Alex", uid)
    assert game.world.players["Alex"].tags == ["pipes.clicked"]


def test_inserting_consumes_in_survival_only(game: Game) -> None:
    """§6: ItemStack.consume(1, player) keeps creative hands full."""
    reply(game, "setblock 3 63 0 minecraft:stone")
    reply(game, "setblock 4 63 0 minecraft:stone")
    a = _frame(game, "summon minecraft:item_frame 3 64 0 {Facing:1b}")
    b = _frame(game, "summon minecraft:item_frame 4 64 0 {Facing:1b}")
    game.give("Alex", MAP)
    assert game.use_entity("Alex", a)
    assert game.world.players["Alex"].held_item is None
    game.set_game_mode("Alex", "creative")
    game.give("Alex", MAP)
    assert game.use_entity("Alex", b)
    assert game.world.players["Alex"].held_item is not None


def test_reward_feedback_never_reaches_rcon(game: Game) -> None:
    """§4: reward functions run with suppressed output; the next RCON reply is its own."""
    before = list(game.out)
    game.use_entity("Alex", U1)
    assert game.out == before  # the tag and revoke feedback went nowhere
    assert reply(game, "list") == "There are 1 of a max of 20 players online: Alex"


def test_disabled_pack_does_not_fire(game: Game) -> None:
    reply(game, 'datapack disable "file/pipes"')
    game.tick()
    assert game.use_entity("Alex", U1)
    assert game.world.players["Alex"].tags == []


def test_custom_config_pack(tmp_path: pathlib.Path) -> None:
    """§6: a pack built with other names fires for frames carrying its tag."""
    config = DatapackConfig(namespace="rooms", advancement="turn", frame_tag="pipes.lobby")
    write_pack(tmp_path / "datapacks" / "rooms", build(release("26.1"), config))
    g = Game()
    g.configure_datapacks(tmp_path / "datapacks")
    g.join("Alex", (0.5, 64.0, 2.5))
    g.tick()
    g.tick()
    reply(g, "setblock 0 63 0 minecraft:stone")
    reply(g, frame_cmd())
    assert g.use_entity("Alex", U1)
    assert g.world.players["Alex"].tags == ["pipes.clicked"]


# ---------------------------------------------------------------------------- §7 persistence
def test_config_and_progress_survive_save_and_load(game: Game, tmp_path: pathlib.Path) -> None:
    """§7: DataPacks Enabled/Disabled and advancement progress are saved with the world."""
    reply(game, 'datapack disable "file/pipes"')
    game.tick()
    world = tmp_path / "world"
    game.save(world)
    loaded = Game.load(world)
    loaded.configure_datapacks(tmp_path / "datapacks")
    assert loaded.packs.selected == ["vanilla"]
    assert loaded.packs.to_json() == {"Enabled": ["vanilla"], "Disabled": ["file/pipes"]}


def test_sandbox_world_dir_packs_and_restart(tmp_path: pathlib.Path) -> None:
    """§7: packs under <world_dir>/datapacks load at start; a disabled pack stays disabled."""
    world = tmp_path / "world"
    write_pack(world / "datapacks" / "pipes", build(release("26.1")))
    with Sandbox(world_dir=world) as sb:  # a folder holding only datapacks/ is a new world
        assert sb.call(lambda g: list(g.packs.selected)) == ["vanilla", "file/pipes"]
        sb.call(lambda g: reply(g, 'datapack disable "file/pipes"'))
        sb.tick(2)
        sb.restart()
        assert sb.call(lambda g: list(g.packs.selected)) == ["vanilla"]
    with Sandbox(world_dir=world) as sb:
        assert sb.call(lambda g: g.packs.to_json()) == {
            "Enabled": ["vanilla"],
            "Disabled": ["file/pipes"],
        }
        assert sb.datapack_dir == world / "datapacks"
    assert Sandbox().datapack_dir is None


def test_installing_over_rcon_while_running(tmp_path: pathlib.Path) -> None:
    """§3: files written into datapack_dir, then `reload` over RCON, then the pack is active."""
    from mcrcon import MCRcon

    with Sandbox(world_dir=tmp_path / "world") as sb:
        assert sb.datapack_dir is not None
        write_pack(sb.datapack_dir / "pipesctl", build(release("26.1")))
        with MCRcon(sb.host, sb.password, sb.port) as rcon:
            assert rcon.command("reload") == "Reloading!"
            sb.tick(1)
            assert rcon.command("datapack list enabled") == (
                "There are 2 data pack(s) enabled: [vanilla (built-in)], [file/pipesctl (world)]"
            )
            assert rcon.command("function pipes:clicked") == "Running function pipes:clicked"


# ------------------------------------------------------------------- §13 inline predicates
SNEAKING = (
    'execute if predicate {condition:"minecraft:entity_properties",entity:"this",'
    "predicate:{flags:{is_sneaking:true}}}"
)


def test_an_inline_predicate_tests_the_source_entity(game: Game) -> None:
    """§13: `this` is the command's entity: a player that crouches passes, one that stands
    fails, and a source with no entity (RCON) fails; the pose costs no serialization."""
    before = game.background_cost["nbt_serializations"]
    as_alex = f"execute as Alex {SNEAKING.removeprefix('execute ')} run tag @s add crouched"
    assert reply(game, as_alex) == ""  # the fork ends: nothing runs, nothing printed
    assert reply(game, SNEAKING) == "Test failed"
    game.sneak("Alex")
    game.tick()
    assert reply(game, as_alex) == "Added tag 'crouched' to Alex"
    assert reply(game, SNEAKING) == "Test failed"  # no entity: no `this`
    unless = as_alex.replace(" if predicate", " unless predicate")
    assert reply(game, unless) == ""
    assert game.background_cost["nbt_serializations"] == before


def test_an_unmodelled_predicate_says_so(game: Game) -> None:
    """§13: a predicate file or another condition fails with a message naming what the sandbox
    does not model, never a silent pass."""
    assert "not modelled" in reply(game, "execute if predicate pipes:sneaking")
    assert "not modelled" in reply(
        game, 'execute if predicate {condition:"minecraft:random_chance",chance:0.5f}'
    )
