"""A small Brigadier: literal/argument nodes, redirects and forks, parse results and execution.

Parsing mirrors ``CommandDispatcher.parseNodes`` / ``getRelevantNodes`` and vanilla's
``Commands.getParseException`` so that parse errors carry vanilla's message and cursor
(docs/server-behaviour.md, "Parse errors"). Execution mirrors 26.1's ``BuildContexts``: redirect
modifiers fan the source out, forked chains (``execute as/at/if ...``) swallow command errors
("Errors while running"). Function calls and ``return`` follow the frames of 26.1's
``ExecutionContext`` (docs/sandbox-datapacks.md §4a): ``Custom`` commands (``function``,
``return``) steer execution instead of producing a result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..entities import Entity
from ..reader import CommandSyntaxError, StringReader
from ..registry import tr

if TYPE_CHECKING:
    from ..game import Game

__all__ = [
    "Control",
    "Ctx",
    "Custom",
    "Frame",
    "Node",
    "ParseResult",
    "Source",
    "arg",
    "flatten",
    "get_parse_exception",
    "ignore_result",
    "lit",
    "parse",
    "return_run",
    "run_chain",
    "smart_usage",
]


@dataclass(frozen=True)
class Source:
    """CommandSourceStack: who runs the command and where."""

    entity: Entity | None
    pos: tuple[float, float, float]
    rot: tuple[float, float]  # (yaw, pitch)
    dimension: str
    callbacks: tuple[Callable[[bool, int], None], ...] = ()
    silent: bool = False  # withSuppressedOutput: a function's source
    anchor: str = "feet"  # EntityAnchorArgument.Anchor: `feet` or `eyes` (`execute anchored`)

    @property
    def anchor_pos(self) -> tuple[float, float, float]:
        """Anchor.apply(source): the position, raised by the entity's eye height when anchored
        at the eyes; the position itself without an entity."""
        if self.anchor != "eyes" or self.entity is None:
            return self.pos
        x, y, z = self.pos
        return (x, y + self.entity.eye_height, z)

    def copy_with(self, **changes: Any) -> Source:
        """dataclasses.replace(self, **changes) without its checks (fields by name only): a
        command forks one source per entity, so this runs once per entity."""
        copied: Source = object.__new__(Source)
        fields = copied.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        return copied

    def with_entity(self, e: Entity) -> Source:
        """source.withEntity(e)."""
        return self.copy_with(entity=e)

    def at(self, e: Entity) -> Source:
        """Position, rotation and level of an entity (`execute at`)."""
        return self.copy_with(pos=e.pos, rot=e.rotation, dimension=e.dimension)


Command = Callable[["Ctx", Source], int]
Modifier = Callable[["Ctx", Source], list[Source]]
ResultCallback = Callable[[bool, int], None]


def ignore_result(success: bool, result: int) -> None:
    """CommandResultCallback.EMPTY."""


class Frame:
    """Frame: a call's depth, where its return value goes, and the depth `return` discards.

    ``control`` is the FrameControl: a function called by ``return run function`` shares its
    caller's, so its ``return`` ends the caller too. ``epoch`` counts discards: work queued in
    this frame before a discard is dropped (ExecutionContext.discardAtDepthOrHigher).
    """

    def __init__(self, depth: int, on_return: ResultCallback, control: int) -> None:
        self.depth = depth
        self.on_return = on_return
        self.control = control
        self.epoch = 0


def discard(game: Game, depth: int) -> None:
    """FrameControl.discard: drop the queued work of every frame at `depth` or deeper."""
    for frame in game.frames:
        if frame.depth >= depth:
            frame.epoch += 1


class Control:
    """ExecutionControl: the current frame, the chain's modifiers, and the work queued next.

    Queued work runs once every source of the custom command has run (queueNext), unless a
    `return` discarded the frame meanwhile.
    """

    def __init__(self, game: Game, frame: Frame, returning: bool, forked: bool) -> None:
        self.game = game
        self.frame = frame
        self.returning = returning  # ChainModifiers.isReturn: inside `return run`
        self.forked = forked
        self._queued: list[tuple[int, Callable[[], None]]] = []

    def queue(self, task: Callable[[], None]) -> None:
        """ExecutionControl.queueNext."""
        self._queued.append((self.frame.epoch, task))

    def discard(self) -> None:
        """The current frame's FrameControl.discard."""
        discard(self.game, self.frame.control)

    def fallthrough(self) -> None:
        """FallthroughTask: `return run` that ran nothing returns failure."""
        self.frame.on_return(False, 0)
        self.discard()

    def flush(self) -> None:
        """Run the queued work whose frame was not discarded since it was queued."""
        for epoch, task in self._queued:
            if self.frame.epoch == epoch:
                task()
        self._queued.clear()


class Custom:
    """CustomCommandExecutor: a command that drives execution (`function`, `return`)."""

    def __init__(self, run: Callable[[Ctx, Source, Control], None]) -> None:
        self.run = run


def return_run(ctx: Ctx, source: Source) -> list[Source]:
    """The `return run` modifier; run_chain handles it as ReturnFromCommandCustomModifier."""
    return [source]


