"""Flavour detection and the Paper-only ``minecraft:`` prefix."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rcon.flavour import detect_flavour, prefixed, tokenize

__all__: list[str] = []


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("data get entity @s", "minecraft:data get entity @s"),
        ("/kill @e[tag=pipes]", "/minecraft:kill @e[tag=pipes]"),
        ("minecraft:kill @e", "minecraft:kill @e"),
        ("say run away", "minecraft:say run away"),
        (
            "execute as @e[type=item_frame, tag=pipes] at @s run data get entity @s ItemRotation",
            "minecraft:execute as @e[type=item_frame, tag=pipes] at @s run "
            "minecraft:data get entity @s ItemRotation",
        ),
        (
            'execute if data entity @s {Tags:["run x"]} run tellraw @a {"text":"run fast"}',
            'minecraft:execute if data entity @s {Tags:["run x"]} run '
            'minecraft:tellraw @a {"text":"run fast"}',
        ),
        # a player called "run": the subcommand grammar, not the word, finds the real `run`
        (
            "execute as run at run run kill @s",
            "minecraft:execute as run at run run minecraft:kill @s",
        ),
        (
            "execute store result score run obj run execute if score a b matches 1.. run kill @s",
            "minecraft:execute store result score run obj run minecraft:execute if score a b "
            "matches 1.. run minecraft:kill @s",
        ),
        (
            "execute positioned ~ ~1 ~ rotated as @p facing entity @p eyes "
            "run setblock ~ ~ ~ stone",
            "minecraft:execute positioned ~ ~1 ~ rotated as @p facing entity @p eyes run "
            "minecraft:setblock ~ ~ ~ stone",
        ),
        (
            "execute if block 0 64 0 minecraft:stone[facing=north] unless entity @e run say ok",
            "minecraft:execute if block 0 64 0 minecraft:stone[facing=north] unless entity @e run "
            "minecraft:say ok",
        ),
        ("execute if entity @e", "minecraft:execute if entity @e"),
        (
            "execute frobnicate x run kill @s",
            "minecraft:execute frobnicate x run minecraft:kill @s",
        ),
        ("", ""),
    ],
)
def test_prefix_on_paper(command: str, expected: str) -> None:
    assert prefixed(command, "paper") == expected


def test_tokenize_keeps_brackets_and_quotes_whole() -> None:
    assert [t for _, t in tokenize("a @e[x=1, y=2] {k:\"a b\"} 'c d'  e")] == [
        "a",
        "@e[x=1, y=2]",
        '{k:"a b"}',
        "'c d'",
        "e",
    ]


words = st.sampled_from(
    [
        "execute",
        "run",
        "as",
        "at",
        "@s",
        "@e[tag=a, b=c]",
        "kill",
        "data",
        "get",
        "if",
        "entity",
        "minecraft:say",
        "store",
        "result",
        "score",
        "~",
        "1",
        '{"text":"run a"}',
        "/tp",
    ]
)
commands = st.lists(words, max_size=14).map(" ".join)


@given(commands)
def test_vanilla_commands_are_never_changed(command: str) -> None:
    assert prefixed(command, "vanilla") == command


@given(commands)
def test_paper_prefix_only_inserts_namespaces_and_is_idempotent(command: str) -> None:
    out = prefixed(command, "paper")
    assert out.replace("minecraft:", "") == command.replace("minecraft:", "")
    assert prefixed(out, "paper") == out
    first = out.lstrip("/").split(" ", 1)[0]
    assert not command.strip() or first.startswith("minecraft:") or ":" in first


def test_detect_flavour_from_both_replies() -> None:
    vanilla = "Unknown or incomplete command. See below for errorminecraft:list<--[HERE]"
    assert detect_flavour(vanilla) == "vanilla"
    assert detect_flavour(vanilla.replace("errorminecraft", "error\nminecraft")) == "vanilla"
    assert detect_flavour("There are 0 of a max of 20 players online: ") == "paper"
    assert detect_flavour("") == "paper"
