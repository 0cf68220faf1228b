"""Vanilla 26.1 language strings (from the bundled registry file) and Java-style helpers."""

from __future__ import annotations

import functools
import json
import pathlib
import re

__all__ = ["JAVA_WHITESPACE", "tr"]

_REGISTRY = pathlib.Path(__file__).resolve().parent.parent / "data" / "registry-26.1.json"
_FORMAT = re.compile(r"%(?:(\d+)\$)?([A-Za-z%]|$)")

# java.lang.Character.isWhitespace: Zs/Zl/Zp except the no-break spaces, plus 9-13 and 28-31.
JAVA_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2008\u2009\u200a\u2028\u2029\u205f\u3000"
)


@functools.cache
def _lang() -> dict[str, str]:
    """The 26.1 en_us language table from the bundled registry file."""
    with _REGISTRY.open(encoding="utf-8") as fh:
        data = json.load(fh)
    lang: dict[str, str] = data["lang"]
    return lang


def tr(key: str, *args: object) -> str:
    """Translate `key` like vanilla's TranslatableContents (a missing key renders as itself)."""
    template = _lang().get(key)
    if template is None:
        return key
    index = 0
    out: list[str] = []
    pos = 0
    for match in _FORMAT.finditer(template):
        out.append(template[pos : match.start()])
        pos = match.end()
        if match.group(2) == "%":
            out.append("%")
            continue
        if match.group(1) is not None:
            arg_index = int(match.group(1)) - 1
        else:
            arg_index = index
            index += 1
        out.append(str(args[arg_index]) if 0 <= arg_index < len(args) else "")
    out.append(template[pos:])
    return "".join(out)
