"""A room built, repaired and diagnosed for an older release sends that release's forms only
(docs/server-behaviour.md, "Versions: what changes where"): a recording fake server answers in
the older wording, and the commands are compared with the same room's for the newest release."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from controller.config import parse_config
from controller.errors import RoomError
from controller.runtime.admin.doctor import Report, _check_gamerules
from controller.runtime.link import Link
from controller.runtime.paint.room import PaintRoom
from controller.runtime.pipes.room import PipesRoom
from controller.versions import NEWEST, Release, release

OLD = release("1.21.4")
_ENTITY_COUNT = re.compile(r"execute if entity @e\[type=minecraft:\w+,tag=pipes\.(\w+),tag=(\S+)\]")


class OldServer:
    """Records every command and answers the ones a build waits for in 1.21.4's wording
    (`Test passed, count: N`): chunks loaded, the room's frames all there."""

    def __init__(self, frames: int, preloads: int) -> None:
        self.sent: list[str] = []
        self.frames, self.preloads = frames, preloads

    def command(self, command: str, *, prefix: bool = False) -> str:
        self.sent.append(command)
        if command.startswith("execute if loaded "):
            return "Test passed"
        m = _ENTITY_COUNT.fullmatch(command)
        if m:
            n = {"pipes": self.frames, "pipes.preload": self.preloads}.get(m.group(2), 0)
            return f"Test passed, count: {n}" if n else "Test failed"
        if " run summon " in command or command.startswith("summon "):
            return "Summoned new Item Frame"
        if command.startswith("gamerule "):
            return f"Gamerule {command.split()[1]} is currently set to: 65536"
        return ""


def _config(kind: str = "pipes", **extra: Any) -> Any:
    world: dict[str, Any] = {"origin": [0, 64, 0], "size": [5, 5], "seed": 3, **extra}
    if kind == "paint":
        world["kind"] = "paint"
    return parse_config({"servers": {"main": {"password_env": "X"}}, "worlds": {"lobby": world}})


def _built(version: Release, tmp: Path, mode: str = "tree") -> tuple[PipesRoom, OldServer]:
    cfg = _config(mode=mode)
    room = PipesRoom("lobby", cfg.worlds["lobby"], tmp / version.name)
    server = OldServer(cfg.worlds["lobby"].width * cfg.worlds["lobby"].height, len(room.pictures))
    room.start(Link(server, "main", release=version))
    return room, server


def _as_newest(command: str) -> str:
    """A 1.21.4 command in the newest release's forms (the only changes a room may make)."""
    command = re.sub(r"CustomName:'\"([^\"']*)\"'", r'CustomName:"\1"', command)
    return re.sub(
        r"TileX:(-?\d+),TileY:(-?\d+),TileZ:(-?\d+),", r"block_pos:[I;\1,\2,\3],", command
    )


def _no_newer_form(commands: list[str]) -> None:
    assert commands
    assert not [c for c in commands if "block_pos" in c]
    assert not [c for c in commands if 'CustomName:"' in c]
    summons = [c for c in commands if "summon minecraft:" in c]
    assert summons and all("TileX:" in c for c in summons)


@pytest.mark.parametrize("mode", ["tree", "sink"])
def test_a_build_for_1_21_4_sends_its_forms_only(tmp_path: Path, mode: str) -> None:
    room, old = _built(OLD, tmp_path, mode)
    _, new = _built(NEWEST, tmp_path, mode)
    _no_newer_form(old.sent)
    named = [c for c in old.sent if "CustomName:'\"pipes:lobby:" in c]
    assert len(named) == room.board.size  # every tile frame named by the JSON form
    assert [_as_newest(c) for c in old.sent] == new.sent  # nothing else differs


def test_a_frame_repair_for_1_21_4_summons_in_its_forms(tmp_path: Path) -> None:
    room, server = _built(OLD, tmp_path)
    server.sent.clear()
    server.preloads = 0  # the hidden picture frames are gone too
    rep = room.guard.repair_frames(Link(server, "main", release=OLD))  # no frame answers its mark
    assert rep.summoned == room.board.size and rep.preloads_summoned == len(room.pictures)
    _no_newer_form(server.sent)


def test_a_paint_room_for_1_21_4_summons_in_its_forms(tmp_path: Path) -> None:
    cfg = _config("paint")
    room = PaintRoom("lobby", cfg.worlds["lobby"], tmp_path)
    server = OldServer(len(room.brushes), 0)
    room.start(Link(server, "main", release=OLD))
    _no_newer_form(server.sent)
    assert len([c for c in server.sent if "summon minecraft:" in c]) == len(room.brushes)


def test_doctor_asks_for_the_gamerules_by_the_releases_names(tmp_path: Path) -> None:
    cfg = _config()
    room = PipesRoom("lobby", cfg.worlds["lobby"], tmp_path)
    for version, names in (
        (OLD, ["commandModificationBlockLimit", "maxCommandForkCount", "sendCommandFeedback"]),
        (NEWEST, ["max_block_modifications", "max_command_forks", "send_command_feedback"]),
    ):
        server = OldServer(0, 0)
        report = Report("lobby", "main")
        _check_gamerules(report, room, Link(server, "main", release=version), None)
        assert server.sent == [f"gamerule {n}" for n in names]
        assert [c.name for c in report.checks] == names
        assert all(c.status != "skip" for c in report.checks)


class NeverLoaded(OldServer):
    def command(self, command: str, *, prefix: bool = False) -> str:
        return "Test failed" if command.startswith("execute if loaded ") else ""


@pytest.mark.parametrize(("name", "pauses"), [("1.21.1", False), ("1.21.2", True), ("26.2", True)])
def test_chunks_that_never_load_are_explained_for_the_release(
    tmp_path: Path, name: str, pauses: bool
) -> None:
    room = PipesRoom("lobby", _config().worlds["lobby"], tmp_path)
    with pytest.raises(RoomError) as err:
        room.wait_loaded(Link(NeverLoaded(0, 0), "main", release=release(name)), timeout=0)
    assert ("pause-when-empty-seconds" in str(err.value)) is pauses


@pytest.mark.parametrize("level", ["easy", "hard", "expert"])
def test_a_room_generates_its_puzzles_at_its_difficulty(level: str, tmp_path: Path) -> None:
    from controller.puzzle.generators import GeneratorParams, generate

    room = PipesRoom("lobby", _config(size=[7, 7], difficulty=level).worlds["lobby"], tmp_path)
    board = room.new_board(1)
    want = generate(7, 7, seed=3, params=GeneratorParams(difficulty=level))
    assert board.meta.get("difficulty") == level
    assert (board.shapes, board.rotations) == (want.shapes, want.rotations)
