"""The room interface: the daemon knows rooms only through it, and pipes rooms satisfy it."""

from __future__ import annotations

import ast
from pathlib import Path

import controller.runtime
from controller.config import parse_config
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.room import Room, make_room

RUNTIME = Path(controller.runtime.__file__).parent


def test_pipes_room_satisfies_the_room_interface(tmp_path: Path) -> None:
    cfg = parse_config(
        {"servers": {"main": {"password_env": "PW"}}, "worlds": {"lobby": {"origin": [0, 64, 0]}}}
    )
    room = make_room("lobby", cfg.worlds["lobby"], tmp_path)
    assert isinstance(room, PipesRoom) and isinstance(room, Room)
    assert room.status() is None and room.load() is False


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
