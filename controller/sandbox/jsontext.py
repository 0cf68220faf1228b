"""Text components written as JSON, the form of every release before 1.21.5.

``Entity.load`` of those releases reads a string ``CustomName`` with
``Component.Serializer.fromJson``: Gson's ``JsonParser.parseString`` (a *lenient* reader: single
quotes, unquoted words and comments are accepted, anything left after the value is not), then
the component codec. Saving writes ``Component.Serializer.toJson`` of the name: a plain text
collapses to a JSON string. A command's text argument (``tellraw``, ``title``, objective names)
is read by ``ParserUtils.parseJson``: one *strict* JSON value at the cursor
(:func:`read_json`). docs/server-behaviour.md, "Versions: names inside NBT" and "Versions: text
in commands".
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JsonTextError", "decode_component", "encode_component", "parse_lenient", "read_json"]

_WHITESPACE = " \t\n\r"
_NOT_LITERAL = set("/\\;#={}[]:, \t\f\r\n")  # JsonReader.isLiteral is false for these
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", "'": "'", '"': '"'}
_ESCAPES.update({"\\": "\\", "/": "/", "\n": "\n"})
_CONTENT_KEYS = ("text", "translate", "keybind", "score", "selector", "nbt", "object", "type")


class JsonTextError(ValueError):
    """The string is not JSON Gson reads, or not a text component; ``position`` is where the
    reader stopped (an index into the text), -1 when unknown."""

    def __init__(self, message: str, position: int = -1) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


_MALFORMED = "malformed JSON (strict reader)"  # Gson's own wording: unverified


class _Reader:
    """The part of Gson's JsonReader a text component can use, lenient or strict."""

    def __init__(self, text: str, start: int = 0, lenient: bool = True) -> None:
        self.s = text
        self.i = start
        self.lenient = lenient

    def fail(self, what: str) -> JsonTextError:
        return JsonTextError(f"{what} at character {self.i + 1}", self.i)

    def check_lenient(self) -> None:
        """JsonReader.checkLenient: a form only the lenient reader accepts."""
        if not self.lenient:
            raise self.fail(_MALFORMED)

    def skip(self) -> str:
        """Skip whitespace and comments (`//`, `#`, `/* */`); the next character or ''."""
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c in _WHITESPACE:
                self.i += 1
            elif c == "#" or s.startswith("//", self.i) or s.startswith("/*", self.i):
                self.check_lenient()
                if s.startswith("/*", self.i):
                    end = s.find("*/", self.i + 2)
                    if end < 0:
                        raise self.fail("Unterminated comment")
                    self.i = end + 2
                    continue
                end = s.find("\n", self.i)
                self.i = len(s) if end < 0 else end + 1
            else:
                return c
        return ""

    def value(self) -> Any:
        c = self.skip()
        if c == "{":
            return self.obj()
        if c == "[":
            return self.array()
        if not c:
            raise self.fail("End of input")
        if c in "\"'":
            if c == "'":
                self.check_lenient()
            self.i += 1
            return self.quoted(c)
        start = self.i
        word = self.literal()
        if not word:
            raise self.fail("Expected value")
        value = _keyword_or_number(word)
        if value is word:  # an unquoted string
            self.i = start
            self.check_lenient()
            self.i = start + len(word)
        return value

    def literal(self) -> str:
        start = self.i
        while self.i < len(self.s) and self.s[self.i] not in _NOT_LITERAL:
            self.i += 1
        return self.s[start : self.i]

    def quoted(self, quote: str) -> str:
        out: list[str] = []
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            self.i += 1
            if c == quote:  # Java strings are UTF-16: escaped surrogate pairs are one character
                text = "".join(out)
                return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
            if c != "\\":
                out.append(c)
                continue
            if self.i >= len(s):
                break
            e = s[self.i]
            self.i += 1
            if e == "u":
                digits = s[self.i : self.i + 4]
                if len(digits) < 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
                    raise self.fail("Malformed Unicode escape")
                out.append(chr(int(digits, 16)))
                self.i += 4
            elif e in _ESCAPES:
                out.append(_ESCAPES[e])
            else:
                raise self.fail("Invalid escape sequence")
        raise self.fail("Unterminated string")

    def name(self) -> str:
        c = self.skip()
        if c and c in "\"'":
            if c == "'":
                self.check_lenient()
            self.i += 1
            return self.quoted(c)
        self.check_lenient()
        word = self.literal()
        if not word:
            raise self.fail("Expected name")
        return word

    def obj(self) -> dict[str, Any]:
        self.i += 1
        out: dict[str, Any] = {}
        if self.skip() == "}":
            self.i += 1
            return out
        while True:
            key = self.name()
            c = self.skip()
            if c == ":":
                self.i += 1
            elif c == "=":
                self.check_lenient()
                self.i += 2 if self.s.startswith("=>", self.i) else 1
            else:
                raise self.fail("Expected ':'")
            out[key] = self.value()
            c = self.skip()
            if c == ";":
                self.check_lenient()
            self.i += 1
            if c == "}":
                return out
            if not c or c not in ",;":
                raise self.fail("Unterminated object")

    def array(self) -> list[Any]:
        self.i += 1
        out: list[Any] = []
        if self.skip() == "]":
            self.i += 1
            return out
        while True:
            out.append(self.value())
            c = self.skip()
            if c == ";":
                self.check_lenient()
            self.i += 1
            if c == "]":
                return out
            if not c or c not in ",;":
                raise self.fail("Unterminated array")


