"""JSON text components as releases before 1.21.5 read them from NBT: Gson's lenient
``JsonParser.parseString`` and the component codec (docs/server-behaviour.md, "Versions: names
inside NBT")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.sandbox.jsontext import (
    JsonTextError,
    decode_component,
    encode_component,
    parse_lenient,
)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(JSON_VALUES)
def test_strict_json_reads_back_unchanged(value: Any) -> None:
    """Whatever a strict JSON writer produces, the lenient reader reads as the same value."""
    assert parse_lenient(json.dumps(value)) == value
    assert parse_lenient(json.dumps(value, indent=2)) == value


@given(st.text(max_size=40))
def test_a_plain_name_is_saved_as_a_json_string_and_read_back(text: str) -> None:
    """Component.Serializer.toJson collapses plain text to a JSON string; fromJson reverses it."""
    saved = encode_component(text)
    assert saved.startswith('"') and saved.endswith('"')
    assert decode_component(parse_lenient(saved)) == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("'pipes:lobby:0:0'", "pipes:lobby:0:0"),  # single quotes
        ("pipes", "pipes"),  # an unquoted word is a string
        ("{text:'a'}", {"text": "a"}),  # unquoted names
        ('{"text" = "a"; "bold" => true}', {"text": "a", "bold": True}),
        ('/* c */ "a" # trailing comment', "a"),
        ("", None),  # an empty document is JSON null
        ("TRUE", True),
        ("12", 12),
        ("1b", "1b"),  # not a number: an unquoted word
    ],
)
def test_what_the_lenient_reader_accepts(text: str, value: Any) -> None:
    assert parse_lenient(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "pipes:lobby:0:0",  # the word ends at ':' and the rest is left over
        '"a" "b"',
        '"unterminated',
        "{text:'a'",
        "[1 2]",
        '"\\x"',
    ],
)
def test_what_the_lenient_reader_refuses(text: str) -> None:
    with pytest.raises(JsonTextError):
        parse_lenient(text)


@pytest.mark.parametrize(
    "value",
    [None, 12, True, [], {}, {"bold": True}, {"text": 5}, {"text": "a", "extra": []}, [1]],
)
def test_values_that_are_no_component(value: Any) -> None:
    with pytest.raises(JsonTextError):
        decode_component(value)


@pytest.mark.parametrize(
    "value",
    ["a", ["a", {"text": "b"}], {"translate": "x", "with": ["a"]}, {"text": "", "extra": ["b"]}],
)
def test_components(value: Any) -> None:
    assert decode_component(value) == value


def test_a_styled_name_is_saved_as_compact_json() -> None:
    assert encode_component({"text": "a", "color": "red"}) == '{"text":"a","color":"red"}'
    assert encode_component({"text": 'say "hi"'}) == '"say \\"hi\\""'
    assert encode_component("\u2028") == '"\\u2028"'  # Gson escapes the line separators
