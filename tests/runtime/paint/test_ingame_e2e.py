"""Paint rooms' player features end to end against the sandbox: the help, hint and stats
triggers, the first visit's controls, records in the state and in the records store (SQLite),
`on_win.command`, the daily puzzle; their cost in commands. Time is the room's own clock, driven
by the tests."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.config import parse_config
from controller.puzzle.paint import hint
from controller.records.store import RecordsStore, Target
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.daily import daily_seed
from controller.runtime.ingame import HELP, HINT, STATS, paint_controls_text
from controller.runtime.paint.room import PaintRoom
from controller.runtime.paint.state import PaintState
from controller.sandbox import Sandbox
from controller.sandbox.game import offline_uuid
from controller.web.live import view_of
from controller.world import commands as cmd
from tests.support.fence import unfenced
from tests.support.grammar import assert_valid_commands
from tests.support.paint_harness import paint_data, world_mismatches
from tests.support.stepclock import StepClock

FLUSH_S = 60.0  # the longest a test waits for the records writer (it returns at once when done)


@dataclass
class Game:
    sb: Sandbox
    daemon: Daemon
    clock: StepClock
    state_dir: Path

    @property
    def room(self) -> PaintRoom:
        room = self.daemon.rooms["lobby"]
        assert isinstance(room, PaintRoom)
        return room

    @property
    def link(self) -> Any:
        return self.daemon.links["main"]

    def tick(self, seconds: float = 1.0, near: bool = True) -> list[str]:
        """Time passes; the room's timers run. Returns the commands they sent."""
        self.clock.advance(seconds)
        before = self.link.sent
        self.room.periodic(self.link, near)
        sent = self.link.sent - before
        return [unfenced(c) for c in self.link.record[len(self.link.record) - sent :]]

    def chat(self, player: str) -> list[str]:
        """The player's chat lines, without the controls a first visit shows."""
        return [
            str(m["text"])
            for m in self.sb.inbox(player)
            if m.get("type") == "tellraw" and not str(m["text"]).startswith("Paint: click")
        ]

    def controls(self, player: str) -> list[str]:
        return [
            str(m["text"])
            for m in self.sb.inbox(player)
            if m.get("type") == "tellraw" and str(m["text"]).startswith("Paint: click")
        ]

    def pull(self, axis: str, number: int, player: str = "Alex") -> None:
        """The player pulls a brush, standing on it; the daemon polls."""
        room = self.room
        brush = next(b for b in room.brushes if (b.axis, b.number) == (axis, number))
        x, y, z = room.geom.frame_pos(brush.i, brush.j)
        self.sb.move(player, (x + 0.5, y + 1, z + 0.5))
        assert self.sb.use_entity(player, room.uuids[(brush.i, brush.j)])
        self.daemon.poll("main")

    def solve(self, player: str = "Alex") -> None:
        """Pull the engine's hinted brushes until the canvas shows the target."""
        while (stroke := hint(self.room.puzzle.target, self.room.canvas)) is not None:
            self.pull(stroke.axis, stroke.number, player)
        assert self.room.current_state.solved_at is not None

    def glowing(self) -> list[tuple[int, int]]:
        """The brush frames that glow."""
        room = self.room
        nbts = self.sb.call(lambda game: {k: game.entity_nbt(u) for k, u in room.uuids.items()})
        return [k for k, nbt in nbts.items() if int(nbt.get("Glowing", 0))]


@contextmanager
def _game(sb: Sandbox, state_dir: Path, **world: Any) -> Iterator[Game]:
    """A daemon running the paint room `lobby` (with `world`'s keys), closed afterwards."""
    clock = StepClock()
    data = paint_data(sb, state_dir)
    lobby = data["worlds"]["lobby"]
    world["on_win"] = {**lobby["on_win"], **world.get("on_win", {})}
    lobby.update({"liveness_interval_s": 0, **world})  # count game commands
    daemon = Daemon(parse_config(data), ["lobby"], connect=connect_server, clock=clock, record=True)
    try:
        daemon.start()
        yield Game(sb, daemon, clock, state_dir)
    finally:
        daemon.close()


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        with _game(sb, tmp_path / "state", hint={"cooldown_s": 30, "glow_s": 3}) as g:
            sb.join("Alex", (2.5, 101, 2.5))
            sb.join(".Steve", (1.5, 101, 1.5))  # a Floodgate (Bedrock) player
            spoof = "[VIP] Bob has the following entity data: [I; 1, 2, 3, 4]"
            sb.set_team_affixes(".Steve", spoof, "*")  # display text must never be trusted
            g.tick()  # the triggers are enabled for the players near the room
            yield g


