"""Reply parsing: concatenated vanilla feedback (MC-7569) into facts."""

from __future__ import annotations

from controller.world.replies import (
    FrameValue,
    fill_changed,
    is_parse_error,
    merge_applied,
    parse_count,
    parse_frame_values,
    setblock_changed,
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
