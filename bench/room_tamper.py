"""Reliability figures against the sandbox: repair latency per tamper kind, the command budget of
the liveness check and the sliced audit, and SIGKILL of a real daemon process at random moments
(including the build and the win) with every move and solve accounted for. Prints markdown.

Run: .venv/bin/python -m bench.room_tamper [kills [sizes]]   (sizes: e.g. 7,15,31,64,128)
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from controller.config import parse_config
from controller.puzzle.model import Board
from controller.puzzle.play import PlayState
from controller.puzzle.serialize import board_from_dict
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.runtime.pipes.room import PipesRoom
from controller.sandbox import Sandbox
from controller.world.geometry import frame_uuid
from controller.world.pipes import blockcheck
from tests.support.tamper import KINDS, StepClock, tamper_commands, until_repaired

ROOT = Path(__file__).resolve().parent.parent


def _daemon(sb: Sandbox, state: Path, size: int, clock: StepClock) -> Daemon:
    os.environ["BENCH_PW"] = sb.password
    lobby = {"origin": [0, 100, 0], "size": [size, size], "seed": 11, "audit_interval_s": 0}
    cfg = parse_config(
        {
            "state_dir": str(state),
            "servers": {"main": {"port": sb.port, "password_env": "BENCH_PW"}},
            "worlds": {"lobby": lobby},
        }
    )
    return Daemon(cfg, ["lobby"], connect=connect_server, clock=clock)


def _settle(daemon: Daemon, clock: StepClock, seconds: float) -> None:
    end = clock.now + seconds
    while clock.now < end:
        clock.now += 0.05
        daemon.step()


def latency_table(size: int) -> str:
    rows = [
        f"Room {size}×{size}, default settings (near: the frame round and the block round each "
        "every 2 s, half a period apart; nobody near: a frame count every 10 s, the block round "
        "every 20 s, all frame counts every 60 s); daemon time in 50 ms steps (the sandbox "
        "answers in between). The tampered tile is (1, 1); the player stands on it in the "
        "'near' column.\n",
        "| tamper | repaired after, players near (s) | nobody near (s) |",
        "|---|---|---|",
    ]
    for kind in KINDS:
        cells = []
        for near in (True, False):
            with Sandbox() as sb, tempfile.TemporaryDirectory() as tmp:
                clock = StepClock()
                daemon = _daemon(sb, Path(tmp), size, clock)
                daemon.start()
                if near:
                    sb.join("Alex", (1.5, 101, 1.5))
                _settle(daemon, clock, 9.0)
                room = daemon.rooms["lobby"]
                assert isinstance(room, PipesRoom)
                if kind == "item_rotation_7" and not near:
                    cells.append("— (only the full reconcile, `audit_interval_s`)")
                    daemon.close()
                    continue
                for command in tamper_commands(room, kind):
                    sb.call(lambda g, c=command: g.execute(c))
                limit = 45.0 if near else 210.0
                try:
                    cells.append(f"{until_repaired(sb, daemon, clock, limit):.2f}")
                except AssertionError:
                    cells.append(f"not within {limit:.0f} s")
                daemon.close()
        rows.append(f"| {kind.replace('_', ' ')} | {cells[0]} | {cells[1]} |")
    return "\n".join(rows)


def budget_table(sizes: list[int]) -> str:
    rows = [
        "Commands per second of daemon time on an untouched room (detection in scan mode, the "
        "frame round and the block round of the tamper guard), over 20 s, and the blocks the "
        "guard's compares and fills cover per second (almost all left unchanged).\n",
        "| size | block round (commands) | near: all / guard cmd/s | near: guard blocks/s "
        "| nobody near: all / guard cmd/s |",
        "|---|---|---|---|---|",
    ]
    for size in sizes:
        cells = []
        blocks = ""
        round_size = 0
        for near in (True, False):
            with Sandbox() as sb, tempfile.TemporaryDirectory() as tmp:
                clock = StepClock()
                daemon = _daemon(sb, Path(tmp), size, clock)
                daemon.start()
                if near:
                    sb.join("Alex", (-3.5, 101, -3.5))  # near the room, out of reach
                _settle(daemon, clock, 9.0)
                room = daemon.rooms["lobby"]
                assert isinstance(room, PipesRoom)
                round_size = (
                    len(room.guard.block_check_commands()) + len(blockcheck.chunks(room.geom)) + 1
                )
                link = daemon.links["main"]
                sent, guard = link.sent, room.guard.commands_sent
                examined = room.guard.blocks_examined
                _settle(daemon, clock, 20.0)
                cells.append(
                    f"{(link.sent - sent) / 20:.1f} / {(room.guard.commands_sent - guard) / 20:.1f}"
                )
                if near:
                    blocks = f"{(room.guard.blocks_examined - examined) / 20:,.0f}"
                daemon.close()
        rows.append(f"| {size}×{size} | {round_size} | {cells[0]} | {blocks} | {cells[1]} |")
    return "\n".join(rows)


# -- SIGKILL at random moments ------------------------------------------------------------------
def _state(path: Path) -> dict[str, object] | None:
    try:
        data: dict[str, object] = json.loads(path.read_text())
        return data
    except (OSError, ValueError):
        return None


def _world_board(sb: Sandbox, board: Board) -> tuple[Board, list[bool]]:
    """The board as the world shows it (each frame's ItemRotation), and which frames the daemon
    has settled since their last click (their `pipes.r<r>` tag names their ItemRotation)."""
    live = board.copy()

    def read(game: object) -> list[tuple[int, bool] | None]:
        out: list[tuple[int, bool] | None] = []
        for idx in range(board.size):
            uid = frame_uuid("lobby", idx % board.width, idx // board.width)
            nbt = game.entity_nbt(uid)  # type: ignore[attr-defined]
            if nbt is None:
                out.append(None)
                continue
            r = int(nbt["ItemRotation"])
            out.append((r % 4, f"pipes.r{r}" in {str(t) for t in nbt.get("Tags", [])}))
        return out

    settled = [False] * board.size
    for idx, seen in enumerate(sb.call(read)):
        if seen is not None:
            live.rotations[idx], settled[idx] = seen
    return live, settled


def _solves_score(sb: Sandbox) -> int:
    reply = sb.call(lambda g: g.execute("scoreboard players get Alex pipes_solves"))
    return int(reply[0].split(" has ")[1].split(" ")[0]) if " has " in reply[0] else 0


def sigkill_run(kills: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    with Sandbox() as sb, tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "pipes.yaml"
        cfg.write_text(
            f"state_dir: {Path(tmp) / 'state'}\n"
            f"servers:\n  main: {{host: 127.0.0.1, port: {sb.port}, password_env: BENCH_PW}}\n"
            "worlds:\n  lobby:\n    origin: [0, 100, 0]\n    size: [4, 4]\n    seed: 5\n"
            "    audit_interval_s: 0\n    on_win: {next_puzzle_after_s: 0.5}\n"
        )
        env = {**os.environ, "BENCH_PW": sb.password}
        argv = [sys.executable, "-m", "controller.cli", "start", "-w", "lobby", "-c", str(cfg)]
        state_file = Path(tmp) / "state" / "lobby.json"
        sb.join("Alex", (2.0, 101, 2.0))
        clicks = wins = 0
        moments: dict[str, int] = {"build": 0, "win": 0, "play": 0}
        log = (Path(tmp) / "daemon.log").open("w")
        for k in range(kills):
            proc = subprocess.Popen(argv, env=env, stderr=log, cwd=ROOT)
            if k == 0 or k % 7 == 3:
                time.sleep(rng.uniform(0.0, 0.6))  # during the build (or the resume)
                moments["build"] += 1
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                continue
            deadline = time.monotonic() + rng.uniform(0.5, 3.0)
            kill_at_win = k % 4 == 1
            while time.monotonic() < deadline or kill_at_win:
                data = _state(state_file)
                if data is None or proc.poll() is not None:
                    time.sleep(0.05)
                    continue
                if data.get("solved_at") is not None:
                    time.sleep(0.05)  # waiting for the next puzzle: no clicks
                    continue
                board, settled = _world_board(sb, board_from_dict(data["board"]))  # type: ignore[arg-type]
                idx = next_click(board, solution_order(board))
                if idx is None or not settled[idx]:
                    time.sleep(0.05)  # solved, or the last click there is not counted yet
                    continue
                trial = board.copy()
                trial.rotations[idx] = (trial.rotations[idx] + 1) % 4
                if sb.use_entity("Alex", frame_uuid("lobby", idx % 4, idx // 4)):
                    clicks += 1
                    if PlayState(trial).solved:
                        wins += 1
                        if kill_at_win:
                            time.sleep(rng.uniform(0.0, 0.1))  # inside the win flow
                            moments["win"] += 1
                            break
                time.sleep(0.12)
            else:
                moments["play"] += 1
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        proc = subprocess.Popen(argv, env=env, stderr=log, cwd=ROOT)
        time.sleep(3.0)
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        log.close()
        data = _state(state_file) or {}
        solves = data.get("solves", [])
        assert isinstance(solves, list)
        counted = int(data.get("moves", 0)) + sum(int(s["moves"]) for s in solves)  # type: ignore[call-overload]
        score = _solves_score(sb)
    lost = clicks - counted
    return (
        f"{kills} SIGKILLs of a `pipesctl start` process on a 4×4 room ({moments['build']} during "
        f"the build or resume, {moments['win']} inside the win flow, {moments['play']} during "
        "play), a simulated player clicking every 0.12 s while the daemon runs (a frame "
        "again only once the daemon has settled its last click: moves count observed turns):\n\n"
        "| clicks | moves counted | moves lost | wins | solves in the state | "
        "`pipes_solves` score |\n|---|---|---|---|---|---|\n"
        f"| {clicks} | {counted} | {lost} | {wins} | {len(solves)} | {score} |"
    )


def main() -> None:
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print("### Repair latency per tamper kind\n")
    print(latency_table(15))
    print("\n### Command budget of the tamper guard\n")
    sizes = [int(a) for a in sys.argv[2].split(",")] if len(sys.argv) > 2 else [7, 15, 31, 64]
    print(budget_table(sizes))
    print("\n### SIGKILL at random moments\n")
    print(sigkill_run(kills))


if __name__ == "__main__":
    main()