def test_a_hint_is_told_to_the_asker_only_and_its_brush_glows(game: Game) -> None:
    g = game
    assert g.sb.trigger(".Steve", HINT) == "Triggered [Pipes hint]"
    expected = g.room.hint_brush()
    assert expected is not None
    left = g.room.remaining()
    g.tick()
    told = [m for m in g.chat(".Steve") if m.startswith("Hint:")]
    assert told == [
        f"Hint: pull the glowing brush of {expected.describe()} ({left} stroke(s) left at best)"
    ]
    assert g.chat("Alex") == []
    assert g.glowing() == [(expected.i, expected.j)]
    # The told brush brings the canvas one stroke nearer.
    g.pull(expected.axis, expected.number)
    assert g.room.remaining() == left - 1
    # Exactly the asker's score was reset, and the trigger is armed again.
    scores = g.sb.call(lambda game: dict(game.world.scores))
    assert scores[".Steve"][HINT] == 0 and scores.get("Alex", {}).get(HINT, 0) == 0
    assert g.sb.trigger(".Steve", HINT) == "Triggered [Pipes hint]"


def test_hints_are_rate_limited_per_player_and_the_glow_ends(game: Game) -> None:
    g = game
    g.sb.trigger(".Steve", HINT)
    g.tick()
    [glowing] = g.glowing()
    g.sb.trigger(".Steve", HINT)
    g.tick()
    assert g.chat(".Steve")[-1] == "Next hint in 29 s"
    g.sb.trigger("Alex", HINT)  # another player is not held back by .Steve's cooldown
    g.tick()
    assert g.chat("Alex")[-1].startswith("Hint: pull the glowing brush")
    g.tick(2)
    assert g.glowing() == [glowing]  # Alex's hint (the same brush) lasts 3 s from its own
    g.tick(1)
    assert g.glowing() == []
    g.tick(30)
    g.sb.trigger(".Steve", HINT)
    g.tick()
    assert g.chat(".Steve")[-1].startswith("Hint: pull the glowing brush")


def test_a_solved_canvas_has_no_hint(game: Game) -> None:
    g = game
    g.solve()
    g.room.next_puzzle_at = None
    g.sb.trigger("Alex", HINT)
    g.tick()
    assert g.chat("Alex")[-1] == "Nothing to paint: the canvas shows the target"
    assert g.glowing() == []


def test_the_triggers_cost_one_command_a_second_near_and_nothing_when_nobody_is(
    game: Game,
) -> None:
    """docs/in-game.md, "Triggers": one command asks for every trigger at once."""
    g = game
    g.tick(5)
    for _ in range(4):
        sent = [c for c in g.tick() if not c.startswith("title ")]  # the action bar's strokes
        assert sent == [cmd.triggered_any(g.room.ingame.near, [HELP, HINT, STATS])]
    for seconds in (1, 5, 30):
        assert g.tick(seconds, near=False) == []
    # One hint: the question, so the triggers are armed (3 enables) and newcomers looked for
    # (1); the asker read and re-armed (score 0, enable), the read that finds nobody else, the
    # tell and the glow; the help and stats reads (nobody).
    g.tick(5)
    g.sb.trigger(".Steve", HINT)
    cost = g.sb.total_cost["nbt_serializations"]
    sent = [c for c in g.tick() if not c.startswith("title ") and ".renewed " not in c]
    assert len(sent) == 1 + 4 + 6 + 2
    # the asker's UUID (one player serialized) and the glow's data merge (one frame)
    assert g.sb.total_cost["nbt_serializations"] - cost == 2


