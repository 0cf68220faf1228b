"""help [<command>] (HelpCommand) and, from 1.21.5, the shape of the `test` command.

`help` prints Brigadier's smart usage of the sandbox's own tree, which holds only the commands
the sandbox has; `test` is registered only as far as `help test` needs: its tree, with every
form answering `command.failed`. docs/server-behaviour.md, "Versions: help".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..arguments import parse_identifier
from ..profile import current_profile
from ..reader import CommandSyntaxError, StringReader
from ..registry import tr
from . import Ctx, Node, Source, arg, lit, parse, smart_usage

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["register"]


def _greedy(reader: StringReader) -> str:
    """StringArgumentType.greedyString(): the rest of the command."""
    text = reader.remaining
    reader.cursor = len(reader.string)
    return text


def _help(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        lines = smart_usage(game.root, game.root)
        for line in lines:
            game.send("/" + line)
        return len(lines)

    return run


def _help_command(game: Game) -> Callable[[Ctx, Source], int]:
    def run(ctx: Ctx, source: Source) -> int:
        """Parse the text; the usage of the last node parsed, each line after `/<text> `."""
        text: str = ctx["command"]
        parsed = parse(game.root, text)
        if not parsed.ctx.nodes:
            raise CommandSyntaxError(tr("commands.help.failed"))
        lines = smart_usage(game.root, parsed.ctx.nodes[-1])
        for line in lines:
            game.send(f"/{text} {line}")
        return len(lines)

    return run


# -- test: the tree of gametest/framework/TestCommand.register (dill-lk/Minecraft, 26.1) --------


def _not_modelled(ctx: Ctx, source: Source) -> int:
    raise CommandSyntaxError(tr("command.failed"))


def _int(reader: StringReader) -> int:
    return reader.read_int()


def _bool(reader: StringReader) -> bool:
    """BoolArgumentType.bool(): `true` or `false`."""
    start = reader.cursor
    word = reader.read_unquoted_string()
    if word not in ("true", "false"):
        reader.cursor = start
        raise reader.error(tr("parsing.bool.invalid", word))
    return word == "true"


def _word(reader: StringReader) -> str:
    return reader.read_unquoted_string()


def _selector(reader: StringReader) -> str:
    """ResourceSelectorArgument: a pattern of ids (read up to the next space; not checked)."""
    start = reader.cursor
    while reader.can_read() and reader.peek() != " ":
        reader.skip()
    return reader.string[start : reader.cursor]


def _retries(node: Node, build_info: bool) -> Node:
    """runWithRetryOptions (and AndBuildInfo: rotationSteps, testsPerRow)."""
    until = arg("untilFailed", _bool, run=_not_modelled)
    if build_info:
        until.then(
            arg(
                "rotationSteps",
                _int,
                arg("testsPerRow", _int, run=_not_modelled),
                run=_not_modelled,
            )
        )
    node.command = _not_modelled
    return node.then(arg("numberOfTimes", _int, until, run=_not_modelled))


def _test_tree() -> Node:
    run = lit("run", _retries(arg("tests", _selector), True))
    multiple = lit(
        "runmultiple",
        arg("tests", _selector, arg("amount", _int, run=_not_modelled), run=_not_modelled),
    )
    failed = _retries(lit("runfailed", _retries(arg("onlyRequiredTests", _bool), True)), True)
    create = lit(
        "create",
        arg(
            "id",
            parse_identifier,
            arg(
                "width",
                _int,
                arg("height", _int, arg("depth", _int, run=_not_modelled)),
                run=_not_modelled,
            ),
            run=_not_modelled,
        ),
    )
    return lit(
        "test",
        run,
        multiple,
        _retries(lit("runthese"), False),
        _retries(lit("runclosest"), False),
        _retries(lit("runthat"), False),
        failed,
        lit("verify", arg("tests", _selector, run=_not_modelled)),
        lit("locate", arg("tests", _selector, run=_not_modelled)),
        *(lit(name, run=_not_modelled) for name in ("resetclosest", "resetthese", "resetthat")),
        *(lit(name, run=_not_modelled) for name in ("clearthat", "clearthese")),
        lit("clearall", arg("radius", _int, run=_not_modelled), run=_not_modelled),
        lit("stop", run=_not_modelled),
        lit("pos", arg("var", _word, run=_not_modelled), run=_not_modelled),
        create,
    )


def register(root: Node, game: Game) -> None:
    """Add help, and test from 1.21.5."""
    root.then(lit("help", arg("command", _greedy, run=_help_command(game)), run=_help(game)))
    if current_profile().test_command:
        root.then(_test_tree())
