"""Vanilla 26.1 en_us language strings and the way vanilla fills their ``%s`` placeholders.

The table is the ``lang`` section of the bundled 26.1 game data
(``controller/sandbox/data/registry-26.1.json``). Formatting follows decompiled 26.1.2
``network/chat/contents/TranslatableContents.java`` (``decomposeTemplate``): ``%s`` and ``%1$s``
take an argument, ``%%`` is a percent sign, and a template it cannot format (another conversion,
a stray ``%``, an argument that is not there) is shown as the raw template.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["format_template", "lang_table", "tr", "translate"]

_GAME_DATA = Path(__file__).resolve().parent / "sandbox" / "data" / "registry-26.1.json"
_FORMAT = re.compile(r"%(?:(\d+)\$)?([A-Za-z%]|$)")  # TranslatableContents.FORMAT_PATTERN


class _Unformattable(Exception):
    """TranslatableFormatException: the template is shown unformatted."""


def format_template(template: str, args: Sequence[object]) -> str:
    """Fill `template` with `args` like vanilla, or return it unchanged when vanilla would."""
    try:
        return _decompose(template, args)
    except _Unformattable:
        return template


def _decompose(template: str, args: Sequence[object]) -> str:
    out: list[str] = []
    index = 0
    pos = 0
    for match in _FORMAT.finditer(template):
        out.append(_literal(template[pos : match.start()]))
        pos = match.end()
        conversion = match.group(2)
        if conversion == "%" and match.group(0) == "%%":
            out.append("%")
            continue
        if conversion != "s":
            raise _Unformattable(match.group(0))
        if match.group(1) is not None:
            arg_index = int(match.group(1)) - 1
        else:
            arg_index = index
            index += 1
        if not 0 <= arg_index < len(args):
            raise _Unformattable(arg_index)
        out.append(str(args[arg_index]))
    out.append(_literal(template[pos:]))
    return "".join(out)


def _literal(text: str) -> str:
    """Text between placeholders; a ``%`` left in it makes the template unformattable."""
    if "%" in text:
        raise _Unformattable(text)
    return text


def translate(table: Mapping[str, str], key: str, *args: object) -> str:
    """Translate `key` from `table`; a missing key renders as itself (Language.getOrDefault)."""
    return format_template(table.get(key, key), args)


@functools.cache
def lang_table() -> Mapping[str, str]:
    """The 26.1 en_us language table, loaded once."""
    with _GAME_DATA.open(encoding="utf-8") as fh:
        lang: dict[str, str] = json.load(fh)["lang"]
    return lang


def tr(key: str, *args: object) -> str:
    """Translate `key` with the bundled 26.1 language table."""
    return translate(lang_table(), key, *args)
