"""Minecraft 26.1 NBT on nbtlib tags: SNBT parsing, vanilla's printer and NBT paths.

A general library (it imports nothing from the sandbox): SNBT is read from a Brigadier-style
``StringReader`` and errors are ``CommandSyntaxError`` with vanilla's messages and cursors.
"""

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
    merge,
    merge_data,
    numeric_value,
    tag_equals,
)
from controller.nbt.printer import Order, compact, hashmap_order, key_order, pretty
from controller.nbt.reader import CommandSyntaxError, StringReader
from controller.nbt.snbt import (
    Tag,
    parse_compound,
    parse_compound_fully,
    parse_tag,
    parse_tag_fully,
)

__all__ = [
    "CommandSyntaxError",
    "NbtPath",
    "NbtPathRuntimeError",
    "Order",
    "StringReader",
    "Tag",
    "as_number",
    "compact",
    "compare_nbt",
    "copy_tag",
    "data_get",
    "data_get_scaled",
    "format_scale",
    "hashmap_order",
    "is_too_deep",
    "key_order",
    "merge",
    "merge_data",
    "numeric_value",
    "parse_compound",
    "parse_compound_fully",
    "parse_tag",
    "parse_tag_fully",
    "pretty",
    "tag_equals",
]
