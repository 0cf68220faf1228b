"""A small Brigadier: literal/argument nodes, redirects and forks, parse results and execution.

Parsing mirrors ``CommandDispatcher.parseNodes`` / ``getRelevantNodes`` and vanilla's
``Commands.getParseException`` so that parse errors carry vanilla's message and cursor
(docs/server-behaviour.md, "Parse errors"). Execution mirrors 26.1's ``BuildContexts``: redirect
modifiers fan the source out, forked chains (``execute as/at/if ...``) swallow command errors
("Errors while running").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..entities import Entity
from ..reader import CommandSyntaxError, StringReader
from ..registry import tr

if TYPE_CHECKING:
    from ..game import Game

__all__ = [
    "Ctx",
    "Node",
    "ParseResult",
    "Source",
    "arg",
    "flatten",
    "get_parse_exception",
    "lit",
    "parse",
]


@dataclass(frozen=True)
class Source:
    """CommandSourceStack: who runs the command and where."""

    entity: Entity | None
    pos: tuple[float, float, float]
    rot: tuple[float, float]  # (yaw, pitch)
    dimension: str
    callbacks: tuple[Callable[[bool, int], None], ...] = ()

    def with_entity(self, e: Entity) -> Source:
        """source.withEntity(e)."""
        return replace(self, entity=e)

    def at(self, e: Entity) -> Source:
        """Position, rotation and level of an entity (`execute at`)."""
        return replace(self, pos=e.pos, rot=e.rotation, dimension=e.dimension)


Command = Callable[["Ctx", Source], int]
Modifier = Callable[["Ctx", Source], list[Source]]


class Node:
    """A command tree node: a literal when `parser` is None, else an argument."""

    def __init__(self, name: str, parser: Callable[[StringReader], Any] | None = None) -> None:
        self.name = name
        self.parser = parser
        self.children: dict[str, Node] = {}
        self.command: Command | None = None
        self.redirect: Node | None = None
        self.modifier: Modifier | None = None
        self.fork = False

    @property
    def is_literal(self) -> bool:
        """Whether this is a literal node."""
        return self.parser is None

    def then(self, *nodes: Node) -> Node:
        """Add children (later ones with the same name replace earlier ones)."""
        for n in nodes:
            self.children[n.name] = n
        return self

    def executes(self, command: Command) -> Node:
        """Set the command run when parsing ends here."""
        self.command = command
        return self

    def redirects(self, target: Node, modifier: Modifier | None = None, fork: bool = False) -> Node:
        """Continue parsing at `target`; `modifier` maps each source to new sources."""
        self.redirect = target
        self.modifier = modifier
        self.fork = fork
        return self

    def relevant(self, reader: StringReader) -> list[Node]:
        """getRelevantNodes: the literal spelled at the cursor, else the argument children."""
        literals = [n for n in self.children.values() if n.is_literal]
        if literals:
            end = reader.string.find(" ", reader.cursor)
            text = reader.string[reader.cursor : end if end >= 0 else len(reader.string)]
            hit = self.children.get(text)
            if hit is not None and hit.is_literal:
                return [hit]
        return [n for n in self.children.values() if not n.is_literal]


def lit(name: str, *children: Node, run: Command | None = None) -> Node:
    """A literal node."""
    node = Node(name).then(*children)
    node.command = run
    return node


def arg(
    name: str, parser: Callable[[StringReader], Any], *children: Node, run: Command | None = None
) -> Node:
    """An argument node."""
    node = Node(name, parser).then(*children)
    node.command = run
    return node


@dataclass
class Ctx:
    """CommandContextBuilder: parsed arguments, the nodes' ranges, the command and a child."""

    input: str
    start: int
    args: dict[str, Any] = field(default_factory=dict)
    ranges: list[tuple[int, int]] = field(default_factory=list)
    command: Command | None = None
    modifier: Modifier | None = None
    forks: bool = False
    child: Ctx | None = None

    def copy(self) -> Ctx:
        """A shallow copy for trying a branch."""
        return Ctx(
            self.input,
            self.start,
            dict(self.args),
            list(self.ranges),
            self.command,
            self.modifier,
            self.forks,
            self.child,
        )

    def __getitem__(self, key: str) -> Any:
        return self.args[key]

    def get(self, key: str, default: Any = None) -> Any:
        """An argument or a default."""
        return self.args.get(key, default)

    def has(self, key: str) -> bool:
        """Whether an argument was given."""
        return key in self.args