def _keyword_or_number(word: str) -> Any:
    """JsonReader.peekKeyword/peekNumber; any other word is an unquoted string."""
    lower = word.lower()
    if lower in ("true", "false", "null") and (word == lower or word == word.upper()):
        return {"true": True, "false": False, "null": None}[lower]
    try:
        number = json.loads(word)
    except ValueError:
        return word
    return number if isinstance(number, int | float) and not isinstance(number, bool) else word


def parse_lenient(text: str) -> Any:
    """JsonParser.parseString: one value (an empty text is JSON null), nothing after it."""
    reader = _Reader(text)
    if not reader.skip():
        return None
    value = reader.value()
    if reader.skip():
        raise reader.fail("Expected end of document")
    return value


def read_json(text: str, start: int) -> tuple[Any, int]:
    """ParserUtils.parseJson's read: one strict JSON value at ``start`` (whitespace before it
    skipped); the value and the index just after it. What follows is left to the caller."""
    reader = _Reader(text, start, lenient=False)
    return reader.value(), reader.i


def decode_component(value: Any) -> Any:
    """ComponentSerialization.CODEC on JSON: the value back, or JsonTextError.

    A string, a non-empty list of components, or an object with one content (`text`,
    `translate`, …) whose `extra` (when given) is a non-empty list of components. Style fields
    are not checked (unverified: the sandbox takes any).
    """
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        if not value:
            raise JsonTextError("empty list is not a component")
        for part in value:
            decode_component(part)
        return value
    if isinstance(value, dict):
        if not any(key in value for key in _CONTENT_KEYS):
            raise JsonTextError(f"no content in {value!r}")
        text = value.get("text")
        if "text" in value and not isinstance(text, str):
            raise JsonTextError("text is not a string")
        extra = value.get("extra")
        if "extra" in value:
            if not isinstance(extra, list) or not extra:
                raise JsonTextError("extra must be a non-empty list")
            for part in extra:
                decode_component(part)
        return value
    raise JsonTextError(f"not a component: {value!r}")


def encode_component(component: Any) -> str:
    """Component.Serializer.toJson (Gson, HTML escaping off): a plain text as a JSON string,
    anything else as compact JSON in the order it was given (unverified: the codec's order)."""
    if isinstance(component, dict) and set(component) == {"text"}:
        component = component["text"]
    text = json.dumps(component, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
