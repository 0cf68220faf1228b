"""SNBT parsing exactly like Minecraft 26.1's packrat ``SnbtGrammar`` (since 1.21.5).

The parser mirrors the grammar rule by rule, including where terminals skip whitespace, where
``cut`` stops backtracking and where each rule stores its error. Errors are collected like
vanilla's ``ErrorCollector.LongestOnly``: only errors at the furthest cursor survive, and the
first one stored there is raised (``Grammar.parseForCommands``). Messages come from the 26.1
language file. Source: decompiled 26.1.2 ``net/minecraft/nbt/SnbtGrammar.java``,
``TagParser.java``, ``SnbtOperations.java`` and ``util/parsing/packrat/*`` (derived from code,
not checked against a live server).

Values are nbtlib tags. Heterogeneous lists (allowed since 1.21.5) cannot be an nbtlib ``List``;
they are returned the way vanilla writes them to disk (``ListTag.wrapIfNeeded``): a
``List[Compound]`` whose non-compound elements (and compounds that look like wrappers) are
wrapped as ``{"": element}``. The printer unwraps them again (as ``ListTag.addAndUnwrap`` does).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any, NamedTuple

from nbtlib.tag import (
    Base,
    Byte,
    ByteArray,
    Compound,
    Double,
    Float,
    Int,
    IntArray,
    List,
    Long,
    LongArray,
    Short,
    String,
)

from controller.lang import tr
from controller.nbt._javanum import parse_java_double, parse_java_float
from controller.nbt.reader import JAVA_WHITESPACE, CommandSyntaxError, StringReader

__all__ = [
    "Tag",
    "make_list",
    "parse_compound",
    "parse_compound_fully",
    "parse_tag",
    "parse_tag_fully",
]

Tag = Any  # an nbtlib tag (nbtlib is untyped)

_NUMBER_START = frozenset("+-.0123456789")
_DECIMAL = frozenset("0123456789_")
_BINARY = frozenset("01_")
_HEX = frozenset("0123456789abcdefABCDEF_")
_HEX_ESCAPE = frozenset("0123456789abcdefABCDEF")
_UNQUOTED = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-.+")
_UNICODE_NAME = frozenset("-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ")
_SIMPLE_ESCAPES = (
    ("b", "\b"),
    ("s", " "),
    ("t", "\t"),
    ("n", "\n"),
    ("f", "\f"),
    ("r", "\r"),
    ("\\", "\\"),
    ("'", "'"),
    ('"', '"'),
)

_PLUS, _MINUS = "+", "-"
_BYTE, _SHORT, _INT, _LONG, _FLOAT, _DOUBLE = "B", "S", "I", "L", "F", "D"
_SIGNED, _UNSIGNED = "signed", "unsigned"

_INT_RANGES = {
    _BYTE: (-(2**7), 2**7 - 1),
    _SHORT: (-(2**15), 2**15 - 1),
    _INT: (-(2**31), 2**31 - 1),
    _LONG: (-(2**63), 2**63 - 1),
}
_TAG_OF = {_BYTE: Byte, _SHORT: Short, _INT: Int, _LONG: Long}
_ARRAY_TYPES = {  # prefix -> (default element type, allowed suffix types, array class)
    "B": (_BYTE, {_BYTE}, ByteArray),
    "I": (_INT, {_INT, _BYTE, _SHORT}, IntArray),
    "L": (_LONG, {_LONG, _BYTE, _SHORT, _INT}, LongArray),
}


class _NumberFormatError(Exception):
    """java.lang.NumberFormatException with its message."""


class _IntegerLiteral(NamedTuple):
    """SnbtGrammar.IntegerLiteral: sign, radix, digits and suffix."""

    sign: str
    radix: int
    digits: str
    signed: str | None
    type: str | None


# -- Java integer parsing (messages of Integer/Long/Byte/Short.parseX, Guava UnsignedBytes) ----


def _for_input(text: str, radix: int) -> _NumberFormatError:
    """NumberFormatException.forInputString."""
    suffix = "" if radix == 10 else f" under radix {radix}"
    return _NumberFormatError(f'For input string: "{text}"{suffix}')


def _java_parse_signed(text: str, radix: int, bits: int) -> int:
    """Integer/Long.parseInt/parseLong for `bits` 32/64."""
    value = int(text, radix)
    if not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
        raise _for_input(text, radix)
    return value


def _java_parse_narrow(text: str, radix: int, kind: str) -> int:
    """Byte/Short.parseByte/parseShort."""
    value = _java_parse_signed(text, radix, 32)
    low, high = _INT_RANGES[kind]
    if not low <= value <= high:
        raise _NumberFormatError(f'Value out of range. Value:"{text}" Radix:{radix}')
    return value


def _java_parse_unsigned(text: str, radix: int, kind: str) -> int:
    """Unsigned parsing; returns the two's-complement signed value of the type."""
    if kind in (_BYTE, _SHORT):  # UnsignedBytes.parseUnsignedByte / SnbtGrammar.parseUnsignedShort
        value = _java_parse_signed(text, radix, 32)
        bits = 8 if kind == _BYTE else 16
        if value >> bits != 0:
            raise _NumberFormatError(f"out of range: {value}")
    elif kind == _INT:  # Integer.parseUnsignedInt
        if len(text) <= 5 or (radix == 10 and len(text) <= 9):
            value = _java_parse_signed(text, radix, 32)
        else:
            value = _java_parse_signed(text, radix, 64)
            if value >> 32 != 0:
                raise _NumberFormatError(f"String value {text} exceeds range of unsigned int.")
        bits = 32
    else:  # Long.parseUnsignedLong (overflow message unverified for > 2**64 * radix)
        if len(text) <= 12 or (radix == 10 and len(text) <= 18):
            value = _java_parse_signed(text, radix, 64)
        else:
            value = int(text, radix)
            if value >> 64 != 0:
                raise _NumberFormatError(f"String value {text} exceeds range of unsigned long.")
        bits = 64
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def make_list(elements: list[Tag]) -> Tag:
    """Build a list tag like NbtOps.createList: typed when homogeneous, wrapped otherwise."""
    if not elements:
        return List()
    first = elements[0].tag_id
    if all(e.tag_id == first for e in elements):
        return List[Base.all_tags[first]](elements)
    wrapped = [
        e if isinstance(e, Compound) and not (len(e) == 1 and "" in e) else Compound({"": e})
        for e in elements
    ]
    return List[Compound](wrapped)