class Node:
    """A command tree node: a literal when `parser` is None, else an argument."""

    def __init__(
        self,
        name: str,
        parser: Callable[[StringReader], Any] | None = None,
        label: str | None = None,
    ) -> None:
        self.name = name
        self.parser = parser
        self.label = label or name  # the argument's name in vanilla, when `name` differs
        self.children: dict[str, Node] = {}
        self.command: Command | Custom | None = None
        self.redirect: Node | None = None
        self.modifier: Modifier | None = None
        self.fork = False

    @property
    def is_literal(self) -> bool:
        """Whether this is a literal node."""
        return self.parser is None

    @property
    def usage_text(self) -> str:
        """CommandNode.getUsageText: a literal's name, `<name>` for an argument."""
        return self.name if self.is_literal else f"<{self.label}>"

    def then(self, *nodes: Node) -> Node:
        """Add children (later ones with the same name replace earlier ones)."""
        for n in nodes:
            self.children[n.name] = n
        return self

    def executes(self, command: Command | Custom) -> Node:
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


def lit(name: str, *children: Node, run: Command | Custom | None = None) -> Node:
    """A literal node."""
    node = Node(name).then(*children)
    node.command = run
    return node


def arg(
    name: str,
    parser: Callable[[StringReader], Any],
    *children: Node,
    run: Command | Custom | None = None,
    label: str | None = None,
) -> Node:
    """An argument node (`label`: its name in vanilla when `name` differs)."""
    node = Node(name, parser, label).then(*children)
    node.command = run
    return node


@dataclass
class Ctx:
    """CommandContextBuilder: parsed arguments, the nodes' ranges, the command and a child."""

    input: str
    start: int
    args: dict[str, Any] = field(default_factory=dict)
    ranges: list[tuple[int, int]] = field(default_factory=list)
    command: Command | Custom | None = None
    modifier: Modifier | None = None
    forks: bool = False
    child: Ctx | None = None
    nodes: list[Node] = field(default_factory=list)  # the nodes parsed, one per range

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
            list(self.nodes),
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
    ctx.nodes.append(child)
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


def smart_usage(root: Node, node: Node) -> list[str]:
    """CommandDispatcher.getSmartUsage(node): one usage line per child, in the children's order
    (every node is usable by the Rcon source). docs/server-behaviour.md, "Versions: help"."""
    optional = node.command is not None
    lines = []
    for child in node.children.values():
        lines.append(_child_usage(root, child, optional, False))
    return lines


def _child_usage(root: Node, node: Node, optional: bool, deep: bool) -> str:
    own = f"[{node.usage_text}]" if optional else node.usage_text
    child_optional = node.command is not None
    opening, closing = ("[", "]") if child_optional else ("(", ")")
    if deep:
        return own
    if node.redirect is not None:
        target = "..." if node.redirect is root else "-> " + node.redirect.usage_text
        return f"{own} {target}"
    children = list(node.children.values())
    if len(children) == 1:
        return f"{own} {_child_usage(root, children[0], child_optional, child_optional)}"
    if len(children) > 1:
        shown = dict.fromkeys(_child_usage(root, c, child_optional, True) for c in children)
        if len(shown) == 1:
            (only,) = shown
            return f"{own} {f'[{only}]' if child_optional else only}"
        names = "|".join(c.usage_text for c in children)
        return f"{own} {opening}{names}{closing}"
    return own


def flatten(ctx: Ctx) -> list[Ctx] | None:
    """ContextChain.tryFlatten: the chain of contexts, or None without a final command."""
    chain = [ctx]
    while chain[-1].child is not None:
        chain.append(chain[-1].child)
    if chain[-1].command is None:
        return None
    return chain


def run_chain(game: Game, chain: list[Ctx], source: Source) -> None:
    """Run a command in the current frame (a new top frame when none is running)."""
    if game.frames:
        _run_stages(game, chain, [source], game.frames[-1], False, False)
        return
    top = Frame(0, ignore_result, 0)
    game.frames.append(top)
    try:
        _run_stages(game, chain, [source], top, False, False)
    finally:
        game.frames.pop()


def _run_stages(
    game: Game,
    chain: list[Ctx],
    sources: list[Source],
    frame: Frame,
    returning: bool,
    forked: bool,
) -> None:
    """BuildContexts.execute + ExecuteCommand: modifiers, forks, errors, store callbacks, return."""
    for i, ctx in enumerate(chain[:-1]):
        if ctx.forks:
            forked = True
        if ctx.modifier is None:
            continue
        if ctx.modifier is return_run:
            # ReturnFromCommandCustomModifier: without sources nothing returns; else the rest
            # of the frame is discarded and the command after `run` returns its result
            if not sources:
                break
            discard(game, frame.control)
            _run_stages(game, chain[i + 1 :], sources, frame, True, forked)
            return
        nxt: list[Source] = []
        for s in sources:
            try:
                nxt.extend(ctx.modifier(ctx, s))
            except CommandSyntaxError as ex:
                if not forked:
                    game.send(ex.message)
                    return
        sources = nxt
        forks = int(game.world.rule("max_command_forks", 65536))
        if len(sources) > forks:
            game.send(tr("command.forkLimit", forks))
            return
    last = chain[-1]
    assert last.command is not None
    if not sources:
        if returning:
            Control(game, frame, returning, forked).fallthrough()
        return
    if isinstance(last.command, Custom):
        control = Control(game, frame, returning, forked)
        for s in sources:
            try:
                last.command.run(last, s, control)
            except CommandSyntaxError as ex:  # CustomCommandExecutor.WithErrorHandling
                if not forked:
                    game.send(ex.message)
                for cb in s.callbacks:
                    cb(False, 0)
        control.flush()
        return
    if returning:  # only the first source runs, and its result is the frame's return value
        first = sources[0]
        sources = [first.copy_with(callbacks=first.callbacks + (frame.on_return,))]
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
