"""Turn detection commands and replies (controller/world/turns.py): grammar, and replies spoiled
by another RCON connection read as unknown, never as a count (docs/turn-detection.md)."""

from __future__ import annotations

import pytest

from controller.sandbox.game import Game
from controller.world import turns
from controller.world.reach import marks
from tests.support.grammar import assert_valid_commands

KINDS = ["item_frame"]


def test_every_detection_command_is_vanilla_grammar() -> None:
    box = turns.union_box([((0, 97, 0), (6, 103, 6))], 48)
    assert_valid_commands(
        [
            turns.presence(box),
            turns.click_count(),
            turns.click_poll(),
            *turns.create_counter(),
            turns.read_near(),
            turns.done(0, 0),
            turns.done(2147483647, 61),
            turns.pack_version(),
            *turns.clear_marks(),
            *turns.mark_near_players(KINDS, marks()),
            *turns.mark_near_players(["item_frame", "glow_item_frame"], marks(12)),
            turns.untag(KINDS, turns.NEAR),
            turns.read_tagged(["item_frame", "glow_item_frame"], turns.NEAR),
        ]
    )


def test_the_click_count_poll_examines_no_entity_and_reads_every_state() -> None:
    game = Game()
    game.join("Alex", (0.5, 64, 0.5))
    reply = "".join(game.execute(turns.click_count()))
    assert turns.parse_click_count(reply) == turns.MISSING  # no objective yet
    make_objective, add_zero = turns.create_counter()
    game.execute(make_objective)
    assert turns.parse_click_count("".join(game.execute(turns.click_count()))) == turns.MISSING
    game.execute(add_zero)
    assert turns.parse_click_count("".join(game.execute(turns.click_count()))) == 0
    game.execute(f"scoreboard players add {turns.CLICK_HOLDER} {turns.CLICKS} 17")
    examined = dict(game.cost)
    assert turns.parse_click_count("".join(game.execute(turns.click_count()))) == 17
    assert game.cost == examined  # no entity examined, nothing serialized


@pytest.mark.parametrize(
    "spoiled",
    ["", "#clicks has 17 [pipes.clicks]There are 0 of a max of 20 players online: ",
     "There are 0 of a max of 20 players online: ", "#clicks has 1", "Alex has 3 [pipes.clicks]"],
)  # fmt: skip
def test_a_spoiled_click_count_is_unknown(spoiled: str) -> None:
    assert turns.parse_click_count(spoiled) is None


def test_function_results_are_read_only_from_whole_replies() -> None:
    whole = "Running function pipes:doneFunction pipes:done returned 1"
    assert turns.function_result(whole, "done") == 1
    assert turns.function_result(whole.replace("1", "0"), "done") == 0
    assert turns.function_result(whole, "version") is None
    for spoiled in ("", "Running function pipes:done", whole + "There are 0 of a max",
                    "Function pipes:done returned 1", whole[:-1] + "x"):  # fmt: skip
        assert turns.function_result(spoiled, "done") is None
    assert turns.function_unknown("Unknown function pipes:done", "done")
    assert not turns.function_unknown(whole, "done")


def test_counts_are_read_only_from_whole_replies() -> None:
    assert turns.tagged_count("Removed tag 'pipes.near' from 12 entities") == 12
    assert turns.tagged_count("Removed tag 'pipes.near' from pipes:lobby:3:4") == 1
    assert turns.tagged_count("No entity was found") == 0
    for spoiled in ("", "There are 0 of a max of 20 players online: ", "Test failed"):
        assert turns.tagged_count(spoiled) is None


@pytest.mark.parametrize("gestures", [False, True])
def test_gesture_moves_count_a_quarter_back_as_one_and_a_lock_as_none(gestures: bool) -> None:
    """Without the gesture pack every step is a clockwise click; with it seven steps are one
    anticlockwise move and four a lock; the rotation each shows is the same either way."""
    for settled in range(4):
        for seen in range(8):
            steps = (seen - settled) % 8
            moves = turns.gesture_moves(settled, seen, gestures)
            lock = turns.is_lock(settled, seen, gestures)
            if gestures and steps == turns.ANTICLOCKWISE_STEPS:
                assert moves == 1 and seen % 4 == (settled - 1) % 4
            elif gestures and steps == turns.LOCK_STEPS:
                assert moves == 0 and lock and seen % 4 == settled
            else:
                assert moves == steps and not lock
