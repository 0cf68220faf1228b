"""Slot range names per release and `execute if items` over them (docs/server-behaviour.md,
"Versions: slot ranges")."""

from __future__ import annotations

import pytest
from nbtlib import tag as nbt

from controller.sandbox.game import Game
from controller.sandbox.slots import MAINHAND, slot_ranges
from controller.versions import RELEASES, Release
from controller.world.serverversion import parse_error_context
from tests.support.sandbox_game import reply

ITEM = nbt.Compound({"id": nbt.String("minecraft:stick"), "count": nbt.Int(3)})


def test_the_ranges_of_slot_ranges() -> None:
    """SlotRanges.SLOTS: single slots, numbered ranges and their `*` forms."""
    ranges = slot_ranges(saddle=False, mob_inventory=False)
    assert ranges["contents"] == (0,)
    assert ranges["container.53"] == (53,) and "container.54" not in ranges
    assert ranges["inventory.*"] == tuple(range(9, 36))
    assert ranges["weapon"] == ranges["weapon.mainhand"] == (MAINHAND,)
    assert ranges["weapon.*"] == (98, 99)
    assert ranges["armor.*"] == (103, 102, 101, 100, 105)
    assert ranges["horse.saddle"] == (400,) and "saddle" not in ranges
    assert ranges["villager.7"] == (307,) and "mob.inventory.0" not in ranges
    newer = slot_ranges(saddle=True, mob_inventory=True)
    assert newer["saddle"] == (106,) and "horse.saddle" not in newer
    assert newer["mob.inventory.*"] == tuple(range(300, 308)) and "villager.0" not in newer


@pytest.mark.parametrize("r", RELEASES, ids=str)
def test_every_release_knows_the_probe_s_slot(r: Release) -> None:
    assert "weapon.mainhand" in Game(version=r).profile.slot_ranges


def test_a_slot_the_release_does_not_have_is_unknown_after_its_name() -> None:
    command = "execute if items entity @s villager.0 *"
    at = command.index(" *")  # ParserUtils.readWhile leaves the cursor after the name
    assert reply(Game(version="26.1"), command) == (
        "Unknown slot 'villager.0'" + parse_error_context(command, at)
    )
    assert reply(Game(version="1.21.11"), command) == "No entity was found"


def test_if_items_counts_a_player_s_main_hand() -> None:
    game = Game(version="26.1")
    game.join("Alex", (0.5, 64.0, 0.5))
    game.tick()
    game.give("Alex", ITEM)
    assert reply(game, "execute if items entity Alex weapon.mainhand minecraft:stick") == (
        "Test passed. Count: 3"
    )
    assert reply(game, "execute if items entity Alex weapon.* *") == "Test passed. Count: 3"
    assert reply(game, "execute if items entity Alex armor.head *") == "Test failed"


def test_no_entity_is_an_error_as_in_get_entities() -> None:
    """ExecuteCommand reads the targets with EntityArgument.getEntities."""
    game = Game(version="1.20.5")
    assert reply(game, "execute if items entity @e[type=minecraft:marker] contents *") == (
        "No entity was found"
    )
