"""Tests for NBT paths, tag comparison, merging and the ``data get`` number rules."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbtlib.tag import Byte, Compound, Double, Float, Int, IntArray, List, Short, String

from controller.nbt.path import (
    NbtPath,
    NbtPathRuntimeError,
    as_number,
    compare_nbt,
    copy_tag,
    data_get,
    data_get_scaled,
    format_scale,
    is_too_deep,
    java_floor,
    merge,
    merge_data,
    numeric_value,
    tag_equals,
)
from controller.nbt.printer import pretty
from controller.nbt.reader import CommandSyntaxError, StringReader
from controller.nbt.snbt import parse_tag_fully

FRAME = (
    '{ItemRotation:3b,Facing:1b,Tags:["pipes","pipes.R","pipes.r3"],'
    'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":5}},'
    "Pos:[10.5d,64.03125d,10.5d],UUID:[I;1,-2,3,4],Data:[{k:1,v:2},{k:2,v:3}]}"
)


def frame() -> Any:
    return parse_tag_fully(FRAME)


def snbt(text: str) -> Any:
    return parse_tag_fully(text)


@pytest.mark.parametrize(
    ("path", "printed", "result"),
    [
        ("ItemRotation", ["3b"], 3),
        ('Item.components."minecraft:map_id"', ["5"], 5),
        ("Item.components.'minecraft:map_id'", ["5"], 5),
        ("Tags", ['["pipes", "pipes.R", "pipes.r3"]'], 3),
        (
            "Item",
            ['{components: {"minecraft:map_id": 5}, count: 1, id: "minecraft:filled_map"}'],
            3,
        ),
        ("Tags[0]", ['"pipes"'], 5),
        ("Tags[-1]", ['"pipes.r3"'], 8),
        ("Pos[1]", ["64.03125d"], 64),
        ("UUID[1]", ["-2"], -2),
        ("UUID", ["[I; 1, -2, 3, 4]"], 4),
        ("Item{count:1}.id", ['"minecraft:filled_map"'], 20),
        ("{Facing:1b}.ItemRotation", ["3b"], 3),
        ("Data[{k:2}].v", ["3"], 3),
        ("Item.components", ['{"minecraft:map_id": 5}'], 1),
    ],
)
def test_get(path: str, printed: list[str], result: int) -> None:
    parsed = NbtPath.of(path)
    assert str(parsed) == path
    assert [pretty(t) for t in parsed.get(frame())] == printed
    assert data_get(frame(), parsed)[1] == result


@pytest.mark.parametrize(
    ("root", "path", "prefix"),
    [
        # docs/server-behaviour.md, "Feedback: data": an empty frame
        ("{ItemRotation:0b}", 'Item.components."minecraft:map_id"', "Item"),
        ("{Item:{count:1}}", 'Item.components."minecraft:map_id"', "Item.components"),
        (
            "{Item:{components:{}}}",
            'Item.components."minecraft:map_id"',
            'Item.components."minecraft:map_id"',
        ),
        ("{}", "ItemRotation", "ItemRotation"),
        ("{}", "Tags", "Tags"),
        ("{Tags:[]}", "Tags[0]", "Tags[0]"),
        ("{Tags:[a]}", "Tags[1]", "Tags[1]"),
        ("{Item:{count:2}}", "Item{count:1}.id", "Item{count:1}"),
        ("{a:1b}", "{a:2b}.a", "{a:2b}"),
        ("{a:[]}", "a[].x", "a[]"),
        # Object2IntOpenHashMap keyed by the shared AllElementsNode: the last [] wins
        ("{a:[]}", "a[][].x", "a[][]"),
    ],
)
def test_not_found_prefix(root: str, path: str, prefix: str) -> None:
    with pytest.raises(CommandSyntaxError) as info:
        NbtPath.of(path).get(snbt(root))
    assert info.value.message == f"Found no elements matching {prefix}"
    assert info.value.cursor == -1
    assert NbtPath.of(path).count_matching(snbt(root)) == 0


@pytest.mark.parametrize(
    ("text", "message", "cursor"),
    [
        ("a..b", "Invalid NBT path element", 2),
        ("{a:1}{b:1}", "Invalid NBT path element", 5),
        ("a.{b:1}", "Invalid NBT path element", 2),
        ("a[x]", "Expected integer", 2),
        ("a[3000000000]", "Invalid integer '3000000000'", 2),
        ('""', "Invalid NBT path element", 2),
        ("a[0", "Expected ']'", 3),
        ("a]", "Expected '.'", 1),
        ('"abc', "Unclosed quoted string", 4),
        ("a{b:}", "Expected a valid unquoted string", 4),
        ("a[{b:1}", "Expected ']'", 7),
    ],
)
def test_parse_errors(text: str, message: str, cursor: int) -> None:
    with pytest.raises(CommandSyntaxError) as info:
        NbtPath.of(text)
    assert (info.value.message, info.value.cursor) == (message, cursor)


def test_parse_stops_at_space_and_keeps_cursor() -> None:
    reader = StringReader('data get entity @s Item.components."minecraft:map_id" 1')
    reader.cursor = len("data get entity @s ")
    path = NbtPath.parse(reader)
    assert str(path) == 'Item.components."minecraft:map_id"'
    assert reader.remaining == " 1"


def test_open_bracket_at_end_is_a_java_runtime_error() -> None:
    with pytest.raises(NbtPathRuntimeError):
        NbtPath.of("a[")


def test_set_map_id_like_data_modify() -> None:
    root = frame()
    path = NbtPath.of('Item.components."minecraft:map_id"')
    assert path.set(root, Int(1000009)) == 1
    assert pretty(root["Item"]["components"]) == '{"minecraft:map_id": 1000009}'
    assert path.set(root, Int(1000009)) == 0  # unchanged → "Nothing changed" in DataCommands
    assert path.set(root, Long_(1000009)) == 1  # a different tag type is a change


def Long_(value: int) -> Any:  # noqa: N802 - a tag constructor alias
    from nbtlib.tag import Long

    return Long(value)


@pytest.mark.parametrize(
    ("root", "path", "value", "count", "after"),
    [
        ("{}", "a.b.c", "1b", 1, "{a: {b: {c: 1b}}}"),
        ("{}", "a[0]", "1b", 0, "{a: []}"),  # the list is created but has no element 0
        ("{}", "a[]", "1b", 1, "{a: [1b]}"),
        ("{}", "a[{k:1}].v", "2", 1, "{a: [{v: 2, k: 1}]}"),  # HashMap order
        ("{}", "a{k:1}.v", "2", 1, "{a: {v: 2, k: 1}}"),
        ("{a:[1,2,3]}", "a[]", "7", 3, "{a: [7, 7, 7]}"),
        ("{a:[7,2,7]}", "a[]", "7", 1, "{a: [7, 7, 7]}"),
        ("{a:[1,2]}", "a[1]", '"x"', 1, '{a: [1, "x"]}'),
        ("{a:[1,2]}", "a[-1]", "2", 0, "{a: [1, 2]}"),
        ("{a:[{k:1},{k:2}]}", "a[{k:2}].k", "5", 1, "{a: [{k: 1}, {k: 5}]}"),
        ("{a:[I;1,2]}", "a[0]", "9b", 1, "{a: [I; 9, 2]}"),
        ("{a:[I;1,2]}", "a[0]", '"x"', 0, "{a: [I; 1, 2]}"),
        ("{a:[I;1,2]}", "a[0]", "-1.5d", 1, "{a: [I; -2, 2]}"),  # intValue = Mth.floor
        ("{a:[B;1b]}", "a[0]", "300", 1, "{a: [B; 44b]}"),  # byteValue narrows
        ("{a:[L;1L]}", "a[0]", "-1.5f", 1, "{a: [L; -1L]}"),  # FloatTag.longValue truncates
        ("{a:[L;1L]}", "a[0]", "-1.5d", 1, "{a: [L; -2L]}"),  # DoubleTag.longValue floors
        ("{a:1}", "a", "1", 0, "{a: 1}"),
        ("{a:1}", "a", "1b", 1, "{a: 1b}"),
    ],
)
def test_set(root: str, path: str, value: str, count: int, after: str) -> None:
    tag = snbt(root)
    assert NbtPath.of(path).set(tag, snbt(value)) == count
    assert pretty(tag) == after


def test_set_into_non_compound_parent_fails_with_prefix() -> None:
    with pytest.raises(CommandSyntaxError) as info:
        NbtPath.of("a.b.c").set(snbt("{a:1}"), Byte(1))
    assert info.value.message == "Found no elements matching a.b"


def test_set_copies_the_value() -> None:
    value = snbt("{x:1}")
    root = snbt("{a:[{},{}]}")
    assert NbtPath.of("a[]").set(root, value) == 2
    value["x"] = Int(2)
    root["a"][0]["x"] = Int(3)
    assert pretty(root) == "{a: [{x: 3}, {x: 1}]}"


@pytest.mark.parametrize(
    ("root", "path", "count", "after"),
    [
        ("{a:1,b:2}", "a", 1, "{b: 2}"),
        ("{a:1}", "x", 0, "{a: 1}"),
        ("{a:1}", "x.y.z", 0, "{a: 1}"),
        ("{a:[1,2,3]}", "a[0]", 1, "{a: [2, 3]}"),
        ("{a:[1,2,3]}", "a[-1]", 1, "{a: [1, 2]}"),
        ("{a:[1,2,3]}", "a[]", 3, "{a: []}"),
        ("{a:[{k:1},{k:2},{k:1}]}", "a[{k:1}]", 2, "{a: [{k: 2}]}"),
        ("{a:{k:1}}", "a{k:1}", 1, "{}"),
        ("{a:{k:2}}", "a{k:1}", 0, "{a: {k: 2}}"),
        ("{Tags:[pipes,pipes.R]}", "Tags[0]", 1, '{Tags: ["pipes.R"]}'),
    ],
)
def test_remove(root: str, path: str, count: int, after: str) -> None:
    tag = snbt(root)
    assert NbtPath.of(path).remove(tag) == count
    assert pretty(tag) == after


def test_heterogeneous_list_edits() -> None:
    root = snbt('{a:[1,"x"]}')
    assert [pretty(t) for t in NbtPath.of("a[]").get(root)] == ["1", '"x"']
    assert pretty(root) == '{a: [1, "x"]}'
    assert NbtPath.of("a[1]").remove(root) == 1
    assert isinstance(root["a"], List[Int])
    assert pretty(root) == "{a: [1]}"


def test_insert() -> None:
    root = snbt("{a:[1,2]}")
    path = NbtPath.of("a")
    assert path.insert(-1, root, [Int(3)]) == 1
    assert path.insert(0, root, [Int(0)]) == 1
    assert pretty(root) == "{a: [0, 1, 2, 3]}"
    with pytest.raises(CommandSyntaxError) as info:
        path.insert(9, root, [Int(1)])
    assert info.value.message == "Invalid list index: 9"
    with pytest.raises(CommandSyntaxError) as info:
        NbtPath.of("b").insert(0, snbt("{b:1}"), [Int(1)])
    assert info.value.message == "Expected a list: got 1"


def test_data_get_rules() -> None:
    root = snbt('{d:2.7d,n:-2.5f,s:"😀x",l:[1,2],c:{a:1},b:[B;1b,2b,3b],big:1e20d}')
    assert data_get(root, NbtPath.of("d"))[1] == 2
    assert data_get(root, NbtPath.of("n"))[1] == -3
    assert data_get(root, NbtPath.of("s"))[1] == 3  # String.length() counts UTF-16 units
    assert data_get(root, NbtPath.of("l"))[1] == 2
    assert data_get(root, NbtPath.of("c"))[1] == 1
    assert data_get(root, NbtPath.of("b"))[1] == 3
    assert data_get(root, NbtPath.of("big"))[1] == 2**31 - 1  # (int) cast saturates
    assert data_get(root, NbtPath.of("c.a"))[0] == Int(1)
    assert data_get_scaled(root, NbtPath.of("d"), 10) == 27
    assert data_get_scaled(root, NbtPath.of("n"), -1) == 2
    with pytest.raises(CommandSyntaxError) as info:
        data_get_scaled(root, NbtPath.of("s"), 1)
    assert info.value.message == "Can't get s; only numeric tags are allowed"
    with pytest.raises(CommandSyntaxError) as info:
        data_get(root, NbtPath.of("l[]"))
    assert info.value.message == "This argument accepts a single NBT value"
    with pytest.raises(CommandSyntaxError) as info:
        data_get(root, NbtPath.of("missing"))
    assert info.value.message == "Found no elements matching missing"


@pytest.mark.parametrize(
    ("scale", "text"),
    [
        (1.0, "1.00"),
        (0.125, "0.13"),  # HALF_UP, Python's format gives 0.12
        (1.005, "1.01"),  # Java rounds the shortest decimal "1.005"
        (-0.5, "-0.50"),
        (1e-5, "0.00"),
        (2.5, "2.50"),
        (1e20, "100000000000000000000.00"),
    ],
)
def test_format_scale(scale: float, text: str) -> None:
    assert format_scale(scale) == text


def test_numeric_value_and_floor() -> None:
    assert numeric_value(Float(0.1), "x") == pytest.approx(0.10000000149011612, abs=0)
    assert numeric_value(Short(3), "x") == 3.0
    assert as_number(String("3")) is None
    with pytest.raises(CommandSyntaxError) as info:
        numeric_value(String("3"), NbtPath.of("Item.id"))
    assert info.value.message == "Can't get Item.id; only numeric tags are allowed"
    assert java_floor(math.nan) == 0
    assert java_floor(-0.5) == -1
    assert java_floor(-math.inf) == -(2**31)


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        ("{ItemRotation:0b}", "{ItemRotation:0b,Facing:1b}", True),
        ("{ItemRotation:0b}", "{ItemRotation:1b}", False),
        ("{ItemRotation:0}", "{ItemRotation:0b}", False),
        ("{Tags:[pipes]}", '{Tags:["pipes","pipes.R"]}', True),
        ("{Tags:[pipes,pipes]}", '{Tags:["pipes"]}', False),  # 26.1 checks list sizes
        ("{Tags:[]}", '{Tags:["pipes"]}', False),
        ("{Tags:[]}", "{Tags:[]}", True),
        ("{Item:{id:x}}", "{Item:{id:x,count:1}}", True),
        ("{a:[I;1]}", "{a:[I;1,2]}", False),
        ("{a:1.0f}", "{a:1.0f}", True),
        ("{}", "{x:1}", True),
    ],
)
def test_compare_nbt(expected: str, actual: str, result: bool) -> None:
    assert compare_nbt(snbt(expected), snbt(actual)) is result


def test_tag_equals() -> None:
    assert not tag_equals(Byte(1), Int(1))
    assert tag_equals(Float(0.1), Float(0.10000000149011612))
    assert not tag_equals(Double(0.0), Double(-0.0))
    assert tag_equals(Double(math.nan), Double(math.nan))
    assert tag_equals(snbt("{a:[1,2],b:{c:x}}"), snbt("{b:{c:x},a:[1,2]}"))
    assert not tag_equals(snbt("[1,2]"), snbt("[1b,2b]"))
    assert not tag_equals(IntArray([1]), IntArray([1, 2]))


def test_merge_and_merge_data() -> None:
    target = snbt("{a:{b:1,c:2},d:1}")
    assert merge(target, snbt("{a:{b:3},e:[1]}"))
    assert pretty(target) == "{a: {b: 3, c: 2}, d: 1, e: [1]}"
    assert not merge(target, snbt("{a:{b:3}}"))
    old = snbt("{ItemRotation:5b,Tags:[a]}")
    new = merge_data(old, snbt("{ItemRotation:1b,Tags:[b]}"))
    assert pretty(new) == '{ItemRotation: 1b, Tags: ["b"]}'
    assert pretty(old) == '{ItemRotation: 5b, Tags: ["a"]}'
    with pytest.raises(CommandSyntaxError) as info:
        merge_data(old, snbt("{ItemRotation:5b}"))
    assert info.value.message == (
        "Nothing changed. The specified properties already have these values"
    )


def test_too_deep() -> None:
    deep: Any = List()
    for _ in range(600):
        deep = List[List]([deep])
    assert is_too_deep(deep, 0)
    with pytest.raises(CommandSyntaxError) as info:
        NbtPath.of("a").set(Compound(), deep)
    assert info.value.message == "Resulting NBT too deeply nested"


# -- properties ----------------------------------------------------------------------------------

NAMES = st.text(alphabet="abcxyz", min_size=1, max_size=3)
VALUES = st.one_of(st.integers(-5, 5).map(Int), st.integers(-5, 5).map(Byte), NAMES.map(String))


def trees() -> st.SearchStrategy[Any]:
    return st.recursive(
        VALUES, lambda inner: st.dictionaries(NAMES, inner, max_size=3).map(Compound), max_leaves=8
    )


def oracle_merge(target: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
    out = dict(target)
    for key, value in source.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = oracle_merge(out[key], value)
        else:
            out[key] = value
    return out


def plain(tag: Any) -> Any:
    if isinstance(tag, Compound):
        return {k: plain(v) for k, v in tag.items()}
    return (type(tag).__name__, str(tag))


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(NAMES, trees(), max_size=4), st.dictionaries(NAMES, trees(), max_size=4))
def test_merge_matches_recursive_dict_merge(a: dict[str, Any], b: dict[str, Any]) -> None:
    target, source = Compound(a), Compound(b)
    before = plain(target)
    expected = oracle_merge(before, plain(source))
    changed = merge(target, copy_tag(source))
    assert plain(target) == expected
    assert changed == (expected != before)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(NAMES, trees(), max_size=4), st.lists(NAMES, min_size=1, max_size=4), VALUES)
def test_set_then_get(root: dict[str, Any], keys: list[str], value: Any) -> None:
    tag = Compound(root)
    path = NbtPath.of(".".join(keys))
    try:
        count = path.set(tag, value)
    except CommandSyntaxError:
        # a non-compound sits on the way: vanilla reports the deepest existing prefix
        return
    parent = NbtPath.of(".".join(keys[:-1])).get(tag)[0] if len(keys) > 1 else tag
    if not isinstance(parent, Compound):
        assert count == 0  # setting a key on a number/string changes nothing
        return
    got = path.get(tag)
    assert len(got) == 1 and tag_equals(got[0], value)
