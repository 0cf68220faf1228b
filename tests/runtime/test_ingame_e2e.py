"""End to end against the sandbox: hints and records by `/trigger`, win waves, `on_win.command`,
the daily puzzle. Time is the room's own clock, driven by the tests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.puzzle.model import TileClass, map_id
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.demo import next_click, solution_order
from controller.runtime.feedback import duration
from controller.runtime.ingame import HELP, HINT, STATS, controls_text, wave_levels
from controller.runtime.pipes.room import PipesRoom
from controller.runtime.state import RoomState
from controller.sandbox import Sandbox
from controller.world import commands as cmd
from controller.world.datapack import LOCKED_MESSAGE
from tests.support.fence import unfenced
from tests.support.grammar import assert_valid_commands
from tests.support.harness import make_config, world_mismatches
from tests.support.stepclock import StepClock


@dataclass
class Game:
    sb: Sandbox
    daemon: Daemon
    clock: StepClock

    @property
    def room(self) -> PipesRoom:
        room = self.daemon.rooms["lobby"]
        assert isinstance(room, PipesRoom)
        return room

    @property
    def link(self) -> Any:
        return self.daemon.links["main"]

    def tick(self, seconds: float = 1.0) -> None:
        """Time passes; the room's timers run (players are near)."""
        self.clock.advance(seconds)
        self.room.periodic(self.link, True)

    def chat(self, player: str) -> list[str]:
        """The player's chat lines, without the controls a first visit shows."""
        return [
            str(m["text"])
            for m in self.sb.inbox(player)
            if m.get("type") == "tellraw" and not str(m["text"]).startswith("Pipes: click")
        ]

    def click(self, idx: int, player: str = "Alex") -> None:
        w = self.room.board.width
        x, y, z = self.room.geom.frame_pos(idx % w, idx // w)
        self.sb.move(player, (x + 0.5, y + 1, z + 0.5))
        assert self.sb.use_entity(player, self.room.uuids[idx])
        self.daemon.poll("main")

    def solve(self, player: str = "Alex", leave: int = 0) -> None:
        """Click toward the solution until `leave` clicks are left."""
        board = self.room.board
        order = solution_order(board)
        clicks = []
        probe = board.copy()
        while (idx := next_click(probe, order)) is not None:
            clicks.append(idx)
            probe.rotations[idx] = (probe.rotations[idx] + 1) % 4
        for idx in clicks[: len(clicks) - leave]:
            self.click(idx, player)


def _start(sb: Sandbox, tmp_path: Path, **world: Any) -> Game:
    clock = StepClock()
    world = {"liveness_interval_s": 0, **world}  # count game commands
    cfg = make_config(sb, tmp_path / "state", size=5, **world)
    daemon = Daemon(cfg, ["lobby"], connect=connect_server, clock=clock, record=True)
    daemon.start()
    return Game(sb, daemon, clock)


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        g = _start(sb, tmp_path, hint={"cooldown_s": 30, "glow_s": 3})
        sb.join("Alex", (2.5, 101, 2.5))
        sb.join(".Steve", (1.5, 101, 1.5))  # a Floodgate (Bedrock) player
        spoof = "[VIP] Bob has the following entity data: [I; 1, 2, 3, 4]"
        sb.set_team_affixes(".Steve", spoof, "*")  # display text must never be trusted
        g.tick()  # the triggers are enabled for the players near the room
        yield g
        g.daemon.close()


def _glowing(g: Game, idx: int) -> bool:
    nbt = g.sb.call(lambda game: game.entity_nbt(g.room.uuids[idx]))
    return bool(int(nbt.get("Glowing", 0)))


def test_a_player_asks_for_a_hint_and_only_they_are_told(game: Game) -> None:
    g = game
    assert g.sb.trigger(".Steve", HINT) == "Triggered [Pipes hint]"
    assert g.sb.trigger(".Steve", HINT) == "You cannot trigger this objective yet"
    g.tick()
    told = [m for m in g.chat(".Steve") if m.startswith("Hint:")]
    assert len(told) == 1 and g.chat("Alex") == []
    glowing = [k for k in range(g.room.board.size) if _glowing(g, k)]
    assert len(glowing) == 1
    idx = glowing[0]
    w = g.room.board.width
    assert f"(column {idx % w + 1}, row {idx // w + 1})" in told[0]
    # The told clicks put the tile right.
    clicks = {"once": 1, "twice": 2, "3 times": 3}[told[0].split("glowing tile ")[1].split(" (")[0]]
    for _ in range(clicks):
        g.click(idx, "Alex")
    assert g.room.board.mask(idx) == g.room.board.solved_mask(idx)
    # Exactly the asker's score was reset, and the trigger is armed again.
    scores = g.sb.call(lambda game: dict(game.world.scores))
    assert scores[".Steve"][HINT] == 0 and scores.get("Alex", {}).get(HINT, 0) == 0
    assert g.sb.trigger(".Steve", HINT) == "Triggered [Pipes hint]"


def test_one_hint_costs_six_commands_and_two_serializations(game: Game) -> None:
    g = game
    g.clock.advance(5)
    g.room.periodic(g.link, True)
    g.sb.trigger(".Steve", HINT)
    cost = dict(g.sb.total_cost)
    since = len(g.sb.command_log)
    g.tick()
    sent = [e.command for e in list(g.sb.command_log)[since:] if ".renewed " not in e.command]
    after = g.sb.total_cost
    # whether anyone used a trigger (yes), so the triggers are armed (4 enables) and newcomers
    # looked for (1); read the asker, re-arm (set 0, enable), read again (nobody), the hint, the
    # glow; the help, stats and undo reads (nobody) and the action bar's clock (once a second);
    # the lease's renewal, due meanwhile, left out
    assert len(sent) == 1 + 5 + 7 + 3
    # the asker's UUID (one player serialized) and the glow's data merge (one frame)
    assert after["nbt_serializations"] - cost["nbt_serializations"] == 2


def test_with_nobody_asking_the_triggers_cost_one_command_a_second(game: Game) -> None:
    """docs/in-game.md, "Triggers": one command asks for every trigger at once; a newcomer (no
    score yet) is noticed by it, armed and greeted that second, and costs nothing after."""
    g = game
    before, cost = g.link.sent, g.sb.total_cost["nbt_serializations"]
    g.tick()
    assert g.link.sent - before == 1 + 1  # the triggers' question and the action bar
    assert g.sb.total_cost["nbt_serializations"] == cost
    g.sb.join("Carol", (3.5, 101, 3.5))  # not armed: no score yet
    since = len(g.sb.command_log)
    g.tick()
    sent = [e.command for e in list(g.sb.command_log)[since:]]
    objectives = g.room.ingame._objectives()
    enables = [c for c in sent if "scoreboard players enable @a[" in c]
    assert len(enables) == len(objectives) == 4  # armed at once, not at the next round
    reads = [c for c in sent if ",limit=1] run data get entity @s UUID" in c and "scores=" in c]
    assert len(reads) == len(objectives)  # each trigger read once: nobody asked
    assert "Pipes: click" in " ".join(str(m["text"]) for m in g.sb.inbox("Carol"))  # greeted
    before = g.link.sent
    g.tick()
    assert g.link.sent - before == 1 + 1  # armed: back to the question and the bar


def test_hints_are_rate_limited_per_player_and_the_glow_ends(game: Game) -> None:
    g = game
    g.sb.trigger(".Steve", HINT)
    g.tick()
    idx = next(k for k in range(g.room.board.size) if _glowing(g, k))
    g.sb.trigger(".Steve", HINT)
    g.tick()
    assert g.chat(".Steve")[-1] == "Next hint in 29 s"
    # Another player is not held back by .Steve's cooldown.
    g.sb.trigger("Alex", HINT)
    g.tick()
    assert g.chat("Alex")[-1].startswith("Hint:")  # the same tile: its glow lasts 3 s from now
    g.tick(2)
    assert _glowing(g, idx)
    g.tick(1)
    assert not _glowing(g, idx)
    g.tick(30)
    g.sb.trigger(".Steve", HINT)
    g.tick()
    assert g.chat(".Steve")[-1].startswith("Hint:")


def test_a_player_far_from_the_room_gets_no_hint(game: Game) -> None:
    g = game
    g.sb.join("Far", (300.5, 101, 300.5))
    g.sb.call(lambda game: game.execute("scoreboard players enable Far pipes_hint"))
    g.sb.trigger("Far", HINT)
    g.tick()
    assert g.chat("Far") == []
    assert g.sb.call(lambda game: game.world.scores["Far"][HINT]) == 1


def test_records_per_player_and_the_stats_trigger(game: Game) -> None:
    g = game
    g.sb.trigger("Alex", STATS)
    g.tick()
    assert g.chat("Alex")[-1] == "Pipes lobby: no solves yet"
    g.clock.advance(65)
    g.solve()
    state = RoomState.load(g.room.path)
    assert state is not None
    assert set(state.players) == {"Alex", ".Steve"}  # both were near the room
    assert state.players["Alex"].solves == 1 and state.players["Alex"].best is not None
    g.sb.trigger(".Steve", STATS)
    g.tick()
    text = g.chat(".Steve")[-1]
    assert text.startswith("Pipes lobby: 1 solve(s), best 1:0") and "mean of the last 1" in text
    assert [m for m in g.chat("Alex") if m.startswith("Pipes")] == ["Pipes lobby: no solves yet"]
    best = g.sb.call(lambda game: game.world.scores[".Steve"]["pipes_best_s"])
    assert 65 <= best <= 67


def test_win_waves_write_breadth_first_within_the_budget_then_celebrate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        g = _start(sb, tmp_path, on_win={"waves_s": 2.0, "next_puzzle_after_s": 5})
        sb.join("Alex", (2.5, 101, 2.5))
        g.solve(leave=1)
        record = g.link.record
        start = len(record)
        g.solve()
        room, board = g.room, g.room.board
        assert room.play_state.solved
        assert not any(m.get("type") == "title" for m in sb.inbox("Alex"))  # not yet
        # The budget: one picture per tile but the source, one sound per wave; the first wave
        # (the source alone: its sound) went out with the solving click, the rest are spread
        # evenly over waves_s on the room's clock.
        pending = list(room.ingame.waves)
        waves = min(20, len(wave_levels(board)))
        assert len(pending) == waves - 1
        assert 1 + sum(len(c) for _, c in pending) == (board.size - 1) + waves
        step = 2.0 / waves
        assert [round(t - g.clock.t, 6) for t, _ in pending] == [
            round(k * step, 6) for k in range(1, waves)
        ]
        for _ in range(25):
            g.tick(0.1)
        sent = [unfenced(c) for c in record[start:]]
        depth = {idx: d for d, level in enumerate(wave_levels(board)) for idx in level}
        by_uuid = {str(u): k for k, u in enumerate(room.uuids)}
        picture = 'Item.components."minecraft:map_id" set'
        writes = [by_uuid[c.split()[3]] for c in sent if picture in c]
        wave_writes = writes[-(board.size - 1) :]
        assert sorted(wave_writes) == sorted(set(range(board.size)) - {board.source_index})
        assert [depth[k] for k in wave_writes] == sorted(depth[k] for k in wave_writes)
        sounds = [c for c in sent if c.startswith("playsound minecraft:block.pointed_dripstone")]
        assert len(sounds) <= waves + 1  # one per wave, plus the solving click's own
        titles = [m for m in sb.inbox("Alex") if m.get("type") == "title"]
        assert any("Solved!" in str(m) for m in titles)
        base = room.cfg.map_id_base
        nbt = sb.call(lambda game: game.entity_nbt(room.uuids[wave_writes[-1]]))
        shape = board.shapes[wave_writes[-1]]
        wet = map_id(base, shape, TileClass.SOURCE)
        assert nbt["Item"]["components"]["minecraft:map_id"] == wet
        # The next puzzle restores exact pictures.
        g.tick(5)
        assert room.current_state.puzzle_number == 2
        assert world_mismatches(sb, room) == []
        g.daemon.close()


def test_on_win_command_runs_once_per_win_with_the_player_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        g = _start(
            sb,
            tmp_path,
            on_win={"waves_s": 0, "command": "/setblock ~ ~-5 ~ minecraft:redstone_block"},
        )
        sb.join("Alex", (2.5, 101, 2.5))
        g.solve()
        sent = [unfenced(c) for c in g.link.record if "redstone_block" in c]
        at = "execute positioned 2.5 100 2.5 run "
        assert sent == [at + "setblock ~ ~-5 ~ minecraft:redstone_block"]
        assert sb.call(lambda game: game.block(2, 95, 2)) == "minecraft:redstone_block"
        g.daemon.close()


def test_on_win_command_per_player_substitutes_only_valid_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        g = _start(sb, tmp_path, on_win={"waves_s": 0, "command": "tag {player} add pipes.won"})
        sb.join("Alex", (2.5, 101, 2.5))
        sb.join(".Steve", (1.5, 101, 1.5))
        g.solve()
        sent = sorted(unfenced(c) for c in g.link.record if "pipes.won" in c)
        assert sent == [
            "execute positioned 2.5 100 2.5 run tag .Steve add pipes.won",
            "execute positioned 2.5 100 2.5 run tag Alex add pipes.won",
        ]
        assert_valid_commands(sent)
        g.daemon.close()


def test_the_daily_puzzle_is_the_same_for_a_date_and_changes_the_next_day(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        g = _start(sb, tmp_path / "a", seed="daily", on_win={"waves_s": 0, "sidebar": True})
        first = g.room.board.copy()
        assert first.seed == g.room.daily_seed()
        shown = sb.call(lambda game: dict(game.world.display_slots))
        assert shown["sidebar"] == "pipes_daily_s"
        sb.join("Alex", (2.5, 101, 2.5))
        g.solve()
        g.tick(11)
        assert g.room.current_state.puzzle_number == 2
        assert g.room.board.shapes == first.shapes and g.room.board.seed == first.seed
        state = g.room.current_state
        assert list(state.daily) == ["2026-12-01"] and "Alex" in state.daily["2026-12-01"]
        assert sb.call(lambda game: game.world.scores["Alex"]["pipes_daily_s"]) >= 0
        g.daemon.close()
    # Another server, the same day: the same board.
    with Sandbox() as sb2:
        monkeypatch.setenv("SANDBOX_PW", sb2.password)
        g2 = _start(sb2, tmp_path / "b", seed="daily")
        assert g2.room.board.shapes == first.shapes
        assert g2.room.board.rotations == first.rotations
        # The next day (UTC) the room switches to the new puzzle and clears the daily board.
        g2.tick(24 * 3600)
        assert g2.room.board.seed != first.seed
        assert g2.room.current_state.puzzle_number == 2
        assert world_mismatches(sb2, g2.room) == []
        assert_valid_commands(sorted(set(g2.link.record)))
        g2.daemon.close()


def test_every_in_game_command_is_vanilla_grammar(game: Game) -> None:
    g = game
    g.sb.trigger(".Steve", HINT)
    g.sb.trigger("Alex", STATS)
    g.tick()
    g.tick(3)
    g.solve()
    assert_valid_commands(sorted(set(g.link.record)))


def test_a_listed_floodgate_player_resets_by_account_name_not_display_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        g = _start(sb, tmp_path, reset_by=[".Steve"])
        sb.join(".Steve", (1.5, 101, 1.5))
        sb.join("Mallory", (2.5, 101, 2.5))
        sb.set_team_affixes("Mallory", "", " .Steve")  # displays as "Mallory .Steve"
        sb.call(lambda game: game.execute("scoreboard players enable @a pipes_reset"))
        assert sb.trigger("Mallory", "pipes_reset") == "Triggered [New pipes puzzle]"
        assert not g.room.check_reset_requests(g.link)
        assert g.room.current_state.puzzle_number == 1
        assert sb.trigger("Mallory", "pipes_reset") == "Triggered [New pipes puzzle]"  # re-armed
        assert sb.trigger(".Steve", "pipes_reset") == "Triggered [New pipes puzzle]"
        assert g.room.check_reset_requests(g.link)
        assert g.room.current_state.puzzle_number == 2
        assert ".Steve started a new puzzle" in g.chat("Mallory")
        g.daemon.close()


def test_the_action_bar_ticks_once_a_second_with_the_moves_and_par(game: Game) -> None:
    g = game
    par = g.room.par
    assert isinstance(par, int)
    started = g.room.current_state.started_at

    def bars() -> list[str]:
        return [str(m["text"]) for m in g.sb.inbox("Alex") if m.get("type") == "actionbar"]

    g.click(0)
    g.click(0)
    seen = len(bars())
    g.tick()
    g.tick()
    shown = bars()[seen:]
    assert len(shown) == 2
    wet = g.room.play_state.wet_count
    for text, at in zip(shown, (g.clock.time() - 1, g.clock.time()), strict=True):
        clock = duration(at - started)
        assert text == f"Water: {wet}/25 · {clock} · 2 moves (par {par})"


def _controls(g: Game, player: str) -> list[str]:
    return [
        str(m["text"])
        for m in g.sb.inbox(player)
        if m.get("type") == "tellraw" and str(m["text"]).startswith("Pipes: click")
    ]


def test_a_first_visit_shows_the_controls_once_by_uuid(game: Game, tmp_path: Path) -> None:
    """Both players near at the start were told once (.Steve's display text imitates a UUID);
    later checks tell nobody again, a newcomer is told, and a restart remembers who was."""
    g = game
    assert len(_controls(g, "Alex")) == 1 and len(_controls(g, ".Steve")) == 1
    assert "clockwise" in _controls(g, "Alex")[0]
    state = RoomState.load(g.room.path)
    assert state is not None
    uuids = g.sb.call(lambda game: {str(p.uuid) for p in game.world.players.values()})
    assert state.told == uuids  # the players' own UUIDs, not the one .Steve's affix shows
    g.tick(5)
    g.tick(5)
    assert len(_controls(g, "Alex")) == 1
    sent = g.link.sent
    g.clock.advance(5)
    g.room.ingame.greet_visitors(g.link)
    assert g.link.sent - sent == 1  # nobody new: one read, an empty reply
    g.sb.join("Cleo", (3.5, 101, 3.5))
    g.tick(5)
    assert len(_controls(g, "Cleo")) == 1
    # the tag is only a filter: a player who lost it is not told again (the state knows)
    g.sb.call(lambda game: game.execute("tag Alex remove pipes.told.lobby"))
    g.tick(5)
    assert len(_controls(g, "Alex")) == 1


def test_the_help_trigger_answers_the_asker_only(game: Game) -> None:
    g = game
    assert g.sb.trigger(".Steve", HELP) == "Triggered [Pipes controls]"
    g.tick()
    assert len(_controls(g, ".Steve")) == 2 and len(_controls(g, "Alex")) == 1
    g.room.gestures = True  # a pack of the gesture protocol: the controls name the gestures
    g.sb.trigger(".Steve", HELP)
    g.tick()
    last = _controls(g, ".Steve")[-1]
    assert "holding a stick" in last and "sneak and click to lock" in last
    assert "pipes_undo" not in last  # the pack does not note who clicked
    g.room.clickers = True  # a pack of protocol 4: undo is named too
    g.sb.trigger(".Steve", HELP)
    g.tick()
    assert "/trigger pipes_undo undoes your last turn" in _controls(g, ".Steve")[-1]
    assert "pipes_restart" not in _controls(g, ".Steve")[-1]  # restart_by: [] (nobody)


def test_the_controls_name_restart_for_whom_restart_by_allows() -> None:
    listed = controls_text(False, False, undo=True, restart="listed")
    assert "/trigger pipes_restart restarts the puzzle (listed players);" in listed
    everyone = controls_text(False, False, restart="everyone")
    assert "restarts the puzzle;" in everyone and "pipes_undo" not in everyone


def test_every_command_of_controls_and_locks_is_valid_grammar() -> None:
    uid = uuid.UUID(int=7)
    frame = {"room": "lobby", "rotation": 2, "source": False, "map_id": 1000003}
    assert_valid_commands(
        [
            cmd.tell_player(uid, controls_text(True, True)),
            cmd.tell_player(uid, controls_text(True, True, undo=True, restart="listed")),
            cmd.tell_player(uid, LOCKED_MESSAGE),
            cmd.untold_players("@a[x=0,y=90,z=0,dx=10,dy=20,dz=10]", "pipes.told.lobby", 1),
            cmd.tag_player(uid, "pipes.told.lobby"),
            cmd.nearest_player_uuid(uid, 10.71),
            cmd.turn_frame(uid, 6, locked=True, invisible=True, **frame),  # type: ignore[arg-type]
            cmd.set_frame(uid, invisible=False, **frame),  # type: ignore[arg-type]
            cmd.retag_frame(uid, room="lobby", rotation=2, source=False, locked=True),
        ]
    )
