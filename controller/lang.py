"""Vanilla en_us language strings and the way vanilla fills their ``%s`` placeholders.

The 26.1 table is the ``lang`` section of the bundled 26.1 game data
(``controller/sandbox/data/registry-26.1.json``); :func:`lang_table_for` gives another release's
table: the 26.1 one with that release's own texts (``controller/sandbox/data/versions.json``,
docs/sandbox-datapacks.md, "Release profiles"), keys it does not have left out. Formatting
follows decompiled 26.1.2 ``network/chat/contents/TranslatableContents.java``
(``decomposeTemplate``): ``%s`` and ``%1$s`` take an argument, ``%%`` is a percent sign, and a
template it cannot format (another conversion, a stray ``%``, an argument that is not there) is
shown as the raw template.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.versions import Release

__all__ = ["format_template", "lang_table", "lang_table_for", "tr", "translate"]

_GAME_DATA = Path(__file__).resolve().parent / "sandbox" / "data" / "registry-26.1.json"
_VERSIONS = Path(__file__).resolve().parent / "sandbox" / "data" / "versions.json"
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


@functools.cache
def _versions() -> Mapping[str, object]:
    with _VERSIONS.open(encoding="utf-8") as fh:
        doc: dict[str, object] = json.load(fh)
    return doc


@functools.cache
def _table_of_folder(folder: str) -> Mapping[str, str]:
    data = _versions()["data"]
    assert isinstance(data, dict)
    changes: dict[str, str | None] = data[folder]["lang"]
    table = dict(lang_table())
    for key, text in changes.items():
        if text is None:
            table.pop(key, None)  # not in that release: vanilla shows the key itself
        else:
            table[key] = text
    return table


def lang_table_for(release: Release) -> Mapping[str, str]:
    """The en_us table of ``release`` (loaded once per data folder)."""
    releases = _versions()["releases"]
    assert isinstance(releases, dict)
    return _table_of_folder(str(releases[release.name]["language"]))


def tr(key: str, *args: object) -> str:
    """Translate `key` with the bundled 26.1 language table."""
    return translate(lang_table(), key, *args)
