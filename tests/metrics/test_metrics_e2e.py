"""The metrics of a real daemon on the sandbox, scraped over HTTP and parsed with the client
library's parser: clicks, moves, the solve and its time, commands and their latency, the lease,
the detection mode, repairs by kind and reconnects (docs/metrics.md)."""

from __future__ import annotations

import socket

import pytest

from controller.errors import ListenError
from controller.metrics import METRIC_NAMES, Metrics, MetricsServer
from controller.runtime.demo import next_click, solution_order
from tests.support.harness import Harness
from tests.support.scrape import scrape
from tests.support.tamper import run, tamper_commands

ROOM = {"server": "main", "room": "lobby"}


def _solve_counting(h: Harness) -> int:
    """Click along the solution, one click a poll, until solved; the clicks made."""
    room = h.room
    order = solution_order(room.board)
    clicks = 0
    for _ in range(4 * room.board.size):
        idx = next_click(room.board, order)
        if idx is None:
            break
        h.click(idx % room.board.width, idx // room.board.width)
        clicks += 1
        h.daemon.poll("main")
    assert room.state is not None and room.state.solved_at is not None
    return clicks


def test_a_solved_room_in_the_scrape(metered: tuple[Harness, Metrics], detect: str) -> None:
    h, metrics = metered
    clicks = _solve_counting(h)
    endpoint = MetricsServer(metrics, "127.0.0.1", 0)
    try:
        got = scrape(endpoint.port)
    finally:
        endpoint.close()
    room = h.room
    assert room.state is not None
    solve = room.state.solves[-1]
    assert clicks > 0
    assert got.value("pipesctl_clicks_total", **ROOM) == clicks
    assert got.value("pipesctl_moves_total", **ROOM) == solve.moves == clicks
    assert got.value("pipesctl_solves_total", **ROOM) == 1
    assert got.value("pipesctl_solve_seconds_count", **ROOM) == 1
    assert got.value("pipesctl_solve_seconds_sum", **ROOM) == pytest.approx(solve.seconds, abs=1e-3)
    sent = h.daemon.links["main"].sent
    assert got.value("pipesctl_rcon_commands_total", server="main") == sent
    assert got.value("pipesctl_rcon_command_seconds_count", server="main") == sent
    assert got.value("pipesctl_rcon_command_seconds_bucket", server="main", le="+Inf") == sent
    assert 0 < got.value("pipesctl_rcon_command_seconds_sum", server="main") < 60
    size = room.board.size
    assert got.value("pipesctl_room_water_tiles", **ROOM) == size
    assert got.value("pipesctl_room_tiles", **ROOM) == size
    assert got.value("pipesctl_room_solved", **ROOM) == 1
    assert got.value("pipesctl_lease_state", **ROOM, pipesctl_lease_state="held") == 1
    assert got.value("pipesctl_lease_state", **ROOM, pipesctl_lease_state="lost") == 0
    assert got.value("pipesctl_detection_mode", server="main", pipesctl_detection_mode=detect) == 1
    # a first build is not a repair, and nothing was broken
    for kind in ("rebuilt", "frames_summoned", "blocks_fixed", "adopted_moves"):
        assert got.value("pipesctl_repairs_total", **ROOM, kind=kind) == 0
    assert got.value("pipesctl_rcon_reconnects_total", server="main") == 0
    assert got.names <= set(METRIC_NAMES)


def test_repairs_and_a_reconnect_are_counted(metered: tuple[Harness, Metrics]) -> None:
    h, metrics = metered
    room, daemon, sb = h.room, h.daemon, h.sb
    for command in tamper_commands(room, "kill_frame"):
        run(sb, command)
    room.guard.repair_frames(daemon.links["main"])  # the tamper guard's repair
    run(sb, f"setblock {' '.join(map(str, room.geom.state_pos(2, 2)))} minecraft:stone")
    daemon.reconcile(room, daemon.links["main"])  # a reconcile's repair
    assert sb.drop_connections() >= 1
    for _ in range(20):
        daemon.step()
        if metrics.registry.get_sample_value("pipesctl_rcon_reconnects_total", {"server": "main"}):
            break
    endpoint = MetricsServer(metrics, "127.0.0.1", 0)
    try:
        got = scrape(endpoint.port)
    finally:
        endpoint.close()
    assert got.value("pipesctl_repairs_total", **ROOM, kind="frames_summoned") == 1
    assert got.value("pipesctl_repairs_total", **ROOM, kind="blocks_fixed") >= 1
    assert got.value("pipesctl_rcon_reconnects_total", server="main") == 1
    assert got.value("pipesctl_repairs_total", **ROOM, kind="rebuilt") == 0


def test_a_metrics_port_in_use_is_a_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ListenError, match=rf"metrics_port: .* port {port}: the port is in use"):
            MetricsServer(Metrics(), "127.0.0.1", port)
