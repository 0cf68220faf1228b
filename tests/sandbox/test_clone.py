"""clone: rows of command → exact reply, each citing its source, and the world they leave.

Sources: docs/server-behaviour.md, "Feedback: clone" (CloneCommands of 26.1, read from the code:
derived, not run on a live server) and "Loaded positions".
"""

from __future__ import annotations

from controller.sandbox.game import Game
from tests.support.sandbox_game import check_rows, reply

STONE = "minecraft:stone"
AIR = "minecraft:air"
BARRIER = "minecraft:barrier[waterlogged=false]"
NETHER = "minecraft:the_nether"


def loaded_game() -> Game:
    """Chunk [0, 0] forced: chunks -2..2 are loaded (level ≤ 33)."""
    game = Game()
    game.execute("forceload add 0 0")
    return game


def test_the_count_is_every_block_placed_not_only_changed_ones() -> None:
    game = loaded_game()
    game.execute("fill 0 64 0 2 64 0 minecraft:stone")
    rows = [
        ("clone 0 64 0 2 64 0 0 64 5", "Successfully cloned 3 block(s)", "Feedback: clone"),
        (
            "clone 0 64 0 2 64 0 0 64 5",
            "Successfully cloned 3 block(s)",
            "Feedback: clone (the destination is set to barrier first: identical blocks count)",
        ),
        (
            "clone 0 65 0 2 65 0 0 65 5",
            "Successfully cloned 3 block(s)",
            "Feedback: clone (air is placed and counted too)",
        ),
        ("clone 0 65 0 2 65 0 0 65 5 masked", "No blocks were cloned", "Feedback: clone"),
        ("clone 0 64 0 2 65 0 0 64 9 masked", "Successfully cloned 3 block(s)", "Feedback: clone"),
    ]
    check_rows(game, rows)
    assert [game.block(x, 64, 5) for x in range(3)] == [STONE] * 3
    assert game.block(0, 65, 9) == AIR


def test_barriers_are_not_counted() -> None:
    game = loaded_game()
    game.execute("setblock 0 64 0 minecraft:barrier")
    game.execute("setblock 1 64 0 minecraft:stone")
    rows = [
        (
            "clone 0 64 0 1 64 0 0 64 5",
            "Successfully cloned 1 block(s)",
            "Feedback: clone (a barrier finds its own state at the destination)",
        ),
        ("clone 0 64 0 0 64 0 0 64 7", "No blocks were cloned", "Feedback: clone"),
        (
            "clone 0 64 0 0 64 0 0 64 8 strict",
            "No blocks were cloned",
            "Feedback: clone (strict)",
        ),
    ]
    check_rows(game, rows)
    assert game.block(0, 64, 5) == BARRIER
    assert game.block(0, 64, 7) == BARRIER


def test_masked_skips_every_air_block() -> None:
    game = loaded_game()
    game.execute("setblock 0 64 0 minecraft:cave_air")
    game.execute("setblock 1 64 0 minecraft:void_air")
    game.execute("setblock 2 64 0 minecraft:stone")
    game.execute("fill 0 64 5 2 64 5 minecraft:dirt")
    assert reply(game, "clone 0 64 0 2 64 0 0 64 5 masked") == "Successfully cloned 1 block(s)"
    assert [game.block(x, 64, 5) for x in range(3)] == ["minecraft:dirt"] * 2 + [STONE]
    assert reply(game, "clone 0 64 0 1 64 0 0 64 6") == "Successfully cloned 2 block(s)"
    assert game.block(0, 64, 6) == "minecraft:cave_air"


