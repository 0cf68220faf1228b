"""The SNBT parser agrees with a literal transcription of vanilla's packrat grammar."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.nbt.reader import CommandSyntaxError, StringReader
from controller.nbt.snbt import parse_tag
from tests.support.nbt_samples import SUMMON_NBT, same
from tests.support.packrat_oracle import oracle_parse

ALPHABET = "{}[]:;,\"'\\ .+-_()0123456789abefsluxBILSdDfFEntrNUX"


def mine(text: str) -> tuple[bool, Any, int]:
    reader = StringReader(text)
    try:
        value = parse_tag(reader)
    except CommandSyntaxError as exc:
        return False, exc.message, exc.cursor
    return True, value, reader.cursor


def agree(text: str) -> None:
    ok, value, cursor = mine(text)
    want_ok, want_value, want_cursor = oracle_parse(text)
    assert (ok, cursor) == (want_ok, want_cursor), (text, value, want_value)
    if ok:
        assert same(value, want_value), text
    else:
        assert value == want_value, text


@pytest.mark.parametrize(
    "text",
    [
        SUMMON_NBT,
        "{a:1s",
        "{a:1",
        "3000000000",
        "-0b101",
        "[I;0x_1]",
        "bool(1",
        "foo(",
        '"\\N{LATIN SMALL LETTER A}"',
        '"a\\qb"',
        "[B; 1, -2]",
        "{ a : 1 , b : [ 1 , 2 ] }",
        "1e999",
        "[1, 2b, {a:1}]",
        "0b",
        "0xFFub",
        ".5e-3f",
        "01",
        "",
    ],
)
def test_known_inputs(text: str) -> None:
    agree(text)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=14))
def test_random_text(text: str) -> None:
    agree(text)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, len(SUMMON_NBT) - 1),
    st.sampled_from(["delete", "insert", "replace"]),
    st.sampled_from(list(ALPHABET)),
)
def test_summon_mutations(index: int, how: str, char: str) -> None:
    if how == "delete":
        text = SUMMON_NBT[:index] + SUMMON_NBT[index + 1 :]
    elif how == "insert":
        text = SUMMON_NBT[:index] + char + SUMMON_NBT[index:]
    else:
        text = SUMMON_NBT[:index] + char + SUMMON_NBT[index + 1 :]
    agree(text)
