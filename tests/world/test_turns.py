"""Turn detection commands and replies (controller/world/turns.py): grammar, and replies spoiled
by another RCON connection read as unknown, never as a count (docs/turn-detection.md)."""

from __future__ import annotations

from controller.sandbox.game import Game
from controller.world import turns
from tests.support.grammar import assert_valid_commands

KINDS = ["item_frame"]


def test_every_detection_command_is_vanilla_grammar() -> None:
    box = turns.union_box([((0, 97, 0), (6, 103, 6))], 48)
    assert_valid_commands(
        [
            turns.presence(box),
            turns.marked_players(),
            turns.take_clicks(),
            turns.mark_near_players(KINDS, 4.5),
            *turns.promote_near(KINDS),
            turns.read_tagged(KINDS, turns.SCAN),
            turns.count_tagged(KINDS, turns.SCAN),
            turns.untag(KINDS, turns.NEAR),
            turns.read_tagged(["item_frame", "glow_item_frame"], turns.NEAR),
        ]
    )


def test_marked_players_replies_nothing_until_someone_is_marked_and_keeps_the_mark() -> None:
    game = Game()
    game.join("Alex", (0.5, 64, 0.5))
    game.join("Bea", (3.5, 64, 0.5))
    assert game.execute(turns.marked_players()) == []
    game.execute(f"tag Bea add {turns.CLICKED}")
    reply = "".join(game.execute(turns.marked_players()))
    assert turns.someone_marked(reply)
    assert turns.someone_marked("".join(game.execute(turns.marked_players())))  # still marked
    assert game.execute(turns.take_clicks()) == [f"Removed tag '{turns.CLICKED}' from Bea"]
    assert game.execute(turns.marked_players()) == []
    assert not turns.someone_marked("There are 2 of a max of 20 players online: Alex, Bea")


def test_counts_are_read_only_from_whole_replies() -> None:
    assert turns.tagged_count("Removed tag 'pipes.near' from 12 entities") == 12
    assert turns.tagged_count("Removed tag 'pipes.near' from pipes:lobby:3:4") == 1
    assert turns.tagged_count("No entity was found") == 0
    for spoiled in ("", "There are 0 of a max of 20 players online: ", "Test failed"):
        assert turns.tagged_count(spoiled) is None
        assert (
            turns.scan_count(spoiled if spoiled != "Test failed" else "No entity was found") is None
        )
    assert turns.scan_count("Test passed. Count: 7") == 7
    assert turns.scan_count("Test failed") == 0
    assert (
        turns.scan_count("Test passed. Count: 7There are 1 of a max of 20 players online: A")
        is None
    )
