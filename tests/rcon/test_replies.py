"""Reply helpers: colour codes, Paper's message separators, both parse-error forms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rcon.replies import (
    ParseError,
    expects_output,
    normalize,
    parse_error,
    root_command,
    split_messages,
    unexpected_empty,
)

__all__: list[str] = []


def vanilla_context(command: str, cursor: int) -> str:
    """``Commands.finishParsing``'s context string ("Parse errors"), written independently."""
    lead = "..." + command[cursor - 10 : cursor] if cursor > 10 else command[:cursor]
    return lead + command[cursor:]


@given(st.text(max_size=200))
def test_normalize_leaves_no_section_sign(text: str) -> None:
    assert "§" not in normalize(text)


@given(st.text(max_size=200).filter(lambda t: "§" not in t))
def test_normalize_is_identity_without_codes(text: str) -> None:
    assert normalize(text) == text


def test_normalize_strips_codes() -> None:
    assert (
        normalize("§e--------- §fHelp: Index (1/25) §e------")
        == "--------- Help: Index (1/25) ------"
    )
    assert normalize("§x§1§2§3§4§5§6hex§r") == "hex"
    assert normalize("end§") == "end"


def test_split_messages_handles_paper_newlines_and_vanilla_runs() -> None:
    assert split_messages("§aone\n§btwo\n") == ["one", "two"]
    assert split_messages("a\r\nb") == ["a", "b"]
    assert split_messages("Item Frame has…: 0bItem Frame has…: 3b") == [
        "Item Frame has…: 0bItem Frame has…: 3b"
    ]
    assert split_messages("") == []


command_text = st.text(
    alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\n§"),
    min_size=1,
    max_size=60,
)
messages = st.sampled_from(
    [
        "Unknown or incomplete command. See below for error",
        "Incorrect argument for command",
        "Expected integer",
        "Expected whitespace to end one argument, but found trailing data",
        "Invalid or unknown entity type 'minecraft:frame'",
    ]
)


@given(command_text, messages, st.data())
def test_both_parse_error_forms_are_recovered(
    command: str, message: str, data: st.DataObject
) -> None:
    text = command.removeprefix("/")  # the server strips one leading slash before parsing
    cursor = data.draw(st.integers(min_value=0, max_value=len(text)))
    context = vanilla_context(text, cursor)
    expected = ParseError(message, context)
    assert parse_error(f"{message}{context}<--[HERE]", command) == expected
    assert parse_error(f"{message}\n{context}<--[HERE]") == expected
    assert parse_error(f"§c{message}\n{context}<--[HERE]\n", command) == expected


def test_parse_error_without_the_command() -> None:
    assert parse_error("Unknown or incomplete command. See below for errorfoo<--[HERE]") == (
        ParseError("Unknown or incomplete command. See below for error", "foo")
    )
    assert parse_error("Expected integer...ck minecra<--[HERE]") == ParseError(
        "Expected integer", "...ck minecra"
    )
    assert parse_error("Unknown or incomplete command. See below for error<--[HERE]", "") == (
        ParseError("Unknown or incomplete command. See below for error", "")
    )


@pytest.mark.parametrize(
    "reply",
    [
        "Summoned new Item Frame",
        "",
        "No entity was found",
        "Item Frame has the following entity data: 0b",
    ],
)
def test_other_replies_are_not_parse_errors(reply: str) -> None:
    assert parse_error(reply) is None


def test_root_command_and_expected_output() -> None:
    assert root_command("/minecraft:Data get entity @s") == "data"
    assert root_command("  kill @e") == "kill"
    assert expects_output("summon item_frame ~ ~ ~")
    assert expects_output("minecraft:setblock 0 0 0 stone")
    assert not expects_output("tellraw @a {}")
    assert not expects_output("execute as @e run data get entity @s")
    assert not expects_output("")


def test_unexpected_empty_reply() -> None:
    assert unexpected_empty("", "summon item_frame 0 64 0")
    assert unexpected_empty("§r\n", "data get entity @e[limit=1] ItemRotation")
    assert not unexpected_empty("Summoned new Item Frame", "summon item_frame 0 64 0")
    assert not unexpected_empty("", 'tellraw @a "hi"')
    assert not unexpected_empty("", "execute if entity @e[tag=x] run kill @s")
