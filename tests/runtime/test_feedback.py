"""What players see and hear: every feedback command is vanilla grammar and says what it should."""

from __future__ import annotations

import json

from controller.config import parse_config
from controller.puzzle.sink import RouteProgress
from controller.runtime.feedback import RESET, SOLVES, Feedback, duration
from controller.world.geometry import Room as Geometry
from tests.support.grammar import assert_valid_commands


def _feedback(**world: object) -> Feedback:
    lobby = {"server": "main", "origin": [0, 100, 0], "size": [7, 7], **world}
    cfg = parse_config(
        {"servers": {"main": {"password_env": "PW"}}, "worlds": {"lobby": lobby}}
    ).worlds["lobby"]
    geom = Geometry("lobby", cfg.origin, cfg.width, cfg.height, cfg.dimension, cfg.clear_above)
    return Feedback("lobby", geom, cfg)


def test_every_feedback_command_is_vanilla_grammar() -> None:
    fb = _feedback(reset_by=["Steve", "Alex"], on_win={"sidebar": True})
    commands = [
        *fb.objectives(),
        *fb.celebration(83.4, 17, 61.0),
        fb.mark_winners(),
        fb.pay_winners(),
        fb.best_time(61.0),
        fb.action_bar(3, 49, 83.0, 12),
        fb.action_bar(3, 49, 4000.0, 7, 5),
        fb.action_bar(3, 49, 4000.0, 7, 5, route=RouteProgress(7, 20, True)),
        *fb.hint(2, 5, 3),
        fb.any_reset_request(),
        fb.allowed_asker("Steve"),
        fb.allowed_asker(".Steve"),
        fb.allowed_asker("*Bob"),
        *fb.rearm(),
        fb.reset_announcement("Steve"),
    ]
    assert_valid_commands(commands)


def test_objectives_follow_the_config() -> None:
    plain = _feedback(on_win={"sidebar": False}).objectives()
    assert not any("setdisplay" in c or RESET in c for c in plain)
    full = _feedback(reset_by=["Steve"], on_win={"sidebar": True}).objectives()
    assert f"scoreboard objectives setdisplay sidebar {SOLVES}" in full
    assert f"scoreboard players enable Steve {RESET}" in full


def test_celebration_formats_the_message_and_records_the_best_time() -> None:
    fb = _feedback(on_win={"message": "{room} solved in {time} ({moves} moves)"})
    commands = fb.celebration(125.2, 9, 61.7)
    tellraw = next(c for c in commands if c.startswith("tellraw"))
    assert json.loads(tellraw.split(" ", 2)[2]) == "lobby solved in 2:05 (9 moves)"
    assert fb.best_time(61.7) == "scoreboard players set #lobby pipes_best_s 61"


def test_reset_requests_are_matched_and_cleared_by_selectors_never_by_reply_text() -> None:
    fb = _feedback(reset_by=["+Bob"])
    asked = fb.askers
    assert asked.startswith("@a[") and asked.endswith(",scores={pipes_reset=1..}]")
    assert fb.allowed_asker("+Bob") == f'execute if entity {asked[:-1]},name="+Bob"]'
    assert fb.rearm() == [
        f"scoreboard players enable {asked} pipes_reset",
        f"scoreboard players set {asked} pipes_reset 0",
    ]


def test_duration() -> None:
    assert [duration(s) for s in (0, 59.6, 61, 3599, 3600, 3725)] == [
        "0:00", "1:00", "1:01", "59:59", "1:00:00", "1:02:05",
    ]  # fmt: skip


def test_the_sidebar_shows_the_configured_leaderboard() -> None:
    def shown(**world: object) -> str:
        out = _feedback(**world).objectives()
        return next(c for c in out if "setdisplay" in c).split()[-1]

    assert shown(on_win={"sidebar": True}) == SOLVES
    assert shown(on_win={"sidebar": True}, leaderboard="best_time") == "pipes_best_s"
    assert shown(on_win={"sidebar": True}, seed="daily") == "pipes_daily_s"
    assert_valid_commands(_feedback(seed="daily", on_win={"sidebar": True}).objectives())


def test_turn_sounds_are_the_frame_kinds_in_the_neutral_source() -> None:
    """Item frames: sounds: a player's turn plays the frame kind's rotate_item sound in the
    `neutral` source (Entity.getSoundSource); the water sound stays a block sound."""
    item = _feedback().turn_sounds((1, 2), [(3, 4)])
    assert item == [
        "playsound minecraft:entity.item_frame.rotate_item neutral "
        "@a[x=1.5,y=100.1,z=2.5,distance=..16] 1.5 100.1 2.5",
        "playsound minecraft:block.pointed_dripstone.drip_water block "
        "@a[x=3.5,y=100.1,z=4.5,distance=..16] 3.5 100.1 4.5",
    ]
    glow = _feedback(frame="glow_item_frame").turn_sounds((1, 2), [])
    assert glow == [
        "playsound minecraft:entity.glow_item_frame.rotate_item neutral "
        "@a[x=1.5,y=100.1,z=2.5,distance=..16] 1.5 100.1 2.5"
    ]
    # a configured sound is kept whatever the frame kind; null still turns it off
    chosen = _feedback(frame="glow_item_frame", sounds={"turn": "minecraft:block.note_block.bell"})
    assert chosen.turn_sounds((0, 0), []) == [
        "playsound minecraft:block.note_block.bell neutral "
        "@a[x=0.5,y=100.1,z=0.5,distance=..16] 0.5 100.1 0.5"
    ]
    assert _feedback(frame="glow_item_frame", sounds={"turn": None}).turn_sounds((0, 0), []) == []
    assert_valid_commands([*item, *glow])


def test_a_sink_rooms_action_bar_shows_the_route_progress() -> None:
    fb = _feedback()
    bar = fb.action_bar(9, 49, 83.4, 12, 9, route=RouteProgress(7, 20, False))
    assert bar.endswith(' actionbar "Route: 7/20 (0.35) · 1:23 · 12 moves (par 9)"')
    done = fb.action_bar(30, 49, 83.4, 12, route=RouteProgress(20, 20, True))
    assert done.endswith(' actionbar "Route: 20/20 + sink (2.00) · 1:23 · 12 moves"')


def test_the_action_bar_shows_water_clock_moves_and_par() -> None:
    fb = _feedback()
    assert fb.action_bar(3, 49, 83.4, 12).endswith(' actionbar "Water: 3/49 · 1:23 · 12 moves"')
    assert fb.action_bar(49, 49, 3725, 60, 58).endswith(
        ' actionbar "Water: 49/49 · 1:02:05 · 60 moves (par 58)"'
    )
