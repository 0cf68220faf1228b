"""Start-up cost of the CLI, asserted portably: which modules a command loads (not how long it
takes: the figures are in docs/benchmarks.md, "Start-up", from ``bench/startup.py``)."""

from __future__ import annotations

from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

import controller.cli.puzzle
from controller.cli import app
from controller.cli.lazy import LAZY_GROUPS, RootGroup, install_plain_checks
from tests.support.imports import modules_after

runner = CliRunner()

NEVER_FOR_HELP = [
    "rich",
    "yaml",
    "pydantic",
    "numpy",
    "PIL",
    "nbtlib",
    "mcrcon",
    "controller.config",
    "controller.runtime",
    "controller.sandbox",
    "controller.rcon",
    "controller.maps",
    "controller.cli.puzzle",
    "controller.puzzle.generators",
    "controller.puzzle.solver",
]
NEVER_FOR_PUZZLES = [
    "yaml",
    "pydantic",
    "numpy",
    "PIL",
    "nbtlib",
    "mcrcon",
    "controller.config",
    "controller.runtime",
    "controller.sandbox",
    "controller.rcon",
    "controller.maps",
    "controller.world.commands",
]


def loaded_by(*argv: str, among: list[str]) -> list[str]:
    """The modules of ``among`` that running ``pipesctl argv`` in a fresh interpreter loads."""
    body = (
        f"sys.argv = ['pipesctl', *{list(argv)!r}]\n"
        "from controller.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    return modules_after(body, among)


def test_help_loads_no_heavy_library_and_no_engine() -> None:
    assert loaded_by("--help", among=NEVER_FOR_HELP) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["start", "--help"],
        ["status", "--help"],
        ["maps", "install", "--help"],
        ["puzzle", "--help"],
    ],
)
def test_a_command_help_loads_no_heavy_library(argv: list[str]) -> None:
    heavy = [m for m in NEVER_FOR_HELP if not m.startswith("controller.")]
    assert loaded_by(*argv, among=heavy + ["controller.runtime", "controller.config"]) == []


def test_a_puzzle_loads_neither_the_runtime_nor_pydantic() -> None:
    assert loaded_by("puzzle", "new", "--size", "3x3", among=NEVER_FOR_PUZZLES) == []
    # Piped, the grid is plain text: rich is not even imported.
    assert loaded_by("puzzle", "new", "--size", "3x3", among=["rich"]) == []
    json_only = [*NEVER_FOR_PUZZLES, "rich"]
    assert loaded_by("puzzle", "new", "--size", "3x3", "--json", among=json_only) == []


def test_typer_still_has_the_hook_for_plain_checks() -> None:
    assert install_plain_checks()  # idempotent; False would mean typer changed its internals


def _root() -> RootGroup:
    group = typer.main.get_command(app)
    assert isinstance(group, RootGroup)
    return group


def test_the_root_help_lists_each_command_as_it_is_built() -> None:
    root = _root()
    ctx = root.make_context("pipesctl", ["--version"], resilient_parsing=True)
    names = root.list_commands(ctx)
    assert {"start", "status", "doctor", "install", "puzzle", "maps", "sandbox"} <= set(names)
    for name in names:
        listed = root._listed(name, root.entries[name])
        built = root.get_command(ctx, name)
        assert built is not None and built.name == name
        assert listed.get_short_help_str(60) == built.get_short_help_str(60), name
        assert listed.hidden == built.hidden


def test_a_lazy_group_is_listed_by_its_own_help() -> None:
    assert LAZY_GROUPS["puzzle"] == ("controller.cli.puzzle", controller.cli.puzzle.app.info.help)


def test_root_help_shows_every_command_in_registration_order() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.output.split("Commands:")[1].splitlines() if line]
    assert listed[:3] == ["start", "demo", "init"]
    assert listed[-2:] == ["puzzle", "maps"]


def test_an_unknown_command_is_still_a_usage_error() -> None:
    result = runner.invoke(app, ["puzz"])
    assert result.exit_code == 2
    assert "No such command 'puzz'" in result.output


@pytest.fixture
def checked_app() -> typer.Typer:
    """A small app with text, flag and number options, all checked through the hook."""
    small = typer.Typer(add_completion=False)

    @small.command()
    def show(
        word: Annotated[str, typer.Option()] = "plain",
        count: Annotated[int, typer.Option()] = 1,
        loud: Annotated[bool, typer.Option("--loud/--quiet")] = False,
    ) -> None:
        typer.echo(f"{word!r} {count!r} {loud!r}")

    install_plain_checks()
    return small


def test_plain_checks_keep_text_and_flags_and_leave_numbers_to_typer(
    checked_app: typer.Typer,
) -> None:
    assert runner.invoke(checked_app, []).output.strip() == "'plain' 1 False"
    given = runner.invoke(checked_app, ["--word", "  x y ", "--count", "07", "--loud"])
    assert given.output.strip() == "'  x y ' 7 True"
    bad = runner.invoke(checked_app, ["--count", "seven"])
    assert bad.exit_code == 2
