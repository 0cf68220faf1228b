"""`pipesctl stats`: leaderboards from the records store, as tables or JSON."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.errors import ExitCode
from controller.records.model import SolveRecord
from controller.records.store import RecordsStore, Target

runner = CliRunner()
T0 = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC).timestamp()


def _solve(player: str, name: str, seconds: float, room: str, daily: str | None) -> SolveRecord:
    return SolveRecord(
        str(uuid.uuid4()), "hub", room, "tree", 1, daily, player, name, seconds, 10, 9, T0
    )


@pytest.fixture
def config(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    with RecordsStore(Target("sqlite", str(state / "records.sqlite3"))) as store:
        store.migrate()
        store.add_solves(
            [
                _solve("u1", "Alex", 61.0, "lobby", "2026-12-01"),
                _solve("u1", "Alex", 75.0, "lobby", None),
                _solve("u2", "Steve", 58.0, "arena", None),
            ]
        )
    path = tmp_path / "pipes.yaml"
    path.write_text(
        f"state_dir: {state}\nservers: {{main: {{password_env: PW}}}}\n"
        "worlds: {lobby: {server: main, origin: [0, 100, 0]}}\n"
    )
    return path


def test_the_tables_name_every_player(config: Path) -> None:
    result = runner.invoke(app, ["stats", "-c", str(config)])
    assert result.exit_code == ExitCode.OK, result.output
    out = result.stdout
    assert "Most solves (every room)" in out and "Best times (every room)" in out
    most = out[: out.index("Best times")]
    assert most.index("Alex") < most.index("Steve") and "0:58" in out and "1:01" in out


def test_json_by_room_by_player_and_daily(config: Path) -> None:
    doc = json.loads(
        runner.invoke(app, ["stats", "--json", "-w", "arena", "-c", str(config)]).stdout
    )
    assert doc["world"] == "arena"
    assert [s["player_name"] for s in doc["by_solves"]] == ["Steve"]
    assert doc["by_best_time"][0] == {
        "rank": 1, "player_uuid": "u2", "player_name": "Steve", "solves": 1, "best_s": 58.0,
        "server": "hub",
    }  # fmt: skip
    doc = json.loads(
        runner.invoke(app, ["stats", "--json", "-p", "alex", "-c", str(config)]).stdout
    )
    assert [(s["rank"], s["solves"]) for s in doc["by_solves"]] == [(1, 2)]
    assert [s["rank"] for s in doc["by_best_time"]] == [2]
    result = runner.invoke(app, ["stats", "--json", "--daily", "2026-12-01", "-c", str(config)])
    assert [s["player_name"] for s in json.loads(result.stdout)["standings"]] == ["Alex"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-p", "Nobody"], "--player 'Nobody': no records for this player"),
        (["--daily", "01/12/2026"], "expected a date YYYY-MM-DD or `today`"),
        (["--daily", "today", "-w", "lobby"], "--daily spans every daily room"),
        (["-w", "Not A Room"], "room names match"),
    ],
)
def test_bad_requests_are_one_clear_line(config: Path, argv: list[str], message: str) -> None:
    result = runner.invoke(app, ["stats", *argv, "-c", str(config)])
    assert result.exit_code == ExitCode.USAGE
    assert message in result.stderr and "Traceback" not in result.output


def test_an_empty_store_says_so(tmp_path: Path) -> None:
    path = tmp_path / "pipes.yaml"
    path.write_text(
        f"state_dir: {tmp_path / 'state'}\nservers: {{main: {{password_env: PW}}}}\n"
        "worlds: {lobby: {server: main, origin: [0, 100, 0]}}\n"
    )
    result = runner.invoke(app, ["stats", "-c", str(path)])
    assert result.exit_code == ExitCode.OK and "no solves recorded yet" in result.stdout


def test_an_unreachable_database_exits_4_without_the_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIPES_DB_PW", "db-secret-value")
    path = tmp_path / "pipes.yaml"
    path.write_text(
        "records: {url: 'postgresql://pipes@127.0.0.1:1/pipes', password_env: PIPES_DB_PW, "
        "server_name: hub}\nservers: {main: {password_env: PW}}\n"
        "worlds: {lobby: {server: main, origin: [0, 100, 0]}}\n"
    )
    result = runner.invoke(app, ["stats", "-c", str(path)])
    assert result.exit_code == ExitCode.UNREACHABLE
    assert "records store postgresql postgresql://pipes@127.0.0.1:1/pipes" in result.stderr
    assert "db-secret-value" not in result.output
