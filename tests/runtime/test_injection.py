"""No configured text can add a command or leave its JSON/SNBT/quoted string (property tests)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from controller.config import parse_config
from controller.errors import ConfigError
from controller.rcon.protocol import MAX_COMMAND_BYTES
from controller.runtime.feedback import Feedback, duration
from controller.world.geometry import Room as Geometry

TEXT = st.text(max_size=300) | st.sampled_from(['"}]', "\\", "\n/kill @e", '" run kill @e'])


def _feedback(**world: object) -> Feedback | None:
    lobby = {"server": "main", "origin": [0, 100, 0], "size": [7, 7], **world}
    try:
        cfg = parse_config(
            {"servers": {"main": {"password_env": "PW"}}, "worlds": {"lobby": lobby}}
        ).worlds["lobby"]
    except ConfigError:
        return None
    geom = Geometry("lobby", cfg.origin, cfg.width, cfg.height, cfg.dimension, cfg.clear_above)
    return Feedback("lobby", geom, cfg)


def _unquote(s: str) -> tuple[str, str]:
    """Read one Brigadier quoted string from the start of `s`; (value, rest)."""
    assert s[0] == '"'
    out, k = [], 1
    while s[k] != '"':
        if s[k] == "\\":
            k += 1
            assert s[k] in '"\\'
        out.append(s[k])
        k += 1
    return "".join(out), s[k + 1 :]


def _safe(command: str) -> None:
    assert "\n" not in command and "\r" not in command
    assert len(command.encode("utf-8")) <= MAX_COMMAND_BYTES


@given(TEXT)
def test_a_win_message_stays_inside_its_json_string(message: str) -> None:
    fb = _feedback(on_win={"message": message})
    if fb is None:
        return
    commands = fb.celebration(3599.9, 10**9, 12.0)
    tellraw = next(c for c in commands if c.startswith("tellraw "))
    _safe(tellraw)
    head, arg = tellraw.split(" ", 2)[1:]
    assert head == fb.near
    assert json.loads(arg) == message.format(time=duration(3599.9), moves=10**9, room="lobby")


@given(TEXT)
def test_a_sound_id_is_one_word(sound: str) -> None:
    fb = _feedback(on_win={"sound": sound})
    if fb is None:
        return
    play = next(c for c in fb.celebration(1, 1, 1) if " playsound " in c)
    _safe(play)
    assert play.split(" playsound ", 1)[1] == f"{sound} master @s"


@given(TEXT)
def test_a_player_name_is_one_quoted_string_or_refused(name: str) -> None:
    fb = _feedback(reset_by=[name])
    if fb is None:
        return
    check = fb.allowed_asker(name)
    _safe(check)
    value, rest = _unquote(check.split(",name=", 1)[1])
    assert value == name and rest == "]"
    enable = next(c for c in fb.objectives() if c.startswith("scoreboard players enable "))
    assert enable == f"scoreboard players enable {name} pipes_reset"
    assert " " not in name and not name.startswith(("@", "#"))
    announce = fb.reset_announcement(name)
    assert json.loads(announce.split(" ", 2)[2]) == f"{name} started a new puzzle"


@given(TEXT)
def test_room_names_and_dimensions_are_refused_unless_plain(value: str) -> None:
    fb = _feedback(dimension=value)
    if fb is not None:
        assert all(c.isalnum() or c in "_.-:/" for c in value)
    data = {"servers": {"main": {}}, "worlds": {value: {"origin": [0, 100, 0]}}}
    try:
        cfg = parse_config(data)
    except ConfigError:
        return
    (name,) = cfg.worlds
    assert all(c.islower() or c.isdigit() or c in "_-" for c in name)
