"""The attribute command of each release (docs/server-behaviour.md, "Versions: the attribute
command"): ids per release, the player's values, the replies of the release's language file
(PrismarineJS/minecraft-data data/pc/<folder>/language.json, `commands.attribute.*`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller import versions
from controller.sandbox.attributes import attributes_of
from controller.sandbox.commands.attribute import java_int
from controller.sandbox.game import Game
from tests.support.sandbox_game import reply

DATA = Path(__file__).resolve().parents[2] / "controller" / "sandbox" / "data" / "attributes.json"


def player_game(version: str, flavour: str = "vanilla") -> Game:
    game = Game(flavour, version)
    game.join("Alex", (0.5, 64.0, 0.5))
    return game


@pytest.mark.parametrize(
    ("version", "command", "expected"),
    [
        (
            "1.20.5",
            "attribute Alex minecraft:generic.max_health get",
            "Value of attribute Max Health for entity Alex is 20.0",
        ),
        (
            "1.21.1",
            "attribute Alex generic.movement_speed base get",
            "Base value of attribute Speed for entity Alex is 0.10000000149011612",
        ),
        (
            "1.21.4",
            "attribute Alex minecraft:scale base set 2",
            "Base value for attribute Scale for entity Alex set to 2.0",
        ),
        (
            "1.21.4",
            "attribute Alex minecraft:max_health base reset",
            "Base value for attribute Max Health for entity Alex reset to default 20.0",
        ),
        (
            "26.1",
            "attribute Alex minecraft:max_health get",
            "The value of attribute Max Health for entity Alex is 20.0",
        ),
        (
            "26.1",
            "attribute Alex minecraft:waypoint_receive_range base get",
            "The base value of attribute Waypoint Receive Range for entity Alex is 6.0E7",
        ),
        (
            "26.1",
            "attribute Alex minecraft:follow_range get",
            "Entity Alex has no attribute Mob Follow Range",
        ),
    ],
)
def test_a_player_s_attributes_answer_in_the_release_s_words(
    version: str, command: str, expected: str
) -> None:
    assert reply(player_game(version), command) == expected


def test_an_id_the_release_does_not_have_fails_while_parsing() -> None:
    old, new = player_game("1.21.1"), player_game("1.21.2")
    assert reply(old, "attribute Alex minecraft:max_health get") == (
        "Can't find element 'minecraft:max_health' of type 'minecraft:attribute'"
        "...max_health get<--[HERE]"
    )
    assert reply(new, "attribute Alex minecraft:generic.max_health get").startswith(
        "Can't find element 'minecraft:generic.max_health' of type"
    )
    assert reply(player_game("1.21.5"), "attribute Alex minecraft:camera_distance get").startswith(
        "Can't find element"
    )
    assert reply(player_game("1.21.6"), "attribute Alex minecraft:camera_distance get") == (
        "Value of attribute Camera Distance for entity Alex is 4.0"
    )


def test_base_reset_is_new_in_1_21_4() -> None:
    command = "attribute Alex minecraft:max_health base reset"
    assert reply(player_game("1.21.3"), command) == (
        "Incorrect argument for command...alth base reset<--[HERE]"
    )
    game = player_game("1.21.4")
    reply(game, "attribute Alex minecraft:max_health base set 40")
    assert reply(game, "attribute Alex minecraft:max_health get") == (
        "Value of attribute Max Health for entity Alex is 40.0"
    )
    reply(game, command)
    assert reply(game, "attribute Alex minecraft:max_health base get").endswith("is 20.0")


def test_the_value_is_clamped_and_the_base_is_not() -> None:
    game = player_game("26.1")
    reply(game, "attribute Alex minecraft:max_health base set 5000")
    assert reply(game, "attribute Alex minecraft:max_health base get").endswith("is 5000.0")
    assert reply(game, "attribute Alex minecraft:max_health get").endswith("is 1024.0")


def test_a_non_living_entity_and_no_entity() -> None:
    game = player_game("26.1")
    reply(game, "summon minecraft:marker 0 64 0")
    reply(game, 'summon minecraft:item_frame 0 65 0 {CustomName:"Frame"}')
    game.tick()  # the player's chunks load
    assert reply(game, "attribute @n[type=minecraft:marker] minecraft:max_health get") == (
        "Marker is not a valid entity for this command"
    )
    assert reply(game, "attribute @n[type=minecraft:item_frame] minecraft:max_health get") == (
        "Frame is not a valid entity for this command"
    )
    assert reply(game, "attribute @n[tag=none] minecraft:max_health get") == "No entity was found"
    assert reply(game, "attribute @e minecraft:max_health get").startswith(
        "Only one entity is allowed"
    )


def test_the_nearest_selector_is_new_in_1_21() -> None:
    assert reply(player_game("1.20.6"), "kill @n") == "Unknown selector type '@n'kill @n<--[HERE]"
    assert reply(player_game("1.21"), "kill @n[type=minecraft:player]").startswith("Killed Alex")


def test_the_interaction_range_follows_the_attribute() -> None:
    """Its base is what clicks measure; creative adds 2.0 from the player's next tick."""
    game = player_game("26.1")
    reply(game, "attribute Alex minecraft:entity_interaction_range base set 6")
    player = game.world.players["Alex"]
    assert player.entity_interaction_range() == 6.0
    game.set_game_mode("Alex", "creative")
    game.tick()
    assert reply(game, "attribute Alex minecraft:entity_interaction_range get").endswith("8.0")
    assert reply(game, "attribute Alex minecraft:block_interaction_range get").endswith("5.0")
    old = player_game("1.21.1")
    reply(old, "attribute Alex minecraft:player.entity_interaction_range base set 4.5")
    assert old.world.players["Alex"].entity_interaction_range() == 4.5


def test_the_result_is_the_value_times_the_scale() -> None:
    game = player_game("26.1")
    reply(game, "scoreboard objectives add v dummy")
    reply(game, "execute store result score Alex v run attribute Alex minecraft:scale get 10")
    assert reply(game, "scoreboard players get Alex v") == "Alex has 10 [v]"


def test_paper_has_the_vanilla_command_under_minecraft() -> None:
    game = player_game("1.21.4", "paper")
    assert reply(game, "minecraft:attribute Alex minecraft:max_health get") == (
        "Value of attribute Max Health for entity Alex is 20.0"
    )


def test_every_step_s_player_attributes_are_in_its_registry() -> None:
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    for step in doc["steps"]:
        assert set(step["player"]) <= set(step["registry"]), step["from"]
        for key, *_ in step["registry"].values():
            assert key in doc["names"], key
    for r in versions.RELEASES:
        registry, player = attributes_of(r)
        assert r.interaction_range_attribute in player, r


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_a_java_int_cast_saturates(value: float) -> None:
    got = java_int(value)
    assert -(2**31) <= got <= 2**31 - 1
    if value != value:
        assert got == 0
    elif -(2**31) < value < 2**31 - 1:
        assert got == int(value)