def test_a_first_visit_shows_the_paint_controls_once_and_help_repeats_them(game: Game) -> None:
    g = game
    controls = paint_controls_text(True)
    assert g.controls("Alex") == [controls] and g.controls(".Steve") == [controls]
    state = PaintState.load(g.room.path)
    assert state is not None
    uuids = g.sb.call(lambda game: {str(p.uuid) for p in game.world.players.values()})
    assert state.told == uuids  # the players' own UUIDs, not the one .Steve's affix shows
    g.tick(5)
    assert len(g.controls("Alex")) == 1
    assert g.sb.trigger(".Steve", HELP) == "Triggered [Pipes controls]"
    g.tick()
    assert len(g.controls(".Steve")) == 2 and len(g.controls("Alex")) == 1
    g.sb.join("Cleo", (3.5, 101, 3.5))
    g.tick(5)
    assert g.controls("Cleo") == [controls]
    assert "pipes_hint" in controls and "pipes_undo" not in controls
    assert "pipes_hint" not in paint_controls_text(False)


def test_stats_after_a_win_and_the_win_in_the_records_store(game: Game) -> None:
    g = game
    g.sb.trigger("Alex", STATS)
    g.tick()
    assert g.chat("Alex")[-1] == "Paint lobby: no solves yet"
    g.clock.advance(65)
    g.solve()
    state = PaintState.load(g.room.path)
    assert state is not None and set(state.players) == {"Alex", ".Steve"}  # both were near
    assert state.players["Alex"].solves == 1 and state.players["Alex"].best is not None
    g.sb.trigger(".Steve", STATS)
    g.tick()
    text = g.chat(".Steve")[-1]
    assert text.startswith("Paint lobby: 1 solve(s), best 1:0") and "mean of the last 1" in text
    assert 65 <= g.sb.call(lambda game: game.world.scores[".Steve"]["pipes_best_s"]) <= 67
    assert g.daemon.records is not None and g.daemon.records.flush(FLUSH_S)
    with RecordsStore(Target("sqlite", str(g.state_dir / "records.sqlite3"))) as store:
        solves = store.solves()
    assert {(s.player_uuid, s.player_name) for s in solves} == {
        (str(offline_uuid("Alex")), "Alex"),
        (str(offline_uuid(".Steve")), ".Steve"),
    }
    win = state.solves[-1]
    for s in solves:
        where = (s.server, s.room, s.kind, s.seed, s.daily_date)
        assert where == ("main", "lobby", "paint", 11, None)
        assert (s.seconds, s.clicks, s.par, s.solved_at) == (win.seconds, win.moves, 6, win.at)
    # The web page's view of the room carries the same records (its fallback without a store).
    standings = view_of(g.room, 1).standings
    assert standings is not None and set(standings.players) == {"Alex", ".Steve"}
    assert standings.players["Alex"] == (1, state.players["Alex"].best)
    # `pipesctl stats` reads the same store: the paint room's players are on its leaderboard.
    config = g.state_dir.parent / "stats.json"
    config.write_text(json.dumps(paint_data(g.sb, g.state_dir)))
    result = CliRunner().invoke(app, ["stats", "--world", "lobby", "--json", "-c", str(config)])
    assert result.exit_code == 0, result.output
    board = json.loads(result.stdout)["by_solves"]
    assert sorted((line["player_name"], line["solves"]) for line in board) == [
        (".Steve", 1),
        ("Alex", 1),
    ]