@dataclass
class ParseResult:
    """ParseResults: the context, where the reader stopped, and per-node errors."""

    ctx: Ctx
    reader: StringReader
    errors: list[CommandSyntaxError]


def _parse_child(child: Node, reader: StringReader, ctx: Ctx) -> None:
    start = reader.cursor
    if child.parser is None:
        n = len(child.name)
        if reader.string.startswith(child.name, start) and (
            not reader.can_read(n + 1) or reader.peek(n) == " "
        ):
            reader.cursor += n
        else:
            raise reader.error(f"Expected literal {child.name}")
    else:
        try:
            value = child.parser(reader)
        except CommandSyntaxError:
            raise
        except Exception as exc:  # dispatcherParseException in Brigadier
            raise reader.error(f"Could not parse command: {exc}") from exc
        ctx.args[child.name] = value
    ctx.ranges.append((start, reader.cursor))
    ctx.modifier = child.modifier
    ctx.forks = child.fork


def _parse_nodes(node: Node, original: StringReader, ctx: Ctx) -> ParseResult:
    errors: list[CommandSyntaxError] = []
    potentials: list[ParseResult] = []
    cursor = original.cursor
    for child in node.relevant(original):
        c = ctx.copy()
        r = StringReader(original.string, cursor)
        try:
            _parse_child(child, r, c)
            if r.can_read() and r.peek() != " ":
                raise r.error(tr("command.expected.separator"))
        except CommandSyntaxError as ex:
            errors.append(ex)
            continue
        c.command = child.command
        if r.can_read(1 if child.redirect is not None else 2):
            r.skip()
            if child.redirect is not None:
                sub_ctx = Ctx(original.string, r.cursor)
                sub = _parse_nodes(child.redirect, r, sub_ctx)
                c.child = sub.ctx
                return ParseResult(c, sub.reader, sub.errors)
            potentials.append(_parse_nodes(child, r, c))
        else:
            potentials.append(ParseResult(c, r, []))
    if potentials:

        def rank(p: ParseResult) -> tuple[int, int]:
            return (1 if p.reader.can_read() else 0, 1 if p.errors else 0)

        potentials.sort(key=rank)  # stable, as Brigadier's comparator
        return potentials[0]
    return ParseResult(ctx, StringReader(original.string, cursor), errors)


def parse(root: Node, command: str) -> ParseResult:
    """CommandDispatcher.parse from the root."""
    return _parse_nodes(root, StringReader(command), Ctx(command, 0))


def get_parse_exception(result: ParseResult) -> CommandSyntaxError | None:
    """Commands.getParseException."""
    if not result.reader.can_read():
        return None
    if len(result.errors) == 1:
        return result.errors[0]
    if not result.ctx.ranges:
        return result.reader.error(tr("command.unknown.command"))
    return result.reader.error(tr("command.unknown.argument"))


def flatten(ctx: Ctx) -> list[Ctx] | None:
    """ContextChain.tryFlatten: the chain of contexts, or None without a final command."""
    chain = [ctx]
    while chain[-1].child is not None:
        chain.append(chain[-1].child)
    if chain[-1].command is None:
        return None
    return chain


def run_chain(game: Game, chain: list[Ctx], source: Source) -> None:
    """BuildContexts.execute + ExecuteCommand: modifiers, forks, error handling, store callbacks."""
    sources = [source]
    forked = False
    for ctx in chain[:-1]:
        if ctx.forks:
            forked = True
        if ctx.modifier is None:
            continue
        nxt: list[Source] = []
        for s in sources:
            try:
                nxt.extend(ctx.modifier(ctx, s))
            except CommandSyntaxError as ex:
                if not forked:
                    game.send(ex.message)
                    return
        sources = nxt
        if len(sources) > int(game.world.gamerules.get("max_command_forks", 65536)):
            game.send(tr("command.forkLimit", game.world.gamerules.get("max_command_forks")))
            return
    last = chain[-1]
    assert last.command is not None
    for s in sources:
        try:
            result = last.command(last, s)
        except CommandSyntaxError as ex:
            if not forked:
                game.send(ex.message)
            for cb in s.callbacks:
                cb(False, 0)
            continue
        for cb in s.callbacks:
            cb(True, result)
