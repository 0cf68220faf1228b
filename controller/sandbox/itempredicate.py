"""ItemPredicateArgument of 26.1: the `<item predicate>` of `execute if items`.

The grammar is ComponentPredicateParser's (docs/server-behaviour.md, "Item predicates"):

    top          = type '[' cut conditions? ']'  |  type
    type         = <item id>  |  '#' cut <item tag>  |  '*'
    conditions   = alternatives (',' conditions)?      every condition must hold (AND)
    alternatives = term ('|' alternatives)?            one alternative is enough (OR)
    term         = test  |  '!' test                   `!` negates one test
    test         = <component> '=' cut <SNBT>  |  <predicate> '~' cut <SNBT>  |  <component>

Every terminal, identifier and SNBT value skips whitespace before it. Errors are collected like
the packrat parser's ErrorCollector.LongestOnly: the first error stored at the furthest cursor is
raised (Grammar.parseForCommands).

What the sandbox models (the tests pipesctl needs): an item id or `*`; `minecraft:map_id=<n>`
(the value is any SNBT number, read as a Java int the way Codec.INT reads it); the bare
`minecraft:map_id` (the stack has a map id: no item has one by default) and the bare
`minecraft:count` (always true); `!`, `|` and `,` over those. Everything else that parses is
refused after the parse with a sandbox error (unverified: vanilla would accept it): item tags,
`~` predicate tests, and tests of other components (their values need the component's codec and
an item's default components, which the sandbox does not have).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from nbtlib import tag as nbt

from controller.nbt import snbt
from controller.nbt.reader import JAVA_WHITESPACE

from .arguments import parse_identifier
from .reader import CommandSyntaxError, StringReader
from .registry import registry, tr

__all__ = ["ItemPredicate", "ItemTest", "parse_item_predicate", "unsupported_message"]

# A plain decimal int before a delimiter (the common `map_id=<n>`): read without the SNBT parser.
_PLAIN_INT = re.compile(r"-?(?:0|[1-9][0-9]*)(?=[\s|,\]]|$)")

_MAP_ID = "minecraft:map_id"
_COUNT = "minecraft:count"  # ItemPredicateArgument's pseudo component and pseudo predicate
# DataComponents registered without a persistent codec (DataComponentType.codec() is null):
# ComponentWrapper.create refuses them as unknown components.
_NO_CODEC = frozenset({"creative_slot_lock", "additional_trade_cost", "map_post_processing"})
# The DataComponentPredicate types (core/component/predicates/DataComponentPredicates.java).
_PREDICATE_TYPES = frozenset(
    {
        "attribute_modifiers",
        "bundle_contents",
        "container",
        "custom_data",
        "damage",
        "enchantments",
        "firework_explosion",
        "fireworks",
        "jukebox_playable",
        "potion_contents",
        "stored_enchantments",
        "trim",
        "villager/variant",
        "writable_book_content",
        "written_book_content",
    }
)


def unsupported_message(what: str) -> str:
    """The sandbox's refusal of an item predicate part it does not model."""
    return f"Sandbox: {what} in an item predicate is not modelled (unverified)"


@dataclass(frozen=True)
class ItemTest:
    """One test: `kind` is `map_id` (value None: the component is present) or `true`."""

    kind: str
    value: int | None = None
    negated: bool = False

    def matches(self, map_id: int | None) -> bool:
        """Whether a (non-empty) stack whose MapId is `map_id` (None: none) passes."""
        if self.kind == "true":
            result = True
        else:
            result = map_id is not None if self.value is None else map_id == self.value
        return result != self.negated


