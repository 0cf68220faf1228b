"""The root command group (groups imported on first use) and option checks without pydantic.

`pipesctl --help` lists every command by its help text, and a command's parameters are built only
when it runs; a group in ``LAZY_GROUPS`` is even imported only then (or for its own help),
because the `puzzle` group's engine costs more than the rest of the CLI together.

typer (0.2x) checks every option value with a pydantic ``TypeAdapter`` built on first use, and
importing pydantic for that is the largest single cost of a `pipesctl puzzle …` run. A plain
``str`` or ``bool`` parameter whose value already has that type comes out of that check
unchanged, so ``install_plain_checks`` answers those without pydantic and hands every other
parameter or value to typer's own check. It replaces typer's ``core.build_runtime_param``
(internal API); when typer has no such hook nothing is replaced and the CLI behaves the same,
only slower (``tests/cli/test_startup.py`` notices).
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer
import typer.core
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandInfo, TyperInfo

if TYPE_CHECKING:
    from typer._click import Command, Context, HelpFormatter  # typer's own copy of click

__all__ = ["LAZY_GROUPS", "RootGroup", "install_plain_checks"]

LAZY_GROUPS: dict[str, tuple[str, str]] = {
    "puzzle": (
        "controller.cli.puzzle",
        "Generate pipes puzzles, show their water flow and solve them.",
    ),
}
"""Groups imported on first use: name -> (module holding its typer ``app``, its help line)."""

_PLAIN = (str, bool)


def _is_plain(descriptor: Any) -> bool:
    """A bare ``str`` or ``bool`` parameter: no file, parser, click type or list around it."""
    info = getattr(descriptor, "parameter_info", None)
    return (
        getattr(descriptor, "annotation", None) in _PLAIN
        and getattr(descriptor, "file_annotation", None) is None
        and getattr(info, "parser", None) is None
        and getattr(info, "click_type", None) is None
    )


def install_plain_checks() -> bool:
    """Answer plain text and flag values without pydantic from now on; False if typer has no
    hook for it (then typer checks every value itself)."""
    original: Any = getattr(typer.core, "build_runtime_param", None)
    if original is None or getattr(original, "plain_checks", False):
        return original is not None
    try:
        from typer._coercion import RuntimeParam
    except ImportError:
        return False

    @dataclass(frozen=True)
    class PlainValue(RuntimeParam):
        """A value that already has the parameter's type is returned as it is."""

        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if type(value) is self.annotation:
                return value
            return original(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def build_runtime_param(descriptor: Any) -> Any:
        if _is_plain(descriptor):
            return PlainValue(
                parameter_info=descriptor.parameter_info,
                annotation=descriptor.annotation,
                descriptor=descriptor,
            )
        return original(descriptor)

    build_runtime_param.plain_checks = True  # type: ignore[attr-defined]
    typer.core.build_runtime_param = build_runtime_param  # type: ignore[attr-defined]
    return True


@dataclass(frozen=True)
class _LazyGroup:
    """A group whose module is imported when it runs: where its typer app is, its help line."""

    module: str
    help: str


Entry = CommandInfo | TyperInfo | _LazyGroup


class RootGroup(TyperGroup):
    """The root group: builds a command (and imports a lazy group) only when it runs.

    typer builds every command's parameters when the CLI starts; here ``defer`` takes the
    registered commands and groups off the app, ``pipesctl --help`` lists them by their help
    text alone, and ``get_command`` builds just the one that runs, with typer's own functions.
    """

    entries: dict[str, Entry] = {}
    pretty_exceptions_short = True
    listing = False

    @classmethod
    def defer(cls, app: typer.Typer) -> type[RootGroup]:
        """A root group class holding the app's commands and groups (and ``LAZY_GROUPS``,
        placed before ``maps``), which are taken off the app so typer does not build them."""
        entries: dict[str, Entry] = {}
        for command in app.registered_commands:
            assert command.callback is not None
            name = command.name or typer.main.get_command_name(command.callback.__name__)
            entries[name] = command
        for group in app.registered_groups:
            if group.name == "maps":
                entries.update({n: _LazyGroup(*where) for n, where in LAZY_GROUPS.items()})
            entries[str(group.name)] = group
        for name, where in LAZY_GROUPS.items():
            entries.setdefault(name, _LazyGroup(*where))
        app.registered_commands = []
        app.registered_groups = []
        bound: dict[str, Any] = {
            "entries": entries,
            "pretty_exceptions_short": app.pretty_exceptions_short,
        }
        return type(cls.__name__, (cls,), bound)

    def list_commands(self, ctx: Context) -> list[str]:
        """Every command and group, in the order they were registered."""
        return [*super().list_commands(ctx), *self.entries]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        """The command built now (a lazy group imported now); a help-only stand-in while the
        root help lists the commands."""
        entry = self.entries.get(cmd_name)
        if entry is None:
            return super().get_command(ctx, cmd_name)
        if self.listing:
            return self._listed(cmd_name, entry)
        if isinstance(entry, CommandInfo):
            return typer.main.get_command_from_info(
                entry,
                pretty_exceptions_short=self.pretty_exceptions_short,
                rich_markup_mode=self.rich_markup_mode,
            )
        group = entry
        if isinstance(group, _LazyGroup):
            group = TyperInfo(importlib.import_module(group.module).app, name=cmd_name)
        return typer.main.get_group_from_info(
            group,
            pretty_exceptions_short=self.pretty_exceptions_short,
            suggest_commands=self.suggest_commands,
            rich_markup_mode=self.rich_markup_mode,
        )

    @staticmethod
    def _listed(name: str, entry: Entry) -> Command:
        """A stand-in with the help text, short help and flags the real command will have."""
        if isinstance(entry, _LazyGroup):
            return TyperCommand(name=name, help=entry.help)
        if isinstance(entry, CommandInfo):
            text = entry.help
            return TyperCommand(
                name=name,
                help=inspect.getdoc(entry.callback) if text is None else inspect.cleandoc(text),
                short_help=entry.short_help,
                hidden=entry.hidden,
                deprecated=entry.deprecated,
            )
        solved = typer.main.solve_typer_info_defaults(entry)
        return TyperCommand(
            name=name,
            help=solved.help,
            short_help=solved.short_help,
            hidden=solved.hidden,
            deprecated=solved.deprecated,
        )

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The command list of ``pipesctl --help``, built from help texts alone."""
        self.listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self.listing = False
