"""help and the shape of `test` (docs/server-behaviour.md, "Versions: help"); Brigadier's smart
usage checked against Brigadier's own tests (Mojang/brigadier
src/test/java/com/mojang/brigadier/CommandDispatcherUsagesTest.java)."""

from __future__ import annotations

import pytest

from controller.sandbox.commands import Node, lit, smart_usage
from controller.sandbox.game import Game
from tests.support.sandbox_game import reply
from tests.support.version_replies import TEST_USAGE


def _run(ctx: object, source: object) -> int:
    return 1


def brigadier_tree() -> Node:
    """The tree of CommandDispatcherUsagesTest.setUp, without the nodes a `requires` hides."""
    root = Node("")
    run = _run
    root.then(
        lit("a", lit("1", lit("i", run=run), lit("ii", run=run)), lit("2", lit("i", run=run))),
        lit("b", lit("1", run=run)),
        lit("c", run=run),
        lit("e", lit("1", lit("i", run=run), lit("ii", run=run), run=run), run=run),
        lit("g", lit("1", lit("i", run=run)), run=run),
        lit(
            "h",
            lit("1", lit("i", run=run)),
            lit("2", lit("i", lit("ii", run=run))),
            lit("3", run=run),
            run=run,
        ),
        lit("i", lit("1", run=run), lit("2", run=run), run=run),
    )
    root.then(lit("j").redirects(root))
    root.then(lit("k").redirects(root.children["h"]))
    return root


def test_smart_usage_of_the_root_is_brigadier_s() -> None:
    root = brigadier_tree()
    assert smart_usage(root, root) == [
        "a (1|2)",
        "b 1",
        "c",
        "e [1]",
        "g [1]",
        "h [1|2|3]",
        "i [1|2]",
        "j ...",
        "k -> h",
    ]


def test_smart_usage_under_an_executable_node_is_brigadier_s() -> None:
    root = brigadier_tree()
    assert smart_usage(root, root.children["h"]) == ["[1] i", "[2] i ii", "[3]"]


@pytest.mark.parametrize(("version", "flavour"), [("1.21.5", "vanilla"), ("26.2", "paper")])
def test_help_test_lists_each_form_of_the_test_command(version: str, flavour: str) -> None:
    game = Game(flavour, version)
    target = "minecraft:test" if flavour == "paper" else "test"
    command = f"minecraft:help {target}" if flavour == "paper" else f"help {target}"
    assert game.execute(command) == [f"/{target} {usage}" for usage in TEST_USAGE]


@pytest.mark.parametrize("version", ["1.20.5", "1.21.4"])
def test_before_1_21_5_there_is_no_test_command(version: str) -> None:
    game = Game(version=version)
    assert reply(game, "help test") == "Unknown command or insufficient permissions"
    assert reply(game, "test stop").startswith("Unknown or incomplete command")


def test_running_a_test_form_is_not_modelled() -> None:
    game = Game(version="26.1")
    assert reply(game, "test stop") == "An unexpected error occurred trying to execute that command"


def test_help_of_a_partly_parsed_command_is_the_usage_of_its_last_node() -> None:
    game = Game(version="26.1")
    assert game.execute("help attribute @p minecraft:max_health base") == [
        "/attribute @p minecraft:max_health base set <value>",
        "/attribute @p minecraft:max_health base get [<scale>]",
        "/attribute @p minecraft:max_health base reset",
    ]
    assert game.execute("help execute if items entity @s") == [
        "/execute if items entity @s <slots> <item_predicate> -> execute"  # a fork, and a command
    ]
    assert reply(game, "help execute if items entity") == (
        "/execute if items entity <entities> <slots> <item_predicate> -> execute"
    )
    assert reply(game, "help kill") == "/kill [<targets>]"


def test_help_alone_lists_every_command_once() -> None:
    game = Game(version="26.1")
    lines = game.execute("help")
    assert len(lines) == len(game.root.children)
    assert any(line.startswith("/execute (") for line in lines)
    assert any(line.startswith("/attribute <target> <attribute> (get|base)") for line in lines)