def test_on_win_command_runs_once_per_win_with_valid_names_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        with _game(sb, tmp_path, on_win={"command": "tag {player} add paint.won"}) as g:
            sb.join("Alex", (2.5, 101, 2.5))
            sb.join(".Steve", (1.5, 101, 1.5))
            sb.join("*Bob", (3.5, 101, 1.5))  # an account name that cannot stand unquoted
            g.solve()
            at = "execute positioned 2.5 100.5 2 run "  # the middle of the brushes' layer
            sent = sorted(unfenced(c) for c in g.link.record if "paint.won" in c)
            assert sent == [at + "tag .Steve add paint.won", at + "tag Alex add paint.won"]
            tags = g.sb.call(lambda game: {n: set(p.tags) for n, p in game.world.players.items()})
            assert "paint.won" in tags["Alex"] and "paint.won" not in tags["*Bob"]
            g.tick(1)  # the next puzzle
            assert g.room.current_state.puzzle_number == 2
            assert len([c for c in g.link.record if "paint.won" in c]) == 2  # nothing more
            g.solve("Alex")
            assert len([c for c in g.link.record if "paint.won" in c]) == 4
            assert_valid_commands(sent)


def test_on_win_command_without_names_runs_at_the_canvas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        door = "/setblock ~ ~-5 ~ minecraft:redstone_block"
        with _game(sb, tmp_path, on_win={"command": door}) as g:
            sb.join("Alex", (2.5, 101, 2.5))
            g.solve()
            sent = [unfenced(c) for c in g.link.record if "redstone_block" in c]
            assert sent == ["execute positioned 2.5 100.5 2 run " + door[1:]]
            assert sb.call(lambda game: game.block(2, 95, 2)) == "minecraft:redstone_block"


def test_the_daily_puzzle_is_the_same_for_a_date_and_changes_the_next_day(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        with _game(sb, tmp_path / "a", seed="daily") as g:
            first = g.room.puzzle
            day = dt.date(2026, 12, 1)
            assert first.seed == daily_seed(day, 5, 4, "paint") != daily_seed(day, 5, 4)
            sb.join("Alex", (2.5, 101, 2.5))
            g.solve()
            g.tick(1)
            assert g.room.current_state.puzzle_number == 2
            assert g.room.puzzle == first  # the same day: the same puzzle again
            assert "Alex" in g.room.current_state.daily["2026-12-01"]
            assert sb.call(lambda game: game.world.scores["Alex"]["pipes_daily_s"]) >= 0
    with Sandbox() as sb2:  # another server, the same day: the same puzzle
        monkeypatch.setenv("SANDBOX_PW", sb2.password)
        with _game(sb2, tmp_path / "b", seed="daily") as g2:
            assert g2.room.puzzle == first
            g2.tick(24 * 3600)  # the next day (UTC): the new date's puzzle
            assert g2.room.puzzle.seed == daily_seed(day + dt.timedelta(days=1), 5, 4, "paint")
            assert g2.room.puzzle.seed != first.seed and g2.room.current_state.puzzle_number == 2
            assert world_mismatches(sb2, g2.room) == []
            assert_valid_commands(sorted({unfenced(c) for c in g2.link.record}))


def test_every_command_of_the_player_features_is_vanilla_grammar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        with _game(
            sb, tmp_path, seed="daily", on_win={"command": "give {player} minecraft:cookie"}
        ) as g:
            sb.join("Alex", (2.5, 101, 2.5))
            sb.join(".Steve", (1.5, 101, 1.5))
            sb.join("*Bob", (3.5, 101, 1.5))  # a name that cannot stand as a bare command word
            g.tick()
            for player, objective in (("Alex", HINT), (".Steve", STATS), ("Alex", HELP)):
                sb.trigger(player, objective)
            g.tick()
            g.tick(4)
            g.solve()
            g.tick(1)
            record = sorted({unfenced(c) for c in g.link.record})
            assert any("give Alex minecraft:cookie" in c for c in record)
            assert not any("give *Bob" in c for c in record)
            bob = offline_uuid("*Bob")
            assert any(
                c.startswith(f"execute as {bob} run scoreboard players set @s pipes_best_s")
                for c in record
            )
            assert g.sb.call(lambda game: game.world.scores["*Bob"]["pipes_best_s"]) >= 0
            assert any("run tellraw @s" in c and "Hint: pull" in c for c in record)
            assert_valid_commands(record)
            assert_valid_commands([cmd.tell_player(uuid.UUID(int=7), paint_controls_text(True))])
