"""NBT for the sandbox: SNBT parsing, vanilla pretty printing and NBT paths (26.1 semantics)."""

from controller.sandbox.nbt.path import (
    NbtPath,
    as_number,
    compare_nbt,
    copy_tag,
    data_get,
    data_get_scaled,
    format_scale,
    merge,
    merge_data,
    numeric_value,
    tag_equals,
)
from controller.sandbox.nbt.printer import compact, key_order, pretty
from controller.sandbox.nbt.snbt import parse_compound, parse_tag, parse_tag_fully

__all__ = [
    "NbtPath",
    "as_number",
    "compact",
    "compare_nbt",
    "copy_tag",
    "data_get",
    "data_get_scaled",
    "format_scale",
    "key_order",
    "merge",
    "merge_data",
    "numeric_value",
    "parse_compound",
    "parse_tag",
    "parse_tag_fully",
    "pretty",
    "tag_equals",
]