@dataclass(frozen=True)
class ItemPredicate:
    """An item id (None for `*`) and conditions: each a tuple of alternatives."""

    item: str | None
    conditions: tuple[tuple[ItemTest, ...], ...] = ()

    def count(self, stack: Any) -> int:
        """The stack's count when the predicate accepts it, else 0 (an empty slot adds 0)."""
        if stack is None or not len(stack):
            return 0
        if self.item is not None and _item_id(stack) != self.item:
            return 0
        map_id = _stack_map_id(stack) if self.conditions else None  # read once per stack
        for ids, others in self._grouped:
            if map_id not in ids and not any(t.matches(map_id) for t in others):
                return 0
        return int(dict.get(stack, "count", 1))

    @functools.cached_property
    def key(self) -> str:
        """A text naming the predicate: equal predicates have equal keys."""
        return repr((self.item, self.conditions))

    def count_held(self, holder: Any, slot: int, stack: Any) -> int:
        """`count(stack)` for the stack in `holder`'s `slot`, remembered on the holder while the
        slot holds that same stack object (a slot's stack is replaced, never edited in place:
        ItemFrame.setItem stores a copy), so a search over a room's frames tests each picture
        once."""
        memo = holder.__dict__.setdefault("_item_counts", {})
        key = (self.key, slot)
        known = memo.get(key)
        if known is not None and known[0] is stack:
            counted: int = known[1]
            return counted
        counted = self.count(stack)
        memo[key] = (stack, counted)
        return counted

    @functools.cached_property
    def _grouped(self) -> tuple[tuple[frozenset[int], tuple[ItemTest, ...]], ...]:
        """Each condition's alternatives as the map ids any of its plain `map_id=<n>` tests
        accepts, and its other tests (one long `|` list of map ids is one set lookup)."""
        grouped = []
        for alternatives in self.conditions:
            ids = frozenset(
                t.value
                for t in alternatives
                if t.kind == "map_id" and t.value is not None and not t.negated
            )
            others = tuple(
                t
                for t in alternatives
                if not (t.kind == "map_id" and t.value is not None and not t.negated)
            )
            grouped.append((ids, others))
        return tuple(grouped)


# Stacks are nbtlib Compounds (dicts); dict.get skips nbtlib's slower path-aware `get`.
def _item_id(stack: Any) -> str:
    ident = str(dict.get(stack, "id", ""))
    return ident if ":" in ident else "minecraft:" + ident


def _stack_map_id(stack: Any) -> int | None:
    """The stack's MapId: its `minecraft:map_id` component read with Codec.INT, or None.

    A non-numeric value would not have loaded in vanilla; the sandbox treats it as absent."""
    components = dict.get(stack, "components")
    if not isinstance(components, nbt.Compound):
        return None
    value = dict.get(components, _MAP_ID)
    if value is not None:
        return java_int_value(value)
    for key, value in components.items():
        name = key if ":" in key else "minecraft:" + key
        if name == _MAP_ID:
            return java_int_value(value)
    return None


def java_int_value(value: Any) -> int | None:
    """Codec.INT on an NBT tag: NbtOps.getNumberValue, then Number.intValue; None when the tag
    is not numeric ("Not a number")."""
    if isinstance(value, (nbt.Byte, nbt.Short, nbt.Int, nbt.Long)):
        v = int(value) & 0xFFFFFFFF
        return v - (1 << 32) if v >= 1 << 31 else v
    if isinstance(value, (nbt.Float, nbt.Double)):
        f = float(value)
        if math.isnan(f):
            return 0
        if f >= 2**31 - 1:
            return 2**31 - 1
        if f <= -(2**31):
            return -(2**31)
        return int(f)  # truncation towards zero, as a Java (int) cast
    return None


@dataclass(frozen=True)
class _Unsupported:
    """A test that parsed but that the sandbox does not evaluate."""

    what: str
    cursor: int


_Leaf = ItemTest | _Unsupported