class _Parser:
    """One parse of the SNBT grammar over a string, starting at a cursor."""

    def __init__(self, text: str, cursor: int) -> None:
        self.s = text
        self.n = len(text)
        self.pos = cursor
        self.err_cursor = -1
        self.err_key = ""
        self.err_args: tuple[object, ...] = ()

    # -- error collection (ErrorCollector.LongestOnly) --------------------------------------
    def store(self, cursor: int, key: str, *args: object) -> None:
        """Keep only the first error stored at the furthest cursor (formatted lazily)."""
        if cursor > self.err_cursor:
            self.err_cursor = cursor
            self.err_key = key
            self.err_args = args

    def error(self) -> CommandSyntaxError:
        """The collected error as a CommandSyntaxError."""
        return CommandSyntaxError(tr(self.err_key, *self.err_args), self.s, self.err_cursor)

    # -- terminals ---------------------------------------------------------------------------
    def skip_ws(self) -> None:
        """Brigadier skipWhitespace (Character.isWhitespace)."""
        s, n, p = self.s, self.n, self.pos
        while p < n and s[p] in JAVA_WHITESPACE:
            p += 1
        self.pos = p

    def chars(self, accepted: str) -> bool:
        """StringReaderTerms.character/characters: skip whitespace, then one of `accepted`."""
        s, n, p = self.s, self.n, self.pos
        while p < n and s[p] in JAVA_WHITESPACE:
            p += 1
        if p < n and s[p] in accepted:
            self.pos = p + 1
            return True
        if p > self.err_cursor:
            self.store(p, "argument.literal.incorrect", "|".join(accepted))
        return False

    def lookahead(self, accepted: frozenset[str] | str) -> bool:
        """A silent positive lookahead of a character terminal."""
        s, n, p = self.s, self.n, self.pos
        while p < n and s[p] in JAVA_WHITESPACE:
            p += 1
        return p < n and s[p] in accepted

    def numeral(self, accepted: frozenset[str], missing_key: str) -> str | None:
        """NumberRunParseRule."""
        start = self.pos
        self.skip_ws()
        s, n, begin = self.s, self.n, self.pos
        p = begin
        while p < n and s[p] in accepted:
            p += 1
        if p == begin:
            self.store(begin, missing_key)
            self.pos = start
            return None
        if s[begin] == "_" or s[p - 1] == "_":
            # the code asks for "underscore_not_allowed"; the 26.1 lang file only has the
            # misspelt "undescore_not_allowed", so vanilla shows the raw key (derived)
            self.store(begin, "snbt.parser.underscore_not_allowed")
            self.pos = start
            return None
        self.pos = p
        return s[begin:p]

    def greedy(
        self, accepted: frozenset[str], low: int, high: int, key: str, *args: object
    ) -> str | None:
        """GreedyPredicateParseRule (no whitespace skipping)."""
        s, n, begin = self.s, self.n, self.pos
        p = begin
        while p < n and s[p] in accepted and p - begin < high:
            p += 1
        if p - begin < low:
            self.store(begin, key, *args)
            return None
        self.pos = p
        return s[begin:p]

    def unquoted_string(self) -> str | None:
        """UnquotedStringParseRule(1, expected_unquoted_string)."""
        start = self.pos
        self.skip_ws()
        s, n, begin = self.s, self.n, self.pos
        p = begin
        while p < n and s[p] in _UNQUOTED:
            p += 1
        if p == begin:
            self.store(begin, "snbt.parser.expected_unquoted_string")
            self.pos = start
            return None
        self.pos = p
        return s[begin:p]

    # -- numbers -------------------------------------------------------------------------------
    def sign(self) -> str | None:
        """Rule `sign`."""
        if self.chars("+"):
            return _PLUS
        if self.chars("-"):
            return _MINUS
        return None

    def integer_suffix(self) -> tuple[str | None, str] | None:
        """Rule `integer_suffix`: (signedness, type) or None."""
        mark = self.pos
        for prefix, signedness in (("uU", _UNSIGNED), ("sS", _SIGNED)):
            if self.chars(prefix):
                for letters, kind in (("bB", _BYTE), ("sS", _SHORT), ("iI", _INT), ("lL", _LONG)):
                    if self.chars(letters):
                        return signedness, kind
                self.pos = mark
        for letters, kind in (("bB", _BYTE), ("sS", _SHORT), ("iI", _INT), ("lL", _LONG)):
            if self.chars(letters):
                return None, kind
        return None

    def integer_literal(self) -> _IntegerLiteral | None:
        """Rule `integer_literal`."""
        start = self.pos
        sign = self.sign() or _PLUS
        mark = self.pos
        radix = 10
        if self.chars("0"):
            after_zero = self.pos
            digits: str | None
            if self.chars("xX"):
                digits = self.numeral(_HEX, "snbt.parser.expected_hex_numeral")
                if digits is None:
                    self.pos = start
                    return None
                radix = 16
            else:
                digits = None
                if self.chars("bB"):
                    digits = self.numeral(_BINARY, "snbt.parser.expected_binary_numeral")
                    if digits is None:
                        self.pos = after_zero
                    else:
                        radix = 2
                if digits is None:
                    if self.numeral(_DECIMAL, "snbt.parser.expected_decimal_numeral") is not None:
                        self.store(self.pos, "snbt.parser.leading_zero_not_allowed")
                        self.pos = start
                        return None
                    digits = "0"
        else:
            self.pos = mark
            digits = self.numeral(_DECIMAL, "snbt.parser.expected_decimal_numeral")
            if digits is None:
                self.pos = start
                return None
        suffix = self.integer_suffix()
        signed, kind = suffix if suffix is not None else (None, None)
        return _IntegerLiteral(sign, radix, digits, signed, kind)

    def create_integer(self, lit: _IntegerLiteral, kind: str) -> int | None:
        """IntegerLiteral.create: the Java value, or None after storing the error."""
        signed = lit.signed or (_SIGNED if lit.radix == 10 else _UNSIGNED)
        if signed == _UNSIGNED and lit.sign == _MINUS:
            self.store(self.pos, "snbt.parser.expected_non_negative_number")
            return None
        text = ("-" if lit.sign == _MINUS else "") + lit.digits.replace("_", "")
        try:
            if signed == _SIGNED:
                if kind in (_BYTE, _SHORT):
                    return _java_parse_narrow(text, lit.radix, kind)
                return _java_parse_signed(text, lit.radix, 32 if kind == _INT else 64)
            return _java_parse_unsigned(text, lit.radix, kind)
        except _NumberFormatError as exc:
            self.store(self.pos, "snbt.parser.number_parse_failure", exc.args[0])
            return None

    def exponent(self) -> tuple[str, str] | None:
        """Rule `float_exponent_part`."""
        start = self.pos
        if not self.chars("eE"):
            return None
        sign = self.sign() or _PLUS
        digits = self.numeral(_DECIMAL, "snbt.parser.expected_decimal_numeral")
        if digits is None:
            self.pos = start
            return None
        return sign, digits

    def float_suffix(self) -> str | None:
        """Rule `float_type_suffix`."""
        if self.chars("fF"):
            return _FLOAT
        if self.chars("dD"):
            return _DOUBLE
        return None

    def float_literal(self) -> Tag | None:
        """Rule `float_literal` with its action."""
        start = self.pos
        sign = self.sign() or _PLUS
        mark = self.pos
        whole: str | None
        fraction: str | None = None
        # A: whole '.' cut fraction? exponent? suffix?
        whole = self.numeral(_DECIMAL, "snbt.parser.expected_decimal_numeral")
        if whole is not None and self.chars("."):
            fraction = self.numeral(_DECIMAL, "snbt.parser.expected_decimal_numeral")
            exp = self.exponent()
            return self.create_float(start, sign, whole, fraction, exp, self.float_suffix())
        self.pos = mark
        # B: '.' cut fraction exponent? suffix?
        if self.chars("."):
            fraction = self.numeral(_DECIMAL, "snbt.parser.expected_decimal_numeral")
            if fraction is None:
                self.pos = start
                return None
            exp = self.exponent()
            return self.create_float(start, sign, None, fraction, exp, self.float_suffix())
        # C: whole exponent cut suffix?
        whole = self.numeral(_DECIMAL, "snbt.parser.expected_decimal_numeral")
        if whole is not None:
            exp = self.exponent()
            if exp is not None:
                return self.create_float(start, sign, whole, None, exp, self.float_suffix())
            self.pos = mark
        # D: whole exponent? suffix
        whole = self.numeral(_DECIMAL, "snbt.parser.expected_decimal_numeral")
        if whole is not None:
            exp = self.exponent()
            suffix = self.float_suffix()
            if suffix is not None:
                return self.create_float(start, sign, whole, None, exp, suffix)
        self.pos = start
        return None

    def create_float(
        self,
        start: int,
        sign: str,
        whole: str | None,
        fraction: str | None,
        exp: tuple[str, str] | None,
        suffix: str | None,
    ) -> Tag | None:
        """SnbtGrammar.createFloat."""
        text = "-" if sign == _MINUS else ""
        if whole is not None:
            text += whole.replace("_", "")
        if fraction is not None:
            text += "." + fraction.replace("_", "")
        if exp is not None:
            text += "e" + ("-" if exp[0] == _MINUS else "") + exp[1].replace("_", "")
        value = parse_java_float(text) if suffix == _FLOAT else parse_java_double(text)
        if value in (float("inf"), float("-inf")):
            self.store(self.pos, "snbt.parser.infinity_not_allowed")
            self.pos = start
            return None
        return Float(value) if suffix == _FLOAT else Double(value)

    # -- strings -------------------------------------------------------------------------------
    def escape_sequence(self) -> str | None:
        """Rule `string_escape_sequence` with its action."""
        mark = self.pos
        for letter, value in _SIMPLE_ESCAPES:
            if self.chars(letter):
                return value
        for letter, size in (("x", 2), ("u", 4), ("U", 8)):
            if self.chars(letter):
                digits = self.greedy(
                    _HEX_ESCAPE, size, size, "snbt.parser.expected_hex_escape", str(size)
                )
                if digits is None:
                    self.pos = mark
                    continue
                code = int(digits, 16)
                if code > 0x10FFFF:
                    self.store(self.pos, "snbt.parser.invalid_codepoint", f"U+{code:08X}")
                    self.pos = mark
                    return None
                return chr(code)
        if self.chars("N"):
            if self.chars("{"):
                name = self.greedy(_UNICODE_NAME, 1, 1 << 30, "snbt.parser.invalid_character_name")
                if name is not None and self.chars("}"):
                    try:  # Character.codePointOf; Python's name table may differ (unverified)
                        return unicodedata.lookup(name)
                    except KeyError:
                        self.store(self.pos, "snbt.parser.invalid_character_name")
                        self.pos = mark
                        return None
            self.pos = mark
        return None

    def string_contents(self, other_quote: str) -> str:
        """Rules `*_quoted_string_contents` (repeated chunks)."""
        chunks: list[str] = []
        while True:
            mark = self.pos
            # plain chunk: anything but quotes and backslash, at least one char
            s, n, p = self.s, self.n, self.pos
            while p < n and s[p] not in "\"'\\":
                p += 1
            if p > self.pos:
                chunks.append(s[self.pos : p])
                self.pos = p
                continue
            self.store(p, "snbt.parser.invalid_string_contents")
            if self.chars("\\"):
                escaped = self.escape_sequence()
                if escaped is not None:
                    chunks.append(escaped)
                    continue
                self.pos = mark
            if self.chars(other_quote):
                chunks.append(other_quote)
                continue
            self.pos = mark
            return "".join(chunks)

    def quoted_string(self) -> str | None:
        """Rule `quoted_string_literal`."""
        start = self.pos
        if self.chars('"'):
            contents = self.string_contents("'")
            if self.chars('"'):
                return contents
            self.pos = start
            return None  # cut: no single-quoted alternative
        if self.chars("'"):
            contents = self.string_contents('"')
            if self.chars("'"):
                return contents
        self.pos = start
        return None

    # -- structures ----------------------------------------------------------------------------
    def repeated(self, element: Callable[[], Any]) -> list[Any]:
        """Term.repeatedWithTrailingSeparator(element, ',')."""
        out: list[Any] = []
        first = True
        while True:
            before = self.pos
            if not first and not self.chars(","):
                self.pos = before
                break
            after = self.pos
            value = element()
            if value is None:
                self.pos = after
                break
            out.append(value)
            first = False
        return out

    def unquoted_or_builtin(self) -> Tag | None:
        """Rule `unquoted_string_or_builtin` with its action."""
        start = self.pos
        contents = self.unquoted_string()
        if contents is None:
            return None
        mark = self.pos
        args: list[Tag] | None = None
        if self.chars("("):
            # The arguments stay in the rule's scope even when ')' is missing: Term.optional
            # and Term.sequence restore the cursor but never clear scope values. So "bool(1"
            # is still a builtin call (ending after "bool").
            args = self.repeated(self.literal)
            if not self.chars(")"):
                self.pos = mark
        if contents[0] in _NUMBER_START:
            self.store(self.pos, "snbt.parser.invalid_unquoted_start")
            self.pos = start
            return None
        if args is not None:
            result = self.builtin(contents, args)
            if result is None:
                self.pos = start
            return result
        lowered = contents.lower()
        if lowered == "true":
            return Byte(1)
        if lowered == "false":
            return Byte(0)
        return String(contents)

    def builtin(self, name: str, args: list[Tag]) -> Tag | None:
        """SnbtOperations.BUILTIN_OPERATIONS: bool(x) and uuid(s)."""
        if name == "bool" and len(args) == 1:
            arg = args[0]
            if isinstance(arg, int | float) and not isinstance(arg, String):
                # DynamicOps.getBooleanValue: Number.byteValue() != 0, i.e. (byte)(int) for
                # floating-point numbers (unverified)
                if isinstance(arg, float):
                    value = float(arg)
                    if value != value:
                        as_int = 0
                    elif value in (float("inf"), float("-inf")):
                        as_int = 2**31 - 1 if value > 0 else -(2**31)
                    else:
                        as_int = max(-(2**31), min(2**31 - 1, int(value)))
                else:
                    as_int = int(arg)
                return Byte(1 if (as_int & 0xFF) != 0 else 0)
            self.store(self.pos, "snbt.parser.expected_number_or_boolean")
            return None
        if name == "uuid" and len(args) == 1:
            arg = args[0]
            ints = _java_uuid_ints(str(arg)) if isinstance(arg, String) else None
            if ints is None:
                self.store(self.pos, "snbt.parser.expected_string_uuid")
                return None
            return IntArray(ints)
        self.store(self.pos, "snbt.parser.no_such_operation", f"{name}/{len(args)}")
        return None

    def map_entry(self) -> tuple[str, Tag] | None:
        """Rule `map_entry` (key, value)."""
        start = self.pos
        key = self.quoted_string()
        if key is None:
            key = self.unquoted_string()
        if key is None or not self.chars(":"):
            self.pos = start
            return None
        value = self.literal()
        if value is None:
            self.pos = start
            return None
        if not key:
            self.store(self.pos, "snbt.parser.empty_key")
            self.pos = start
            return None
        return key, value

    def map_literal(self) -> Tag | None:
        """Rule `map_literal`."""
        start = self.pos
        if not self.chars("{"):
            return None
        entries = self.repeated(self.map_entry)
        if not self.chars("}"):
            self.pos = start
            return None
        compound = Compound()
        for key, value in entries:  # ImmutableMap.buildKeepingLast: first position, last value
            compound[key] = value
        return compound

    def list_literal(self) -> Tag | None:
        """Rule `list_literal` (lists and typed arrays)."""
        start = self.pos
        if not self.chars("["):
            return None
        mark = self.pos
        prefix = None
        for letter in "BLI":
            if self.chars(letter):
                prefix = letter
                break
        ints: list[_IntegerLiteral] | None = None
        if prefix is not None and self.chars(";"):
            ints = self.repeated(self.integer_literal)
        else:
            self.pos = mark
            prefix = None
        elements = self.repeated(self.literal) if ints is None else []
        if not self.chars("]"):
            self.pos = start
            return None
        if prefix is None:
            return make_list(elements)
        assert ints is not None
        default, allowed, array_type = _ARRAY_TYPES[prefix]
        values: list[int] = []
        for lit in ints:
            kind = lit.type or default
            if lit.type is not None and lit.type not in allowed:
                self.store(self.pos, "snbt.parser.invalid_array_element_type")
                self.pos = start
                return None
            value = self.create_integer(lit, kind)
            if value is None:
                self.pos = start
                return None
            values.append(value)
        return array_type(values)

    def literal(self) -> Tag | None:
        """Rule `literal`: any SNBT value."""
        start = self.pos
        if self.lookahead(_NUMBER_START):
            value = self.float_literal()
            if value is not None:
                return value
            lit = self.integer_literal()
            if lit is not None:
                kind = lit.type or _INT  # integer suffixes are always integral types
                number = self.create_integer(lit, kind)
                if number is None:
                    self.pos = start
                    return None
                return _TAG_OF[kind](number)
            self.pos = start
        if self.lookahead("\"'"):
            text = self.quoted_string()
            return None if text is None else String(text)
        if self.lookahead("{"):
            return self.map_literal()
        if self.lookahead("["):
            return self.list_literal()
        return self.unquoted_or_builtin()


