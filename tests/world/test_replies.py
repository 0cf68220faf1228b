"""Reply parsing: concatenated vanilla feedback (MC-7569) into facts."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.lang import format_template
from controller.rcon.replies import parse_error
from controller.runtime.detection import PACK_ID
from controller.versions import RELEASES, Release, release
from controller.world import turns
from controller.world.replies import (
    REPLY_KEYS,
    FrameValue,
    fill_changed,
    forceload_marked,
    is_parse_error,
    killed_count,
    merge_applied,
    parse_count,
    parse_entity_uuids,
    parse_frame_values,
    parse_game_time,
    parse_gamerule,
    parse_player_list,
    parse_score,
    score_missing,
    setblock_changed,
    summoned,
    tag_added,
    whole_count,
    whole_item_count,
)


def test_frame_values_from_concatenated_messages() -> None:
    reply = (
        "pipes:lobby:3:7 has the following entity data: 5b"
        "pipes:lobby:12:0 has the following entity data: 0b"
        "pipes:other-room_2:0:1 has the following entity data: 7b"
    )
    assert parse_frame_values(reply) == [
        FrameValue("lobby", 3, 7, 5),
        FrameValue("lobby", 12, 0, 0),
        FrameValue("other-room_2", 0, 1, 7),
    ]


def test_map_ids_and_rotations_are_told_apart() -> None:
    reply = (
        "pipes:lobby:0:0 has the following entity data: 1000005"
        "pipes:lobby:1:0 has the following entity data: 3b"
    )
    assert parse_frame_values(reply, byte=False) == [FrameValue("lobby", 0, 0, 1000005)]
    assert parse_frame_values(reply, byte=True) == [FrameValue("lobby", 1, 0, 3)]


def test_foreign_entities_and_empty_replies_give_nothing() -> None:
    assert parse_frame_values("") == []
    assert parse_frame_values("Item Frame has the following entity data: 3b") == []


def test_counts_and_changes() -> None:
    assert parse_count("Test passed. Count: 961") == 961
    assert parse_count("Test failed") == 0
    assert fill_changed("Successfully filled 12 block(s)") == 12
    assert fill_changed("No blocks were filled") == 0
    assert setblock_changed("Changed the block at 1, 2, 3")
    assert not setblock_changed("Could not set the block")
    assert merge_applied("Modified entity data of pipes:lobby:3:7")
    assert not merge_applied("")
    assert is_parse_error("Unknown or incomplete command. See below for errorfoo<--[HERE]")
    assert not is_parse_error("No entity was found")


def test_guard_and_lease_replies() -> None:
    from controller.world.replies import (
        killed_count,
        parse_game_time,
        parse_score,
        summoned,
        tag_added,
    )

    assert tag_added("Added tag 'pipes.own' to pipes:lobby:3:7")
    assert not tag_added("No entity was found")
    assert not tag_added("Target either already has the tag or has too many tags")
    assert killed_count("Killed 3 entities") == 3
    assert killed_count("Killed pipes:lobby:3:7") == 1
    assert killed_count("Killed ItemKilled Item") == 2  # execute as … run kill @s, joined
    assert killed_count("No entity was found") == 0
    assert summoned("Summoned new pipes:lobby:3:7")
    assert not summoned("Unable to summon entity due to duplicate UUIDs")
    assert not summoned("")
    assert parse_score("#pipes.lobby.owner has -5 [pipes_lease]") == -5
    assert parse_score("Unknown scoreboard objective 'pipes_lease'") is None
    assert parse_game_time("The game time is 0 tick(s)") == 0


def test_uuids_are_read_from_the_data_not_from_the_display_name() -> None:
    import uuid

    from controller.world.replies import parse_entity_uuids

    real = uuid.UUID("5627dd98-e6be-3c21-b8a8-e92344183641")
    spoof = "[VIP] x has the following entity data: [I; 1, 2, 3, 4] "
    reply = (
        f"{spoof}.Steve* has the following entity data: "
        "[I; 1445453208, -423740383, -1196889821, 1142437441]"
    )
    found = parse_entity_uuids(reply)
    assert found[-1] == real  # the data ends the message; one matched player → take the last
    assert parse_entity_uuids("") == [] and parse_entity_uuids("No entity was found") == []


def test_player_list_keeps_only_valid_account_names() -> None:
    import uuid

    from controller.world.replies import parse_player_list

    a, b, c = (str(uuid.UUID(int=k)) for k in (1, 2, 3))
    reply = f"There are 3 of a max of 20 players online: .Steve ({a}), Al;ex ({b}), Bo b ({c})"
    assert parse_player_list(reply) == {uuid.UUID(a): ".Steve"}
    assert parse_player_list("There are 0 of a max of 20 players online: ") == {}
    assert parse_player_list("Unknown or incomplete command") == {}


# -- every release's wording (docs/server-behaviour.md, "Versions: reply texts") ---------------
REPLY_TEXTS = json.loads(
    (Path(__file__).parent / "data" / "reply_texts.json").read_text(encoding="utf-8")
)
GAME_TIME_FROM = (26, 1, 0)  # `time query gametime` answers with its own key from 26.1


def _table(version: Release) -> dict[str, str | None]:
    folder: dict[str, str | None] = REPLY_TEXTS["folders"][REPLY_TEXTS["serves"][version.name]]
    return folder


def _text(version: Release, key: str) -> str:
    text = _table(version)[key]
    assert text is not None, f"{key} has no text in {version}"
    return text


def _fmt(version: Release, key: str, *args: object) -> str:
    return format_template(_text(version, key), args)


FRAME = "pipes:lobby:3:7"
PLAYER = uuid.UUID("5627dd98-e6be-3c21-b8a8-e92344183641")

# Each key of REPLY_KEYS: what its readers make of a release's text.
CHECKS: dict[str, Callable[[Release], None]] = {}


def check(*keys: str) -> Callable[[Callable[[Release], None]], Callable[[Release], None]]:
    """Register a check of the keys it reads."""

    def register(fn: Callable[[Release], None]) -> Callable[[Release], None]:
        for key in keys:
            CHECKS[key] = fn
        return fn

    return register


@check("commands.data.entity.query")
def _entity_data(v: Release) -> None:
    rotation = _fmt(v, "commands.data.entity.query", FRAME, "5b")
    assert parse_frame_values(rotation, byte=True) == [FrameValue("lobby", 3, 7, 5)]
    uuids = _fmt(v, "commands.data.entity.query", "Alex", "[I; 1, 2, 3, 4]")
    assert parse_entity_uuids(uuids) == [uuid.UUID(int=(1 << 96) | (2 << 64) | (3 << 32) | 4)]


@check("commands.execute.conditional.pass", "commands.execute.conditional.pass_count")
def _test_passed(v: Release) -> None:
    assert _text(v, "commands.execute.conditional.pass").startswith("Test passed")
    reply = _fmt(v, "commands.execute.conditional.pass_count", 961)
    assert parse_count(reply) == whole_count(reply) == 961 and reply.startswith("Test passed")


@check("commands.execute.conditional.fail")
def _test_failed(v: Release) -> None:
    reply = _text(v, "commands.execute.conditional.fail")
    assert whole_count(reply) == parse_count(reply) == 0 and not reply.startswith("Test passed")


@check("commands.fill.success", "commands.fill.failed")
def _filled(v: Release) -> None:
    assert fill_changed(_fmt(v, "commands.fill.success", 37)) == 37
    assert fill_changed(_text(v, "commands.fill.failed")) == 0


@check("commands.setblock.success")
def _set(v: Release) -> None:
    assert setblock_changed(_fmt(v, "commands.setblock.success", 1, -2, 3))


@check("commands.data.entity.modified", "commands.data.merge.failed")
def _merged(v: Release) -> None:
    assert merge_applied(_fmt(v, "commands.data.entity.modified", FRAME))
    assert not merge_applied(_text(v, "commands.data.merge.failed"))


@check(
    "command.context.here",
    "command.unknown.command",
    "command.unknown.argument",
    "command.expected.separator",
)
def _parse_errors(v: Release) -> None:
    for key in (
        "command.unknown.command",
        "command.unknown.argument",
        "command.expected.separator",
    ):
        reply = _text(v, key) + "...4 0 stone foo" + _text(v, "command.context.here")
        found = parse_error(reply)
        assert found is not None and found.message == _text(v, key), reply
        assert is_parse_error(reply)


@check("commands.gamerule.query")
def _gamerule(v: Release) -> None:
    reply = _fmt(v, "commands.gamerule.query", "maxCommandForkCount", 65536)
    assert parse_gamerule(reply) == "65536"


@check("commands.forceload.query.success", "commands.forceload.query.failure")
def _forceload(v: Release) -> None:
    chunk = ("[0, 0]", "minecraft:overworld")
    assert forceload_marked(_fmt(v, "commands.forceload.query.success", *chunk))
    assert not forceload_marked(_fmt(v, "commands.forceload.query.failure", *chunk))


@check("commands.scoreboard.players.get.success", "chat.square_brackets")
def _score(v: Release) -> None:
    assert _fmt(v, "chat.square_brackets", "x") == "[x]"
    obj = _fmt(v, "chat.square_brackets", "pipes_lease")
    assert parse_score(_fmt(v, "commands.scoreboard.players.get.success", "#p.o", 12, obj)) == 12
    clicks = _fmt(v, "chat.square_brackets", turns.CLICKS)
    reply = _fmt(v, "commands.scoreboard.players.get.success", turns.CLICK_HOLDER, 4, clicks)
    assert turns.parse_click_count(reply) == 4


@check("commands.scoreboard.players.get.null", "arguments.objective.notFound")
def _no_score(v: Release) -> None:
    null = "commands.scoreboard.players.get.null"
    assert score_missing(_fmt(v, null, "pipes_lease", "#p.o"))
    assert turns.parse_click_count(_fmt(v, null, turns.CLICKS, turns.CLICK_HOLDER)) == "missing"
    gone = _fmt(v, "arguments.objective.notFound", turns.CLICKS)
    assert score_missing(gone) and turns.parse_click_count(gone) == turns.MISSING
    assert "Unknown scoreboard objective" in gone  # turn detection's check


@check("commands.time.query.gametime", "commands.time.query")
def _game_time(v: Release) -> None:
    key = "commands.time.query.gametime" if v.at_least(GAME_TIME_FROM) else "commands.time.query"
    assert parse_game_time(_fmt(v, key, 24017)) == 24017


@check("commands.tag.add.success.single", "commands.tag.add.success.multiple")
def _tagged(v: Release) -> None:
    assert tag_added(_fmt(v, "commands.tag.add.success.single", "pipes.own", FRAME))
    assert tag_added(_fmt(v, "commands.tag.add.success.multiple", "pipes.own", 3))


@check(
    "commands.tag.remove.success.single",
    "commands.tag.remove.success.multiple",
    "argument.entity.notfound.entity",
)
def _untagged(v: Release) -> None:
    one = _fmt(v, "commands.tag.remove.success.single", "pipes.near", FRAME)
    assert turns.tagged_count(one) == 1
    assert turns.tagged_count(_fmt(v, "commands.tag.remove.success.multiple", "pipes.near", 3)) == 3
    assert turns.tagged_count(_text(v, "argument.entity.notfound.entity")) == 0
    assert whole_item_count(_text(v, "argument.entity.notfound.entity")) == 0
    assert whole_count(_text(v, "argument.entity.notfound.entity")) is None
    reply = _fmt(v, "commands.execute.conditional.pass_count", 4)
    assert whole_item_count(reply) == 4
    assert whole_item_count(_text(v, "commands.execute.conditional.fail")) == 0


@check("commands.kill.success.single", "commands.kill.success.multiple")
def _killed(v: Release) -> None:
    assert killed_count(_fmt(v, "commands.kill.success.single", FRAME)) == 1
    assert killed_count(_fmt(v, "commands.kill.success.multiple", 4)) == 4


@check("commands.summon.success", "commands.summon.failed.uuid")
def _summoned(v: Release) -> None:
    assert summoned(_fmt(v, "commands.summon.success", FRAME))
    assert not summoned(_text(v, "commands.summon.failed.uuid"))


@check("commands.list.players", "commands.list.nameAndId")
def _players(v: Release) -> None:
    entry = _fmt(v, "commands.list.nameAndId", "Alex", str(PLAYER))
    assert parse_player_list(_fmt(v, "commands.list.players", 1, 20, entry)) == {PLAYER: "Alex"}


@check("commands.function.scheduled.single", "commands.function.result")
def _function_result(v: Release) -> None:
    ran = _fmt(v, "commands.function.scheduled.single", "pipes:version")
    returned = _fmt(v, "commands.function.result", "pipes:version", 2)
    assert turns.function_result(ran + returned, "version") == 2


@check("arguments.function.unknown")
def _unknown_function(v: Release) -> None:
    assert turns.function_unknown(_fmt(v, "arguments.function.unknown", "pipes:version"), "version")


@check(
    "commands.datapack.list.enabled.success",
    "commands.datapack.list.available.success",
    "pack.nameAndSource",
)
def _pack_listed(v: Release) -> None:
    pack = _fmt(v, "chat.square_brackets", _fmt(v, "pack.nameAndSource", PACK_ID, "world"))
    for key in (
        "commands.datapack.list.enabled.success",
        "commands.datapack.list.available.success",
    ):
        assert f"[{PACK_ID}" in _fmt(v, key, 2, f"[vanilla (built-in)], {pack}")


def test_every_key_the_controller_reads_has_a_check_and_a_text_in_every_release() -> None:
    assert set(CHECKS) == set(REPLY_KEYS)
    assert set(REPLY_TEXTS["serves"]) == {r.name for r in RELEASES}
    for version in RELEASES:
        table = _table(version)
        assert set(REPLY_KEYS) <= set(table), f"regenerate reply_texts.json for {version}"
        absent = {k for k in REPLY_KEYS if table[k] is None}
        # the only key a release may lack: the game time's own, before 26.1
        want = set() if version.at_least(GAME_TIME_FROM) else {"commands.time.query.gametime"}
        assert absent == want, version


@pytest.mark.parametrize("version", RELEASES, ids=str)
@pytest.mark.parametrize("key", sorted(REPLY_KEYS))
def test_each_reader_takes_each_releases_text(key: str, version: Release) -> None:
    CHECKS[key](version)


def test_the_wordings_that_changed_are_both_read() -> None:
    assert parse_count("Test passed, count: 12") == whole_count("Test passed, count: 12") == 12
    assert parse_count("Test passed. Count: 12") == 12
    assert whole_count("Test passed, count: 12Test failed") is None  # mixed: not believed
    assert parse_game_time("The time is 24017") == 24017
    assert parse_game_time("The game time is 24017 tick(s)") == 24017
    assert parse_game_time("The time is 24017x") is None
    assert _text(release("1.21.8"), "commands.execute.conditional.pass_count") != _text(
        release("1.21.9"), "commands.execute.conditional.pass_count"
    )