class _Parser:
    """One parse of the grammar over the command string from a cursor."""

    def __init__(self, reader: StringReader) -> None:
        self.s = reader.string
        self.n = len(reader.string)
        self.pos = reader.cursor
        self.err_cursor = -1
        self.err: CommandSyntaxError | None = None

    # -- ErrorCollector.LongestOnly ---------------------------------------------------------
    def store(self, cursor: int, error: CommandSyntaxError) -> None:
        if cursor > self.err_cursor:
            self.err_cursor = cursor
            self.err = error

    def fail_at(self, cursor: int, message: str) -> CommandSyntaxError:
        return CommandSyntaxError(message, self.s, cursor)

    # -- terminals --------------------------------------------------------------------------
    def skip_ws(self) -> None:
        while self.pos < self.n and self.s[self.pos] in JAVA_WHITESPACE:
            self.pos += 1

    def char(self, c: str) -> bool:
        """StringReaderTerms.character: skip whitespace, then `c` (`Expected literal c`)."""
        self.skip_ws()
        if self.pos < self.n and self.s[self.pos] == c:
            self.pos += 1
            return True
        self.store(self.pos, self.fail_at(self.pos, tr("argument.literal.incorrect", c)))
        return False

    def identifier(self) -> str | None:
        """IdentifierParseRule: Identifier.readNonEmpty, or nothing (no error of its own)."""
        self.skip_ws()
        start = self.pos
        while self.pos < self.n and self.s[self.pos] in _ID_CHARS:
            self.pos += 1
        if self.pos == start:
            return None
        reader = StringReader(self.s, start)
        try:
            ident = parse_identifier(reader)
        except CommandSyntaxError:
            self.pos = start
            return None
        self.pos = reader.cursor
        return ident

    def resource(self, kind: str) -> tuple[str, str] | None:
        """ResourceLookupRule: an id (`Invalid ID` at its start), then validateElement."""
        self.skip_ws()
        mark = self.pos
        ident = self.identifier()
        if ident is None:
            self.store(mark, self.fail_at(mark, tr("argument.id.invalid")))
            return None
        looked_up = self.look_up(kind, ident)
        if isinstance(looked_up, str):  # the error message, with the context after the id
            self.store(mark, self.fail_at(self.pos, looked_up))
            return None
        return looked_up

    def look_up(self, kind: str, ident: str) -> tuple[str, str] | str:
        """ItemPredicateArgument.Context: (what, id), or the error message."""
        ns, _, path = ident.partition(":")
        vanilla = ns == "minecraft"
        reg = registry()
        if kind == "item":
            if vanilla and path in reg.items:
                return ("item", ident)
            return tr("argument.item.id.invalid", ident)
        if kind == "tag":
            return ("tag", ident)  # looked up in the item tags, which the sandbox lacks
        if kind == "component":
            if ident == _COUNT:
                return ("count", ident)
            if vanilla and path in reg.components and path not in _NO_CODEC:
                return ("component", ident)
            return tr("arguments.item.component.unknown", ident)
        # predicate: the pseudo count, a predicate type, else any component (existence)
        if ident == _COUNT:
            return ("count", ident)
        if vanilla and path in _PREDICATE_TYPES:
            return ("predicate", ident)
        if vanilla and path in reg.components:
            return ("exists", ident)
        return tr("arguments.item.predicate.unknown", ident)

    def snbt_value(self) -> Any:
        """TagParseRule: skip whitespace, then TagParser.parseAsArgument (its error at the mark)."""
        self.skip_ws()
        mark = self.pos
        plain = _PLAIN_INT.match(self.s, mark)
        if plain is not None and -(2**31) <= int(plain.group()) < 2**31:
            # a bare decimal int before a delimiter: what parse_tag reads, without its cost
            self.pos = plain.end()
            return nbt.Int(int(plain.group()))
        reader = StringReader(self.s, mark)
        try:
            value = snbt.parse_tag(reader)
        except CommandSyntaxError as exc:
            self.store(mark, exc)
            return None
        self.pos = reader.cursor
        return value

    # -- rules ------------------------------------------------------------------------------
    def top(self) -> tuple[tuple[str, str] | None, list[list[_Leaf]]] | None:
        mark = self.pos
        kind = self.type_()
        if kind is not None:
            if self.char("["):
                # cut: from here the bare `type` alternative is not tried
                inside = self.pos
                conditions = self.conditions()
                if conditions is None:
                    self.pos = inside
                    conditions = []
                if not self.char("]"):
                    return None
                return kind[0], conditions
        self.pos = mark
        kind = self.type_()
        return None if kind is None else (kind[0], [])

    def type_(self) -> tuple[tuple[str, str] | None] | None:
        """(the item or tag, or None for `*`) in a 1-tuple, or None when nothing matched."""
        mark = self.pos
        item = self.resource("item")
        if item is not None:
            return (item,)
        self.pos = mark
        if self.char("#"):
            tag = self.resource("tag")  # after the cut: no other alternative
            return None if tag is None else (tag,)
        self.pos = mark
        if self.char("*"):
            return (None,)
        self.pos = mark
        return None

    def conditions(self) -> list[list[_Leaf]] | None:
        first = self.alternatives()
        if first is None:
            return None
        out = [first]
        while True:
            mark = self.pos
            if self.char(","):
                more = self.alternatives()
                if more is not None:
                    out.append(more)
                    continue
            self.pos = mark
            return out

    def alternatives(self) -> list[_Leaf] | None:
        first = self.term()
        if first is None:
            return None
        out = [first]
        while True:
            mark = self.pos
            if self.char("|"):
                more = self.term()
                if more is not None:
                    out.append(more)
                    continue
            self.pos = mark
            return out

    def term(self) -> _Leaf | None:
        mark = self.pos
        leaf = self.test()
        if leaf is not None:
            return leaf
        self.pos = mark
        if self.char("!"):
            leaf = self.test()
            if leaf is not None:
                if isinstance(leaf, ItemTest):
                    return ItemTest(leaf.kind, leaf.value, not leaf.negated)
                return leaf
        self.pos = mark
        return None

    def test(self) -> _Leaf | None:
        self.skip_ws()
        mark = self.pos
        component = self.resource("component")
        if component is not None and self.char("="):
            value = self.snbt_value()  # after the cut: no other alternative
            if value is None:
                return None
            return self.component_test(component, value, mark)
        self.pos = mark
        predicate = self.resource("predicate")
        if predicate is not None and self.char("~"):
            value = self.snbt_value()
            if value is None:
                return None
            return _Unsupported(f"the predicate test '{predicate[1]}~…'", mark)
        self.pos = mark
        component = self.resource("component")
        if component is None:
            self.pos = mark
            return None
        what, ident = component
        if what == "count":
            return ItemTest("true")  # the pseudo component's presence check: itemStack -> true
        if ident == _MAP_ID:
            return ItemTest("map_id")
        return _Unsupported(f"the component test '{ident}'", mark)

    def component_test(self, component: tuple[str, str], value: Any, mark: int) -> _Leaf | None:
        """createComponentTest: decode the value with the component's codec."""
        what, ident = component
        if ident != _MAP_ID:
            return _Unsupported(f"the component test '{ident}=…'", mark)
        number = java_int_value(value)
        if number is None:  # ERROR_MALFORMED_COMPONENT, stored at the cursor after the value
            message = tr("arguments.item.component.malformed", ident, "Not a number")
            self.store(self.pos, self.fail_at(self.pos, message))
            return None
        return ItemTest("map_id", number)


_ID_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz_:/.-")


def _leaves(conditions: Iterable[list[_Leaf]]) -> Iterable[_Leaf]:
    for alternatives in conditions:
        yield from alternatives


def parse_item_predicate(reader: StringReader) -> ItemPredicate:
    """ItemPredicateArgument.parse: the predicate at the cursor; the cursor ends after it."""
    parser = _Parser(reader)
    result = parser.top()
    if result is None:
        assert parser.err is not None
        raise parser.err
    kind, conditions = result
    start = reader.cursor
    while start < len(reader.string) and reader.string[start] in JAVA_WHITESPACE:
        start += 1
    if kind is not None and kind[0] == "tag":
        raise CommandSyntaxError(
            unsupported_message(f"the item tag '#{kind[1]}'"), reader.string, start
        )
    for leaf in _leaves(conditions):
        if isinstance(leaf, _Unsupported):
            raise CommandSyntaxError(unsupported_message(leaf.what), reader.string, leaf.cursor)
    tests = tuple(
        tuple(leaf for leaf in alternatives if isinstance(leaf, ItemTest))
        for alternatives in conditions
    )
    reader.cursor = parser.pos
    return ItemPredicate(None if kind is None else kind[1], tests)
