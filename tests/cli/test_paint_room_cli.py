"""`status`, `show`, `hint`, `reset`, `repair` and `remove` for a paint room, through typer's
runner against the sandbox (without a daemon, and with one running the room)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from controller.cli import app
from controller.config import load_config
from controller.errors import ExitCode
from controller.puzzle.paint import Stroke, hint
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.paint.room import PaintRoom
from controller.runtime.paint.state import PaintState
from controller.sandbox import Sandbox

runner = CliRunner()


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Sandbox, Path]]:
    with Sandbox() as sb:
        cfg = tmp_path / "pipes.yaml"
        cfg.write_text(
            f"state_dir: {tmp_path / 'state'}\n"
            f"servers:\n  main: {{host: 127.0.0.1, port: {sb.port}, password_env: PIPES_PW}}\n"
            "worlds:\n  art:\n    kind: paint\n    origin: [0, 100, 0]\n    size: [5, 4]\n"
            "    seed: 11\n    audit_interval_s: 0\n"
            "    paint: {generator: strokes, par: 6}\n"
        )
        monkeypatch.setenv("PIPES_PW", sb.password)
        yield sb, cfg


def _build(cfg: Path) -> PaintRoom:
    daemon = Daemon(load_config(cfg), ["art"], connect=connect_server)
    daemon.start()
    room = daemon.rooms["art"]
    daemon.close()
    assert isinstance(room, PaintRoom)
    return room


def _state(cfg: Path) -> PaintState:
    state = PaintState.load(Path(load_config(cfg).state_dir) / "art.json")
    assert state is not None
    return state


def _invoke(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == ExitCode.OK, result.output
    return result.stdout


def test_status_show_and_hint_without_a_daemon(setup: tuple[Sandbox, Path], tmp_path: Path) -> None:
    sb, cfg = setup
    room = _build(cfg)
    x, y, z = room.geom.cell_pos(1, 2)
    sb.call(lambda g: g.execute(f"setblock {x} {y} {z} minecraft:blue_concrete"))  # tampered
    out = _invoke("show", "-w", "art", "-c", str(cfg))
    lines = out.splitlines()
    target = room.puzzle.target
    right = 20 - target.ones()  # the blank canvas, but for the tampered cell (target 0 there)
    assert target[1, 2] == 0
    assert lines[0] == f"art: cells {right - 1}/20  strokes 0 (par 6)  (canvas, then target)"
    assert lines[3] == "·█···  " + "".join("█" if target[i, 2] else "·" for i in range(5))
    assert lines[1].endswith("█···█") and len(lines) == 1 + 4
    png = tmp_path / "art.png"
    assert "wrote" in _invoke("show", "-w", "art", "-c", str(cfg), "--png", str(png))
    with Image.open(png) as image:
        assert image.size == (16 * 12, 16 * 4)

    result = runner.invoke(app, ["status", "-w", "art", "-c", str(cfg), "--json"])
    assert result.exit_code == ExitCode.ERROR  # no daemon runs it
    health = json.loads(result.stdout)["rooms"][0]
    assert (health["kind"], health["frames"], health["frames_expected"]) == ("paint", 10, 10)
    assert (health["cells_right"], health["total"], health["par"]) == (right, 20, 6)
    line = _invoke_status_line(cfg)
    assert f"cells {right}/20  strokes 0 (par 6)" in line

    sb.join("Alex", (2.5, 101, 2.5))
    first = hint(target, room.puzzle.blank())
    assert first is not None
    out = _invoke("hint", "-w", "art", "-c", str(cfg))
    word = "row" if first.axis == "row" else "column"
    assert out.strip() == f"art: hint sent: pull the brush of {word} {first.number + 1}"
    assert any("Hint: pull the glowing brush" in json.dumps(m) for m in sb.inbox("Alex"))
    # the tampered cell was repaired by the hint's resume
    assert sb.call(lambda g: g.block(x, y, z)) == "minecraft:white_concrete"


def _invoke_status_line(cfg: Path) -> str:
    result = runner.invoke(app, ["status", "-w", "art", "-c", str(cfg)])
    return result.stdout


def test_reset_repair_and_remove(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    room = _build(cfg)
    out = _invoke("reset", "-w", "art", "-c", str(cfg), "--yes", "--seed", "5")
    assert out.strip() == "art: new puzzle #2"
    state = _state(cfg)
    assert state.puzzle.seed == 5 and state.puzzle_number == 2
    x, y, z = room.geom.target_pos(0, 0)
    sb.call(lambda g: g.execute(f"setblock {x} {y} {z} minecraft:stone"))
    out = _invoke("repair", "-w", "art", "-c", str(cfg))
    assert "1 blocks fixed" in out
    out = _invoke("remove", "-w", "art", "-c", str(cfg), "--yes")
    assert out.startswith("art: removed; state archived to ")
    assert sb.call(lambda g: g.block(x, y, z)) == "minecraft:air"
    count = sb.call(lambda g: g.execute("execute if entity @e[tag=pipes.art]"))
    assert count == ["Test failed"]
    result = runner.invoke(app, ["repair", "-w", "art", "-c", str(cfg), "--from-world"])
    assert result.exit_code == ExitCode.ERROR and "no state file" in result.output


def test_commands_go_through_a_running_daemon(setup: tuple[Sandbox, Path]) -> None:
    sb, cfg = setup
    daemon = Daemon(load_config(cfg), ["art"], connect=connect_server)
    daemon.start()
    room = daemon.rooms["art"]
    assert isinstance(room, PaintRoom)
    stop = threading.Event()
    loop = threading.Thread(target=daemon.run, args=(stop,))
    loop.start()
    try:
        sb.join("Alex", (2.5, 101, 2.5))
        row = next(b for b in room.brushes if (b.axis, b.number) == ("row", 0))
        x, y, z = room.geom.frame_pos(row.i, row.j)
        sb.move("Alex", (x + 0.5, y + 1, z + 0.5))
        sb.use_entity("Alex", room.uuids[(row.i, row.j)])
        for _ in range(500):  # until the daemon's next poll has seen the click
            if room.current_state.moves:
                break
            time.sleep(0.01)
        out = _invoke("show", "-w", "art", "-c", str(cfg))
        assert out.splitlines()[1].startswith("█████  ")
        assert room.canvas == room.puzzle.blank().apply(Stroke.row(0))
        out = _invoke("hint", "-w", "art", "-c", str(cfg))
        assert out.startswith("hint: carried out by the running daemon")
        result = runner.invoke(app, ["status", "-w", "art", "-c", str(cfg), "--json"])
        assert result.exit_code == ExitCode.OK, result.output
        health = json.loads(result.stdout)["rooms"][0]
        assert health["healthy"] and health["moves"] == 1
    finally:
        stop.set()
        loop.join()
        daemon.close()


def test_the_live_view_and_text_show_canvas_beside_target(setup: tuple[Sandbox, Path]) -> None:
    from rich.console import Console

    from controller.cli.ui import canvas_text, room_panel
    from controller.puzzle.paint import Canvas

    canvas = Canvas.from_grid([[1, 0, 1], [0, 0, 0]])
    target = Canvas.from_grid([[1, 1, 1], [0, 0, 0]])
    text = canvas_text(canvas, target)
    assert text.plain == "█·█  ███\n···  ···\n"
    assert [s.style for s in text.spans if s.style] == ["bold red"]  # the one wrong cell
    assert canvas_text(canvas, target, width=4).plain == "█·█ \n··· \n"
    _, cfg = setup
    room = _build(cfg)
    console = Console(width=40, record=True)
    console.print(room_panel(room, room.current_state.started_at + 65, width=40))
    lines = console.export_text().rstrip("\n").splitlines()
    assert lines[0].startswith("art  #1  cells ") and "strokes 0  1:05" in lines[0]
    assert len(lines) == 1 + 4 and all(len(line) <= 40 for line in lines)


def test_an_impossible_walk_is_a_clear_error(
    setup: tuple[Sandbox, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import controller.runtime.paint.room as paint_room

    def no_walk(*args: object, **kwargs: object) -> object:
        raise ValueError("cells: no paintable walk of 20 cells in 10000 tries on 5x4")

    _, cfg = setup
    monkeypatch.setattr(paint_room, "generate", no_walk)
    result = runner.invoke(app, ["start", "-w", "art", "-c", str(cfg)])
    assert result.exit_code == ExitCode.ERROR
    assert "room art: worlds.art.paint.cells: no paintable walk of 20 cells" in result.output


def test_a_room_whose_placement_changed_is_refused_not_half_rebuilt(
    setup: tuple[Sandbox, Path],
) -> None:
    sb, cfg = setup
    room = _build(cfg)
    before = sb.call(lambda g: g.block(*room.geom.cell_pos(0, 0)))
    cfg.write_text(
        cfg.read_text().replace("{generator: strokes", "{orientation: wall, generator: strokes")
    )
    result = runner.invoke(app, ["repair", "-w", "art", "-c", str(cfg)])
    assert result.exit_code == ExitCode.ERROR
    assert "it was built as 5x4 at [0, 100, 0] in minecraft:overworld (floor, target above)" in (
        result.output
    )
    assert "pipesctl remove --world art" in result.output
    assert sb.call(lambda g: g.block(*room.geom.cell_pos(0, 0))) == before


def test_demo_shows_a_paint_room() -> None:
    import subprocess
    import sys

    argv = [sys.executable, "-m", "controller.cli", "demo", "--kind", "paint", "--size", "4"]
    proc = subprocess.run(
        [*argv, "--click-every", "0"], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "solved in " in proc.stderr and " strokes; " in proc.stderr


def test_repair_from_world_rebuilds_a_lost_state_from_the_blocks(
    setup: tuple[Sandbox, Path],
) -> None:
    sb, cfg = setup
    room = _build(cfg)
    x, y, z = room.geom.cell_pos(0, 1)
    sb.call(lambda g: g.execute(f"fill {x} {y} {z} {x + 4} {y} {z} minecraft:blue_concrete"))
    target = room.puzzle.target
    path = Path(load_config(cfg).state_dir) / "art.json"
    data = json.loads(path.read_text())
    data["moves"] = 3
    data["board"] = "lost"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["repair", "-w", "art", "-c", str(cfg), "--from-world"])
    assert result.exit_code == ExitCode.OK, result.output
    assert "state rebuilt from the world" in result.output
    state = _state(cfg)
    assert state.puzzle.target == target and state.puzzle.par == 6
    assert state.canvas == room.puzzle.blank().apply(Stroke.row(1))
    assert state.moves == 3  # salvaged from the broken file
    archive = Path(load_config(cfg).state_dir) / "archive"
    assert any(p.name.endswith("-corrupt.json") for p in archive.iterdir())


def test_repair_from_world_without_a_target_copy_says_why(setup: tuple[Sandbox, Path]) -> None:
    _, cfg = setup
    cfg.write_text(
        cfg.read_text().replace("{generator: strokes", "{target: none, generator: strokes")
    )
    _build(cfg)
    path = Path(load_config(cfg).state_dir) / "art.json"
    path.write_text("{}")
    result = runner.invoke(app, ["repair", "-w", "art", "-c", str(cfg), "--from-world"])
    assert result.exit_code == ExitCode.ERROR
    assert "the room shows no target copy (paint.target: none)" in result.output
    assert path.read_text() == "{}"  # the broken file is kept
