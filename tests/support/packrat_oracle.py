"""Test helper (no tests): a literal transcription of 26.1's packrat parser and SnbtGrammar.

Test oracle for ``controller.nbt.snbt``: it keeps the Java structure (``Scope`` frames,
``Control``/cut, memoised ``NamedRule``s, ``ErrorCollector.LongestOnly``, ``Term`` combinators)
so that the hand-written recursive-descent parser can be checked against it on random input.
Slow and test-only. Sources: decompiled 26.1.2 ``util/parsing/packrat/*`` and
``nbt/SnbtGrammar.java``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from nbtlib.tag import Byte, Compound, Double, Float, Int, IntArray, Long, Short, String

from controller.lang import tr
from controller.nbt._javanum import parse_java_double, parse_java_float
from controller.nbt.reader import JAVA_WHITESPACE
from controller.nbt.snbt import (
    _ARRAY_TYPES,
    _java_parse_narrow,
    _java_parse_signed,
    _java_parse_unsigned,
    _java_uuid_ints,
    _NumberFormatError,
    make_list,
)

__all__ = ["oracle_parse"]

_FRAME = object()
LEADING_ZERO = "snbt.parser.leading_zero_not_allowed"


class _Atom:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


class _Scope:
    def __init__(self) -> None:
        self.stack: list[list[Any]] = [[_FRAME, None]]
        self.top_entry = 0
        self.top_marker = 0

    def _trim(self) -> None:
        del self.stack[self.top_entry + 1 :]

    def _index(self, *atoms: _Atom) -> int:
        i = self.top_entry
        while i > self.top_marker:
            if any(self.stack[i][0] is a for a in atoms):
                return i
            i -= 1
        return -1

    def push_frame(self) -> None:
        self._trim()
        self.stack.append([_FRAME, self.top_marker])
        self.top_entry += 1
        self.top_marker = self.top_entry

    def pop_frame(self) -> None:
        self.top_entry = self.top_marker - 1
        self.top_marker = self.stack[self.top_marker][1]
        self._trim()

    def split_frame(self) -> None:
        marker = self.top_marker
        keys = [self.stack[i][0] for i in range(marker + 1, self.top_entry + 1)]
        self.push_frame()
        for key in keys:
            self.stack.append([key, None])
            self.top_entry += 1

    def clear_frame_values(self) -> None:
        for i in range(self.top_marker + 1, self.top_entry + 1):
            self.stack[i][1] = None

    def merge_frame(self) -> None:
        previous_marker = self.stack[self.top_marker][1]
        prev = previous_marker
        cur = self.top_marker
        while cur < self.top_entry:
            prev += 1
            cur += 1
            new_key, new_value = self.stack[cur]
            if self.stack[prev][0] is not new_key:
                self.stack[prev] = [new_key, new_value]
            elif new_value is not None:
                self.stack[prev][1] = new_value
        self.top_entry = prev
        self.top_marker = previous_marker
        self._trim()

    def put(self, atom: _Atom, value: Any) -> None:
        i = self._index(atom)
        if i != -1:
            self.stack[i][1] = value
        else:
            self._trim()
            self.stack.append([atom, value])
            self.top_entry += 1

    def get(self, *atoms: _Atom) -> Any:
        i = self._index(*atoms)
        return self.stack[i][1] if i != -1 else None

    def has(self, atom: _Atom) -> bool:
        return self._index(atom) != -1


class _Control:
    def __init__(self) -> None:
        self.has_cut = False

    def cut(self) -> None:
        self.has_cut = True


class _Unbound(_Control):
    def cut(self) -> None:
        pass


UNBOUND = _Unbound()


class _State:
    def __init__(self, text: str, cursor: int) -> None:
        self.s = text
        self.pos = cursor
        self.scope = _Scope()
        self.cache: dict[tuple[int, int], tuple[Any, int]] = {}
        self.silent = False
        self.last_cursor = -1
        self.entries: list[tuple[str, tuple[Any, ...]]] = []

    def store(self, cursor: int, key: str, *args: Any) -> None:
        if self.silent:
            return
        if cursor > self.last_cursor:
            self.last_cursor = cursor
            self.entries = []
        if cursor == self.last_cursor:
            self.entries.append((key, args))

    def skip_ws(self) -> None:
        while self.pos < len(self.s) and self.s[self.pos] in JAVA_WHITESPACE:
            self.pos += 1

    def parse(self, rule: _Rule) -> Any:
        key = (self.pos, id(rule))
        if key in self.cache:
            value, after = self.cache[key]
            if value is None:
                return None
            self.pos = after
            return value
        value = rule.run(self)
        self.cache[key] = (value, self.pos)
        return value


Term = Callable[[_State, _Scope, _Control], bool]


class _Rule:
    def __init__(self, name: str) -> None:
        self.name = name
        self.run: Callable[[_State], Any] = lambda state: None


def wrapped(term: Term, action: Callable[[_State], Any]) -> Callable[[_State], Any]:
    def run(state: _State) -> Any:
        state.scope.push_frame()
        try:
            if not term(state, state.scope, UNBOUND):
                return None
            return action(state)
        finally:
            state.scope.pop_frame()

    return run


def seq(*terms: Term) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        mark = state.pos
        for t in terms:
            if not t(state, scope, control):
                state.pos = mark
                return False
        return True

    return parse


def alt(*terms: Term) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        own = _Control()
        mark = state.pos
        scope.split_frame()
        for t in terms:
            if t(state, scope, own):
                scope.merge_frame()
                return True
            scope.clear_frame_values()
            state.pos = mark
            if own.has_cut:
                break
        scope.pop_frame()
        return False

    return parse


def opt(term: Term) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        mark = state.pos
        if not term(state, scope, control):
            state.pos = mark
        return True

    return parse


def marker(atom: _Atom, value: Any) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        scope.put(atom, value)
        return True

    return parse


def cut() -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        control.cut()
        return True

    return parse


def fail(key: str) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        state.store(state.pos, key)
        return False

    return parse


def lookahead(accepted: str) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        mark = state.pos
        was = state.silent
        state.silent = True
        ok = chars(accepted)(state, scope, control)
        state.silent = was
        state.pos = mark
        return ok

    return parse


def chars(accepted: str) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        state.skip_ws()
        cursor = state.pos
        if state.pos < len(state.s):
            c = state.s[state.pos]
            state.pos += 1  # Java reads even when the character is rejected
            if c in accepted:
                return True
        state.store(cursor, "argument.literal.incorrect", "|".join(accepted))
        return False

    return parse


def ref(rule: _Rule, store_as: _Atom) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        value = state.parse(rule)
        if value is None:
            return False
        scope.put(store_as, value)
        return True

    return parse


def repeated_sep(element: _Rule, list_atom: _Atom, separator: Term) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        out: list[Any] = []
        first = True
        while True:
            before = state.pos
            if not first and not separator(state, scope, control):
                state.pos = before
                break
            after = state.pos
            value = state.parse(element)
            if value is None:
                state.pos = after
                break
            out.append(value)
            first = False
        scope.put(list_atom, out)
        return True

    return parse


def repeated(element: _Rule, list_atom: _Atom) -> Term:
    def parse(state: _State, scope: _Scope, control: _Control) -> bool:
        out: list[Any] = []
        while True:
            mark = state.pos
            value = state.parse(element)
            if value is None:
                state.pos = mark
                break
            out.append(value)
        scope.put(list_atom, out)
        return True

    return parse


def number_run(accepted: str, missing: str) -> Callable[[_State], Any]:
    def run(state: _State) -> Any:
        state.skip_ws()
        start = pos = state.pos
        while pos < len(state.s) and state.s[pos] in accepted:
            pos += 1
        if pos == start:
            state.store(state.pos, missing)
            return None
        if state.s[start] == "_" or state.s[pos - 1] == "_":
            state.store(state.pos, "snbt.parser.underscore_not_allowed")
            return None
        state.pos = pos
        return state.s[start:pos]

    return run


def greedy(accepted: Callable[[str], bool], low: int, high: int, *error: Any) -> Callable[..., Any]:
    def run(state: _State) -> Any:
        start = pos = state.pos
        while pos < len(state.s) and accepted(state.s[pos]) and pos - start < high:
            pos += 1
        if pos - start < low:
            state.store(state.pos, *error)
            return None
        state.pos = pos
        return state.s[start:pos]

    return run


def _build() -> _Rule:  # noqa: PLR0915 - one grammar, kept in SnbtGrammar's order
    A = _Atom  # noqa: N806
    rules: dict[str, _Rule] = {}

    def rule(name: str) -> _Rule:
        return rules.setdefault(name, _Rule(name))

    sign, integer_suffix = A("sign"), A("integer_suffix")
    rule("sign").run = wrapped(
        alt(seq(chars("+"), marker(sign, "+")), seq(chars("-"), marker(sign, "-"))),
        lambda s: s.scope.get(sign),
    )

    def suffix_alts(prefix: str | None) -> Term:
        return alt(
            *[
                seq(chars(c), marker(integer_suffix, (prefix, t)))
                for c, t in (("bB", "B"), ("sS", "S"), ("iI", "I"), ("lL", "L"))
            ]
        )

    rule("integer_suffix").run = wrapped(
        alt(
            seq(chars("uU"), suffix_alts("unsigned")),
            seq(chars("sS"), suffix_alts("signed")),
            *[
                seq(chars(c), marker(integer_suffix, (None, t)))
                for c, t in (("bB", "B"), ("sS", "S"), ("iI", "I"), ("lL", "L"))
            ],
        ),
        lambda s: s.scope.get(integer_suffix),
    )
    binary, decimal, hexa = A("binary_numeral"), A("decimal_numeral"), A("hex_numeral")
    rule("binary_numeral").run = number_run("01_", "snbt.parser.expected_binary_numeral")
    rule("decimal_numeral").run = number_run("0123456789_", "snbt.parser.expected_decimal_numeral")
    rule("hex_numeral").run = number_run(
        "0123456789abcdefABCDEF_", "snbt.parser.expected_hex_numeral"
    )
    r_sign, r_suffix = rule("sign"), rule("integer_suffix")
    r_bin, r_dec, r_hex = rule("binary_numeral"), rule("decimal_numeral"), rule("hex_numeral")

    def integer_action(s: _State) -> Any:
        suffix = s.scope.get(integer_suffix) or (None, None)
        sg = s.scope.get(sign) or "+"
        if s.scope.get(decimal) is not None:
            return (sg, 10, s.scope.get(decimal), suffix)
        if s.scope.get(hexa) is not None:
            return (sg, 16, s.scope.get(hexa), suffix)
        return (sg, 2, s.scope.get(binary), suffix)

    rule("integer_literal").run = wrapped(
        seq(
            opt(ref(r_sign, sign)),
            alt(
                seq(
                    chars("0"),
                    cut(),
                    alt(
                        seq(chars("xX"), cut(), ref(r_hex, hexa)),
                        seq(chars("bB"), ref(r_bin, binary)),
                        seq(
                            ref(r_dec, decimal), cut(), fail("snbt.parser.leading_zero_not_allowed")
                        ),
                        marker(decimal, "0"),
                    ),
                ),
                ref(r_dec, decimal),
            ),
            opt(ref(r_suffix, integer_suffix)),
        ),
        integer_action,
    )
    fsuffix, fexp = A("float_type_suffix"), A("float_exponent_part")
    whole, fraction = A("float_whole_part"), A("float_fraction_part")
    rule("float_type_suffix").run = wrapped(
        alt(seq(chars("fF"), marker(fsuffix, "F")), seq(chars("dD"), marker(fsuffix, "D"))),
        lambda s: s.scope.get(fsuffix),
    )
    rule("float_exponent_part").run = wrapped(
        seq(chars("eE"), opt(ref(r_sign, sign)), ref(r_dec, decimal)),
        lambda s: (s.scope.get(sign) or "+", s.scope.get(decimal)),
    )
    r_fsuffix, r_fexp = rule("float_type_suffix"), rule("float_exponent_part")

    def float_action(s: _State) -> Any:
        text = "-" if (s.scope.get(sign) or "+") == "-" else ""
        w, f, e = s.scope.get(whole), s.scope.get(fraction), s.scope.get(fexp)
        if w is not None:
            text += w.replace("_", "")
        if f is not None:
            text += "." + f.replace("_", "")
        if e is not None:
            text += "e" + ("-" if e[0] == "-" else "") + e[1].replace("_", "")
        single = s.scope.get(fsuffix) == "F"
        value = parse_java_float(text) if single else parse_java_double(text)
        if value in (float("inf"), float("-inf")):
            s.store(s.pos, "snbt.parser.infinity_not_allowed")
            return None
        return Float(value) if single else Double(value)

    rule("float_literal").run = wrapped(
        seq(
            opt(ref(r_sign, sign)),
            alt(
                seq(
                    ref(r_dec, whole),
                    chars("."),
                    cut(),
                    opt(ref(r_dec, fraction)),
                    opt(ref(r_fexp, fexp)),
                    opt(ref(r_fsuffix, fsuffix)),
                ),
                seq(
                    chars("."),
                    cut(),
                    ref(r_dec, fraction),
                    opt(ref(r_fexp, fexp)),
                    opt(ref(r_fsuffix, fsuffix)),
                ),
                seq(ref(r_dec, whole), ref(r_fexp, fexp), cut(), opt(ref(r_fsuffix, fsuffix))),
                seq(ref(r_dec, whole), opt(ref(r_fexp, fexp)), ref(r_fsuffix, fsuffix)),
            ),
        ),
        float_action,
    )
    hexchars = "0123456789abcdefABCDEF"
    for size in (2, 4, 8):
        rule(f"string_hex_{size}").run = greedy(
            lambda c: c in hexchars, size, size, "snbt.parser.expected_hex_escape", str(size)
        )
    rule("string_unicode_name").run = greedy(
        lambda c: c in "-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ",
        1,
        1 << 30,
        "snbt.parser.invalid_character_name",
    )
    esc, h2, h4, h8, uname = (
        A("string_escape_sequence"),
        A("h2"),
        A("h4"),
        A("h8"),
        A("string_unicode_name"),
    )
    simple = [("b", "\b"), ("s", " "), ("t", "\t"), ("n", "\n"), ("f", "\f"), ("r", "\r")]
    simple += [("\\", "\\"), ("'", "'"), ('"', '"')]

    def escape_action(s: _State) -> Any:
        plain = s.scope.get(esc)
        if plain is not None:
            return plain
        hexed = s.scope.get(h2, h4, h8)
        if hexed is not None:
            code = int(hexed, 16)
            if code > 0x10FFFF:
                s.store(s.pos, "snbt.parser.invalid_codepoint", f"U+{code:08X}")
                return None
            return chr(code)
        try:
            return unicodedata.lookup(s.scope.get(uname))
        except KeyError:
            s.store(s.pos, "snbt.parser.invalid_character_name")
            return None

    rule("string_escape_sequence").run = wrapped(
        alt(
            *[seq(chars(c), marker(esc, v)) for c, v in simple],
            seq(chars("x"), ref(rule("string_hex_2"), h2)),
            seq(chars("u"), ref(rule("string_hex_4"), h4)),
            seq(chars("U"), ref(rule("string_hex_8"), h8)),
            seq(chars("N"), chars("{"), ref(rule("string_unicode_name"), uname), chars("}")),
        ),
        escape_action,
    )
    rule("string_plain_contents").run = greedy(
        lambda c: c not in "\"'\\", 1, 1 << 30, "snbt.parser.invalid_string_contents"
    )
    chunks, contents = A("string_chunks"), A("string_contents")
    for name, other in (("single", '"'), ("double", "'")):
        rule(f"{name}_chunk").run = wrapped(
            alt(
                ref(rule("string_plain_contents"), contents),
                seq(chars("\\"), ref(rule("string_escape_sequence"), contents)),
                seq(chars(other), marker(contents, other)),
            ),
            lambda s: s.scope.get(contents),
        )
        rule(f"{name}_contents").run = wrapped(
            repeated(rule(f"{name}_chunk"), chunks), lambda s: "".join(s.scope.get(chunks))
        )
    quoted = A("quoted_string_literal")
    rule("quoted_string_literal").run = wrapped(
        alt(
            seq(chars('"'), cut(), opt(ref(rule("double_contents"), contents)), chars('"')),
            seq(chars("'"), opt(ref(rule("single_contents"), contents)), chars("'")),
        ),
        lambda s: s.scope.get(contents),
    )
    unquoted = A("unquoted_string")

    def unquoted_run(s: _State) -> Any:
        s.skip_ws()
        cursor = s.pos
        while s.pos < len(s.s) and s.s[s.pos] in (
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-.+"
        ):
            s.pos += 1
        if s.pos == cursor:
            s.store(cursor, "snbt.parser.expected_unquoted_string")
            return None
        return s.s[cursor : s.pos]

    rule("unquoted_string").run = unquoted_run
    literal = A("literal")
    arguments = A("arguments")
    r_literal = rule("literal")
    rule("arguments").run = wrapped(
        repeated_sep(r_literal, arguments, chars(",")), lambda s: s.scope.get(arguments)
    )

    def builtin_action(s: _State) -> Any:
        text = s.scope.get(unquoted)
        if text and text[0] not in "+-.0123456789":
            args = s.scope.get(arguments)
            if args is not None:
                if text == "bool" and len(args) == 1:
                    arg = args[0]
                    if isinstance(arg, int | float) and not isinstance(arg, String):
                        if isinstance(arg, float):
                            v = float(arg)
                            n = 0 if v != v else max(-(2**31), min(2**31 - 1, int(v)))
                        else:
                            n = int(arg)
                        return Byte(1 if n & 0xFF else 0)
                    s.store(s.pos, "snbt.parser.expected_number_or_boolean")
                    return None
                if text == "uuid" and len(args) == 1:
                    ints = _java_uuid_ints(str(args[0])) if isinstance(args[0], String) else None
                    if ints is None:
                        s.store(s.pos, "snbt.parser.expected_string_uuid")
                        return None
                    return IntArray(ints)
                s.store(s.pos, "snbt.parser.no_such_operation", f"{text}/{len(args)}")
                return None
            if text.lower() == "true":
                return Byte(1)
            if text.lower() == "false":
                return Byte(0)
            return String(text)
        s.store(s.pos, "snbt.parser.invalid_unquoted_start")
        return None

    rule("unquoted_string_or_builtin").run = wrapped(
        seq(
            ref(rule("unquoted_string"), unquoted),
            opt(seq(chars("("), ref(rule("arguments"), arguments), chars(")"))),
        ),
        builtin_action,
    )
    map_key, entries = A("map_key"), A("map_entries")
    rule("map_key").run = wrapped(
        alt(ref(rule("quoted_string_literal"), quoted), ref(rule("unquoted_string"), unquoted)),
        lambda s: s.scope.get(quoted, unquoted),
    )

    def entry_action(s: _State) -> Any:
        key = s.scope.get(map_key)
        if key == "":
            s.store(s.pos, "snbt.parser.empty_key")
            return None
        return (key, s.scope.get(literal))

    rule("map_entry").run = wrapped(
        seq(ref(rule("map_key"), map_key), chars(":"), ref(r_literal, literal)), entry_action
    )
    rule("map_entries").run = wrapped(
        repeated_sep(rule("map_entry"), entries, chars(",")), lambda s: s.scope.get(entries)
    )

    def map_action(s: _State) -> Any:
        out = Compound()
        for k, v in s.scope.get(entries):
            out[k] = v
        return out

    mapl = A("map_literal")
    rule("map_literal").run = wrapped(
        seq(chars("{"), ref(rule("map_entries"), entries), chars("}")), map_action
    )
    list_entries, prefix, int_entries = A("list_entries"), A("array_prefix"), A("int_entries")
    rule("list_entries").run = wrapped(
        repeated_sep(r_literal, list_entries, chars(",")), lambda s: s.scope.get(list_entries)
    )
    rule("array_prefix").run = wrapped(
        alt(*[seq(chars(c), marker(prefix, c)) for c in "BLI"]), lambda s: s.scope.get(prefix)
    )
    r_int = rule("integer_literal")
    rule("int_array_entries").run = wrapped(
        repeated_sep(r_int, int_entries, chars(",")), lambda s: s.scope.get(int_entries)
    )

    def create_int(s: _State, lit: Any, kind: str) -> Any:
        sg, radix, digits, (signed, _) = lit
        signed = signed or ("signed" if radix == 10 else "unsigned")
        if signed == "unsigned" and sg == "-":
            s.store(s.pos, "snbt.parser.expected_non_negative_number")
            return None
        text = ("-" if sg == "-" else "") + digits.replace("_", "")
        try:
            if signed == "signed":
                if kind in "BS":
                    return _java_parse_narrow(text, radix, kind)
                return _java_parse_signed(text, radix, 32 if kind == "I" else 64)
            return _java_parse_unsigned(text, radix, kind)
        except _NumberFormatError as exc:
            s.store(s.pos, "snbt.parser.number_parse_failure", exc.args[0])
            return None

    def list_action(s: _State) -> Any:
        kind = s.scope.get(prefix)
        if kind is not None:
            lits = s.scope.get(int_entries)
            default, allowed, array_type = _ARRAY_TYPES[kind]
            values = []
            for lit in lits:
                t = lit[3][1]
                if t is not None and t not in allowed:
                    s.store(s.pos, "snbt.parser.invalid_array_element_type")
                    return None
                v = create_int(s, lit, t or default)
                if v is None:
                    return None
                values.append(v)
            return array_type(values)
        return make_list(s.scope.get(list_entries))

    listl = A("list_literal")
    rule("list_literal").run = wrapped(
        seq(
            chars("["),
            alt(
                seq(
                    ref(rule("array_prefix"), prefix),
                    chars(";"),
                    ref(rule("int_array_entries"), int_entries),
                ),
                ref(rule("list_entries"), list_entries),
            ),
            chars("]"),
        ),
        list_action,
    )
    integer = A("integer_literal")

    def literal_action(s: _State) -> Any:
        text = s.scope.get(quoted)
        if text is not None:
            return String(text)
        lit = s.scope.get(integer)
        if lit is not None:
            kind = lit[3][1] or "I"
            v = create_int(s, lit, kind)
            if v is None:
                return None
            return {"B": Byte, "S": Short, "I": Int, "L": Long}[kind](v)
        return s.scope.get(literal)

    r_literal.run = wrapped(
        alt(
            seq(
                lookahead("+-.0123456789"),
                alt(ref(rule("float_literal"), literal), ref(r_int, integer)),
            ),
            seq(lookahead("\"'"), cut(), ref(rule("quoted_string_literal"), quoted)),
            seq(lookahead("{"), cut(), ref(rule("map_literal"), literal)),
            seq(lookahead("["), cut(), ref(rule("list_literal"), literal)),
            ref(rule("unquoted_string_or_builtin"), literal),
        ),
        literal_action,
    )
    del mapl, listl
    return r_literal


_TOP = _build()


def oracle_parse(text: str, cursor: int = 0) -> tuple[bool, Any, int]:
    """(True, value, end cursor) on success, else (False, error message, error cursor)."""
    state = _State(text, cursor)
    value = state.parse(_TOP)
    if value is not None:
        return True, value, state.pos
    key, args = state.entries[0]
    return False, tr(key, *args), state.last_cursor