def _java_uuid_ints(text: str) -> list[int] | None:
    """UUID.fromString (lenient Java form) → UUIDUtil.uuidToIntArray, or None if invalid."""
    if len(text) > 36:
        return None
    parts = text.split("-")
    if len(parts) != 5:
        return None
    values: list[int] = []
    for part in parts:
        try:
            values.append(_java_parse_signed(part, 16, 64))
        except (ValueError, _NumberFormatError):
            return None
    most = ((values[0] & 0xFFFFFFFF) << 32) | ((values[1] & 0xFFFF) << 16) | (values[2] & 0xFFFF)
    least = ((values[3] & 0xFFFF) << 48) | (values[4] & 0xFFFFFFFFFFFF)
    words = [most >> 32, most & 0xFFFFFFFF, least >> 32, least & 0xFFFFFFFF]
    return [w - (1 << 32) if w >= 1 << 31 else w for w in words]


def parse_tag(reader: StringReader) -> Tag:
    """TagParser.parseAsArgument: one SNBT value at the cursor; the cursor ends after it."""
    parser = _Parser(reader.string, reader.cursor)
    value = parser.literal()
    if value is None:
        raise parser.error()
    reader.cursor = parser.pos
    return value


def parse_compound(reader: StringReader) -> Tag:
    """TagParser.parseCompoundAsArgument: like parse_tag but the value must be a compound."""
    value = parse_tag(reader)
    if not isinstance(value, Compound):
        raise reader.error(tr("argument.nbt.expected.compound"))
    return value


def parse_tag_fully(text: str) -> Tag:
    """TagParser.parseFully: the whole string must be one value (trailing spaces allowed)."""
    reader = StringReader(text)
    value = parse_tag(reader)
    reader.cursor = _skip_java_ws(reader.string, reader.cursor)
    if reader.can_read():
        raise reader.error(tr("argument.nbt.trailing"))
    return value


def parse_compound_fully(text: str) -> Tag:
    """TagParser.parseCompoundFully."""
    reader = StringReader(text)
    value = parse_tag(reader)
    reader.cursor = _skip_java_ws(reader.string, reader.cursor)
    if reader.can_read():
        raise reader.error(tr("argument.nbt.trailing"))
    if not isinstance(value, Compound):
        raise reader.error(tr("argument.nbt.expected.compound"))
    return value


def _skip_java_ws(text: str, cursor: int) -> int:
    """Brigadier skipWhitespace."""
    while cursor < len(text) and text[cursor] in JAVA_WHITESPACE:
        cursor += 1
    return cursor