def test_filtered_counts_the_matching_blocks() -> None:
    game = loaded_game()
    game.execute("setblock 0 64 0 minecraft:oak_log[axis=x]")
    game.execute("setblock 1 64 0 minecraft:oak_log[axis=y]")
    game.execute("setblock 2 64 0 minecraft:stone")
    rows = [
        (
            "clone 0 64 0 2 64 0 0 64 5 filtered minecraft:oak_log",
            "Successfully cloned 2 block(s)",
            "Feedback: clone (filtered)",
        ),
        (
            "clone 0 64 0 2 64 0 0 64 6 filtered minecraft:oak_log[axis=y] normal",
            "Successfully cloned 1 block(s)",
            "Feedback: clone (filtered)",
        ),
        (
            "clone 0 64 0 2 64 0 0 64 7 filtered minecraft:melon",
            "No blocks were cloned",
            "Feedback: clone (filtered)",
        ),
        (
            "clone 0 64 0 2 64 0 0 64 7 filtered minecraft:oak_log{}",
            "No blocks were cloned",
            "Feedback: clone (NBT needs a block entity; the sandbox has none)",
        ),
        (
            "clone 0 64 0 2 64 0 0 64 7 filtered #minecraft:logs",
            "Unknown block tag 'minecraft:logs'... filtered #minecraft:logs<--[HERE]",
            "sandbox: no block tag data, so no tag is known (unverified; vanilla knows this one)",
        ),
    ]
    check_rows(game, rows)
    assert [game.block(x, 64, 5) for x in range(3)] == [
        "minecraft:oak_log[axis=x]",
        "minecraft:oak_log[axis=y]",
        AIR,
    ]


def test_overlap_force_and_move() -> None:
    game = loaded_game()
    game.execute("fill 0 64 0 2 64 0 minecraft:stone")
    game.execute("setblock 1 64 0 minecraft:melon")
    rows = [
        (
            "clone 0 64 0 2 64 0 1 64 0",
            "The source and destination areas cannot overlap",
            "Feedback: clone",
        ),
        (
            "clone 0 64 0 2 64 0 2 64 0 replace normal",
            "The source and destination areas cannot overlap",
            "Feedback: clone (touching counts: BoundingBox.intersects is inclusive)",
        ),
        (
            "clone 0 64 0 2 64 0 1 64 0 replace force",
            "Successfully cloned 3 block(s)",
            "Feedback: clone (force copies a snapshot of the source)",
        ),
    ]
    check_rows(game, rows)
    assert [game.block(x, 64, 0) for x in range(4)] == [STONE, STONE, "minecraft:melon", STONE]
    assert reply(game, "clone 0 64 0 3 64 0 1 64 0 replace move") == (
        "Successfully cloned 4 block(s)"
    )
    assert [game.block(x, 64, 0) for x in range(5)] == [
        AIR,
        STONE,
        STONE,
        "minecraft:melon",
        STONE,
    ]


def test_move_clears_only_the_blocks_it_takes() -> None:
    game = loaded_game()
    game.execute("fill 0 64 0 2 64 0 minecraft:stone")
    game.execute("setblock 1 64 0 minecraft:melon")
    game.execute("fill 0 64 5 2 64 5 minecraft:dirt")
    assert reply(game, "clone 0 64 0 2 64 0 0 64 5 filtered minecraft:stone move") == (
        "Successfully cloned 2 block(s)"
    )
    assert [game.block(x, 64, 0) for x in range(3)] == [AIR, "minecraft:melon", AIR]
    assert [game.block(x, 64, 5) for x in range(3)] == [STONE, "minecraft:dirt", STONE]


def test_the_area_limit_is_the_block_modification_gamerule() -> None:
    game = loaded_game()
    rows = [
        (
            "clone 0 0 0 40 40 40 0 100 0",
            "Too many blocks in the specified area (maximum 32768, but specified 68921)",
            "Feedback: clone",
        ),
        (
            "gamerule max_block_modifications 8",
            "Gamerule max_block_modifications is now set to: 8",
            "Feedback: fill",
        ),
        (
            "clone 0 64 0 1 65 2 10 64 0",
            "Too many blocks in the specified area (maximum 8, but specified 12)",
            "Feedback: clone",
        ),
        ("clone 0 64 0 1 65 1 10 64 0", "Successfully cloned 8 block(s)", "Feedback: clone"),
        (
            "clone 0 64 0 1 65 2 1 64 0",
            "The source and destination areas cannot overlap",
            "Feedback: clone (overlap is checked before the size)",
        ),
    ]
    check_rows(game, rows)


def test_the_area_is_a_java_int() -> None:
    """3000 × 384 × 3000 blocks wrap to a negative int and pass the limit (derived)."""
    game = Game()
    game.execute("forceload add -1500 -1500")
    game.execute("forceload add 1499 1499")
    game.execute("forceload add 0 0")  # every corner is loaded, the chunks between are not
    assert reply(game, "clone -1500 -64 -1500 1499 319 1499 0 0 0 replace force") == (
        "That position is not loaded"
    )


