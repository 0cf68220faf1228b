"""End to end: daemons on sandbox servers recording every solve in the records store. SQLite by
default (and the state files' records imported once); two servers sharing one real PostgreSQL
server show one network leaderboard (`pipesctl stats --json`, `/trigger pipes_stats`, the
sidebar); PostgreSQL stopped and started mid-play records every solve exactly once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.config import Config, RecordsConfig
from controller.records.store import RecordsStore, Target
from controller.records.writer import OUTBOX_DIR
from controller.runtime.admin.actions import remove_room
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.runtime.feedback import NETWORK, duration
from controller.runtime.ingame import STATS
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.state import RoomState
from controller.sandbox import Sandbox
from controller.sandbox.game import offline_uuid
from tests.support.grammar import assert_valid_commands
from tests.support.harness import make_config
from tests.support.postgres import PostgresServer
from tests.support.stepclock import StepClock

PASSWORD = "sandbox-rcon-password"
FLUSH_S = 60.0  # the longest a test waits for the records writer (it returns at once when done)


def _config(sb: Sandbox, state: Path, records: RecordsConfig | None, **world: Any) -> Config:
    world = {"liveness_interval_s": 0, **world}
    cfg = make_config(sb, state, size=5, **world)
    return cfg if records is None else cfg.model_copy(update={"records": records})


@contextmanager
def _daemon(cfg: Config, clock: StepClock) -> Iterator[Daemon]:
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, clock=clock, record=True)
    try:
        daemon.start()
        yield daemon
    finally:
        daemon.close()


def _room(daemon: Daemon) -> PipesRoom:
    room = daemon.rooms["lobby"]
    assert isinstance(room, PipesRoom)
    return room


def _tick(daemon: Daemon, clock: StepClock, seconds: float = 1.0) -> None:
    clock.advance(seconds)
    _room(daemon).periodic(daemon.links["main"], True)


def _solve(sb: Sandbox, daemon: Daemon, clock: StepClock, player: str, took_s: float) -> None:
    """`player` solves the current puzzle in `took_s` seconds, then the next puzzle starts."""
    room = _room(daemon)
    clock.advance(took_s)
    order = solution_order(room.board)
    number = room.current_state.puzzle_number
    w = room.board.width
    while (idx := next_click(room.board, order)) is not None:
        x, y, z = room.geom.frame_pos(idx % w, idx // w)
        sb.move(player, (x + 0.5, y + 1, z + 0.5))
        assert sb.use_entity(player, room.uuids[idx])
        daemon.poll("main")
    assert room.current_state.solved_at is not None
    while room.current_state.puzzle_number == number:
        _tick(daemon, clock)


def _chat(sb: Sandbox, player: str) -> list[str]:
    return [str(m["text"]) for m in sb.inbox(player) if m.get("type") == "tellraw"]


def test_every_solve_is_recorded_with_the_player_uuid_and_state_files_import_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    target = Target("sqlite", str(state / "records.sqlite3"))
    with Sandbox(password=PASSWORD) as sb:
        monkeypatch.setenv("SANDBOX_PW", PASSWORD)
        cfg, clock = _config(sb, state, None), StepClock()
        with _daemon(cfg, clock) as daemon:
            sb.join("Alex", (2.5, 101, 2.5))
            sb.join(".Steve", (1.5, 101, 1.5))
            _tick(daemon, clock)
            par = _room(daemon).par
            _solve(sb, daemon, clock, "Alex", 65)
            assert daemon.records.flush(FLUSH_S)
        saved = RoomState.load(state / "lobby.json")
        assert saved is not None
        with RecordsStore(target) as store:
            solves = store.solves()
        assert {(s.player_uuid, s.player_name) for s in solves} == {
            (str(offline_uuid("Alex")), "Alex"),
            (str(offline_uuid(".Steve")), ".Steve"),
        }
        win = saved.solves[-1]
        for s in solves:
            assert (s.server, s.room, s.kind, s.seed, s.daily_date) == (
                "main",
                "lobby",
                "tree",
                7,
                None,
            )
            assert (s.seconds, s.clicks, s.par, s.solved_at) == (
                win.seconds,
                win.moves,
                par,
                win.at,
            )
        # An older pipesctl kept records in the state file only: they are imported once.
        for path in state.glob("records.sqlite3*"):
            path.unlink()
        for path in (state / OUTBOX_DIR).iterdir():
            path.unlink()
        for _ in range(2):
            with _daemon(cfg, StepClock()) as daemon:
                assert daemon.records.flush(FLUSH_S)
        with RecordsStore(target) as store:
            imported = store.imported("main", "lobby")
            board = store.leaderboard("lobby", by="solves", limit=10)
        assert [(r.player_name, r.solves, r.best, list(r.recent)) for r in imported] == [
            (name, rec.solves, rec.best, rec.recent) for name, rec in sorted(saved.players.items())
        ]
        assert sorted((s.player_name, s.solves, s.best_s) for s in board) == sorted(
            (name, rec.solves, rec.best) for name, rec in saved.players.items()
        )


def _network_config(sb: Sandbox, state: Path, url: str, name: str, **world: Any) -> Config:
    records = RecordsConfig(url=url, server_name=name, refresh_s=3600)
    on_win = {"sidebar": True, "waves_s": 0, "next_puzzle_after_s": 0.2}
    return _config(sb, state, records, seed="daily", on_win=on_win, **world)


def test_two_servers_sharing_postgresql_show_one_network_leaderboard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pg_url: str
) -> None:
    monkeypatch.setenv("SANDBOX_PW", PASSWORD)
    clock, lobby_clock = StepClock(), StepClock()
    with Sandbox(password=PASSWORD) as hub_sb, Sandbox(password=PASSWORD) as lobby_sb:
        hub_cfg = _network_config(hub_sb, tmp_path / "hub", pg_url, "hub")
        lobby_cfg = _network_config(lobby_sb, tmp_path / "lobby-1", pg_url, "lobby-1")
        with _daemon(hub_cfg, clock) as hub, _daemon(lobby_cfg, lobby_clock) as lobby:
            assert _room(hub).board.shapes == _room(lobby).board.shapes  # the daily puzzle
            hub_sb.join("Alex", (2.5, 101, 2.5))
            lobby_sb.join("Steve", (2.5, 101, 2.5))
            _solve(hub_sb, hub, clock, "Alex", 80)
            _solve(lobby_sb, lobby, lobby_clock, "Steve", 50)
            _solve(lobby_sb, lobby, lobby_clock, "Steve", 70)
            assert lobby.records.flush(FLUSH_S) and hub.records.flush(FLUSH_S)
            hub_sb.trigger("Alex", STATS)
            _tick(hub, clock)
            text = _chat(hub_sb, "Alex")[-1]
            assert text.startswith("Pipes lobby: 1 solve(s), best 1:2")
            assert "; network: #2 of 2 by solves (1), best 1:2" in text and "(rank 2)" in text
            assert text.endswith(f"; today's network best {duration(50)} by Steve on lobby-1")
            objective = NETWORK["daily"]
            shown = hub_sb.call(lambda g: dict(g.world.display_slots))
            assert shown["sidebar"] == objective
            scores = hub_sb.call(
                lambda g: {n: s[objective] for n, s in g.world.scores.items() if objective in s}
            )
            assert scores == {"Steve": 50, "Alex": 80}
            assert_valid_commands(sorted(set(hub.links["main"].record)))
        remove_room(hub_cfg, "lobby", connect=connect_server)  # the network objectives go too
        objectives = hub_sb.call(lambda g: g.execute("scoreboard objectives list"))
        assert "pipes_" not in " ".join(objectives)
    cli_config = tmp_path / "stats.yaml"
    cli_config.write_text(
        json.dumps(
            {
                "state_dir": str(tmp_path / "cli"),
                "records": {"url": pg_url, "server_name": "admin"},
                "servers": {"main": {"password_env": "SANDBOX_PW"}},
                "worlds": {"lobby": {"server": "main", "origin": [0, 100, 0]}},
            }
        )
    )
    result = CliRunner().invoke(app, ["stats", "--json", "-c", str(cli_config)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [(s["player_name"], s["solves"], s["server"]) for s in doc["by_solves"]] == [
        ("Steve", 2, "lobby-1"),
        ("Alex", 1, "hub"),
    ]
    assert doc["by_solves"][0]["player_uuid"] == str(offline_uuid("Steve"))
    result = CliRunner().invoke(
        app, ["stats", "--daily", "2026-12-01", "--json", "-c", str(cli_config)]
    )
    daily = json.loads(result.stdout)["standings"]
    assert [(s["rank"], s["player_name"], s["best_s"]) for s in daily] == [
        (1, "Steve", 50.0),
        (2, "Alex", 80.0),
    ]


def test_postgresql_stopped_and_started_mid_play_records_every_solve_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_postgres: PostgresServer
) -> None:
    monkeypatch.setenv("SANDBOX_PW", PASSWORD)
    url = fresh_postgres.create_database()
    clock = StepClock()
    with Sandbox(password=PASSWORD) as sb:
        cfg = _network_config(sb, tmp_path / "hub", url, "hub")
        sb.join("Alex", (2.5, 101, 2.5))
        with _daemon(cfg, clock) as daemon:
            _solve(sb, daemon, clock, "Alex", 60)
            assert daemon.records.flush(FLUSH_S)
            fresh_postgres.stop()
            _solve(sb, daemon, clock, "Alex", 61)  # the game goes on while the store is down
            _solve(sb, daemon, clock, "Alex", 62)
            assert daemon.records.pending() == 2
        # The daemon stopped during the outage: its two solves wait in the outbox on disk.
        assert len((tmp_path / "hub" / OUTBOX_DIR / "lobby.jsonl").read_text().splitlines()) == 2
        fresh_postgres.start()
        with _daemon(cfg, clock) as daemon:
            _solve(sb, daemon, clock, "Alex", 63)
            assert daemon.records.flush(FLUSH_S)
            saved = daemon.rooms["lobby"].state
        assert isinstance(saved, RoomState)
    with RecordsStore(Target("postgresql", url)) as store:
        solves = store.solves()
    assert [s.seconds for s in solves] == [s.seconds for s in saved.solves] == [60, 61, 62, 63]
    assert len({s.solve_id for s in solves}) == 4
