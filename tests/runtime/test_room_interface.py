"""The room interface: the daemon knows rooms only through it, both room kinds satisfy it, and
the packages keep their layers: `make_room` is the one shared module that imports a kind, the
kinds import neither each other nor the admin side, and nothing below the admin side imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import controller.runtime
from controller.config import parse_config
from controller.runtime.paint.room import PaintRoom
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.room import Room, make_room
from tests.support.imports import static_imports

RUNTIME = Path(controller.runtime.__file__).parent
KINDS = ("pipes", "paint")
ADMIN = "controller.runtime.admin"


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def kinds_imported(source: str, *, typing_too: bool = False) -> set[str]:
    """The room kinds whose runtime package the source imports."""
    imported = static_imports(source, typing_too=typing_too)
    return {k for k in KINDS if any(_within(m, f"controller.runtime.{k}") for m in imported)}


def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_pipes_room_satisfies_the_room_interface(tmp_path: Path) -> None:
    cfg = parse_config(
        {"servers": {"main": {"password_env": "PW"}}, "worlds": {"lobby": {"origin": [0, 64, 0]}}}
    )
    room = make_room("lobby", cfg.worlds["lobby"], tmp_path)
    assert isinstance(room, PipesRoom) and isinstance(room, Room)
    assert room.status() is None and room.load() is False


def test_paint_room_satisfies_the_room_interface(tmp_path: Path) -> None:
    cfg = parse_config(
        {
            "servers": {"main": {"password_env": "PW"}},
            "worlds": {"art": {"origin": [0, 64, 0], "kind": "paint", "size": [5, 4]}},
        }
    )
    room = make_room("art", cfg.worlds["art"], tmp_path)
    assert isinstance(room, PaintRoom) and isinstance(room, Room)
    assert room.kind == "paint" and room.status() is None and room.load() is False


def test_the_daemon_never_names_a_room_kind() -> None:
    tree = ast.parse((RUNTIME / "daemon.py").read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {a.attr for a in ast.walk(tree) if isinstance(a, ast.Attribute)}
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert "PipesRoom" not in names | imported
    assert not any(
        isinstance(node, ast.ImportFrom) and node.module == "controller.runtime.pipes.room"
        for node in ast.walk(tree)
    )


def test_the_import_check_reads_kinds_and_type_checking_blocks() -> None:
    source = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from controller.runtime.paint.room import PaintRoom\n"
        "def f():\n    from controller.runtime.pipes import room\n"
        "import controller.runtime.pipes_like\n"
    )
    assert kinds_imported(source) == {"pipes"}
    assert kinds_imported(source, typing_too=True) == {"pipes", "paint"}


def test_make_room_is_the_one_shared_module_that_imports_a_kind() -> None:
    found = {p.name: kinds_imported(_source(p)) for p in sorted(RUNTIME.glob("*.py"))}
    assert {name: kinds for name, kinds in found.items() if kinds} == {"room.py": set(KINDS)}


@pytest.mark.parametrize("kind", KINDS)
def test_a_kind_imports_neither_another_kind_nor_the_admin_side(kind: str) -> None:
    modules = sorted((RUNTIME / kind).glob("*.py"))
    assert modules
    for path in modules:
        imported = static_imports(_source(path), typing_too=True)
        assert kinds_imported(_source(path), typing_too=True) <= {kind}, path.name
        assert not any(_within(m, ADMIN) for m in imported), path.name


def test_nothing_below_the_admin_side_imports_it() -> None:
    below = [
        p for p in sorted(RUNTIME.rglob("*.py")) if "admin" not in p.relative_to(RUNTIME).parts
    ]
    found = [
        str(p.relative_to(RUNTIME))
        for p in below
        if any(_within(m, ADMIN) for m in static_imports(_source(p), typing_too=True))
    ]
    assert below and found == []