def test_loaded_and_world_checks() -> None:
    game = loaded_game()
    game.execute("fill 0 64 0 2 66 0 minecraft:stone")
    rows = [
        ("clone 0 64 0 2 64 0 500 64 0", "That position is not loaded", "Loaded positions"),
        (
            "clone 0 64 0 2 64 0 46 64 0",
            "That position is not loaded",
            "Feedback: clone (every chunk of both boxes is checked)",
        ),
        ("clone 0 64 0 2 64 0 0 320 5", "That position is out of this world!", "Loaded positions"),
        (
            "clone 0 64 0 2 66 0 0 318 5",
            "Successfully cloned 6 block(s)",
            "Feedback: clone (no block is placed above the build height)",
        ),
        (
            "clone 0 64 0 2 64 0 to minecraft:nope 0 64 5",
            "Unknown dimension 'minecraft:nope'",
            "Feedback: clone",
        ),
        (
            "clone from minecraft:nope 0 64 0 2 64 0 0 64 5",
            "Unknown dimension 'minecraft:nope'",
            "Feedback: clone",
        ),
        (
            "clone 0 64 0 2 64 0 to minecraft:the_nether 0 64 5",
            "That position is not loaded",
            "Feedback: clone (the destination in its own dimension)",
        ),
        (
            "clone 0 64 0 2 64 0 0 64 5 replace strict",
            "Incorrect argument for command...5 replace strict<--[HERE]",
            "Feedback: clone (strict comes before the mask)",
        ),
        (
            "clone 0 64 0 2 64 0 0 64 5 force",
            "Incorrect argument for command... 0 0 64 5 force<--[HERE]",
            "Feedback: clone (a mode needs a mask before it)",
        ),
    ]
    check_rows(game, rows)
    assert [game.block(x, 318, 5) for x in range(3)] == [STONE] * 3
    assert [game.block(x, 319, 5) for x in range(3)] == [STONE] * 3


def test_between_dimensions() -> None:
    game = loaded_game()
    game.execute(f"execute in {NETHER} run forceload add 0 0")
    game.execute("fill 0 64 0 2 64 0 minecraft:stone")
    rows = [
        (
            f"clone 0 64 0 2 64 0 to {NETHER} 0 64 0",
            "Successfully cloned 3 block(s)",
            "Feedback: clone (no overlap between two dimensions)",
        ),
        (
            f"clone from {NETHER} 0 64 0 2 64 0 to minecraft:overworld 0 64 1 strict",
            "Successfully cloned 3 block(s)",
            "Feedback: clone",
        ),
        (
            f"clone from {NETHER} 0 64 0 2 64 0 1 64 0",
            "Successfully cloned 3 block(s)",
            "Feedback: clone (no `to`: the source's level, here the overworld)",
        ),
        (
            f"execute in {NETHER} run clone from {NETHER} 0 64 0 2 64 0 1 64 0",
            "The source and destination areas cannot overlap",
            "Feedback: clone",
        ),
    ]
    check_rows(game, rows)
    assert game.world.get_block(NETHER, (2, 64, 0)) == STONE
    assert [game.block(x, 64, 1) for x in range(3)] == [STONE] * 3


def test_corners_in_reverse_skip_the_chunk_check() -> None:
    """hasChunksAt(begin, end) runs over no chunk when begin lies beyond end; the scan then meets
    an unloaded source block and dies (NullPointerException → command.failed; derived)."""
    game = Game()
    game.execute("forceload add 0 0")  # chunks -2..2 loaded
    game.execute("forceload add 160 0")  # chunks 8..12 loaded; 3..7 not
    game.execute(f"execute in {NETHER} run forceload add 0 0 175 0")
    game.execute("setblock 0 64 0 minecraft:stone")
    rows = [
        (
            f"clone 0 64 0 160 64 0 to {NETHER} 0 64 0",
            "That position is not loaded",
            "Feedback: clone",
        ),
        (
            f"clone 160 64 0 0 64 0 to {NETHER} 0 64 0",
            "An unexpected error occurred trying to execute that command",
            "Feedback: clone (corners in reverse)",
        ),
    ]
    check_rows(game, rows)
    assert game.world.get_block(NETHER, (0, 64, 0)) == AIR
