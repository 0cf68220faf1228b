"""Configuration values that reach commands: player names, win message, sound, state folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.config import load_config, parse_config, resolve_state_dir, valid_player_name
from controller.errors import ConfigError


def _cfg(**world: object) -> dict[str, object]:
    lobby = {"origin": [0, 64, 0], "server": "main", **world}
    return {"servers": {"main": {"password_env": "X"}}, "worlds": {"lobby": lobby}}


def _problems(**world: object) -> str:
    with pytest.raises(ConfigError) as info:
        parse_config(_cfg(**world))
    return str(info.value)


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("Steve", True),
        ("abcdefghijklmnop", True),  # 16 characters
        ("abcdefghijklmnopq", False),
        (".Steve", True),
        ("+Bob", True),
        ("-Bob", True),
        ("*Bob", False),  # "*" is a prefix only when configured (test below)
        (".abcdefghijklmno", True),  # prefix + 15 = 16
        (".abcdefghijklmnop", False),
        ("@e", False),
        ("@a[name=x]", False),
        ("Steve ✦", False),
        ("St", False),
        ("#lobby", False),
        ('Ste"ve', False),
        ("", False),
    ],
)
def test_player_names(name: str, ok: bool) -> None:
    assert valid_player_name(name) is ok


def test_bad_reset_by_names_are_refused_with_their_path() -> None:
    text = _problems(reset_by=["Steve", "@e", "Steve ✦"])
    assert "worlds.lobby.reset_by: not a player name: '@e', 'Steve ✦'" in text
    assert "Steve'" not in text.replace("'Steve ✦'", "")


def test_restart_by_takes_account_names_or_everyone_alone() -> None:
    assert parse_config(_cfg(restart_by=["Steve", ".Alex"])).worlds["lobby"].restart_by == [
        "Steve",
        ".Alex",
    ]
    assert parse_config(_cfg(restart_by=["*"])).worlds["lobby"].restart_by == ["*"]
    assert parse_config(_cfg()).worlds["lobby"].restart_by == []  # nobody by default
    assert "worlds.lobby.restart_by: not a player name: '@a'" in _problems(restart_by=["@a"])
    text = _problems(restart_by=["*", "Steve"])
    assert 'worlds.lobby.restart_by: "*" (everyone) stands alone' in text
    assert "worlds.lobby.reset_by" in _problems(reset_by=["*"])  # only restart_by has everyone


def test_name_prefixes_are_configurable() -> None:
    assert parse_config(_cfg(name_prefixes=["+"], reset_by=["+Steve"]))
    assert "worlds.lobby.reset_by" in _problems(name_prefixes=["+"], reset_by=[".Steve"])
    assert "worlds.lobby.name_prefixes" in _problems(name_prefixes=['"'])
    assert "worlds.lobby.name_prefixes" in _problems(name_prefixes=["!"])
    assert parse_config(_cfg(name_prefixes=[".", "*"], reset_by=[".Steve", "*Bob"]))


@pytest.mark.parametrize(
    ("message", "why"),
    [
        ("Well done {player}", "unknown placeholder {player}"),
        ("{time!r}", "unknown placeholder {time}"),
        ("{moves:>5}", "unknown placeholder {moves}"),
        ("{", "not a valid message template"),
        ("x" * 1500, "must be at most 256 characters"),
        ("line\nbreak", "must not contain control characters"),
    ],
)
def test_bad_win_messages_are_refused_at_load(message: str, why: str) -> None:
    text = _problems(on_win={"message": message})
    assert f"worlds.lobby.on_win.message: {why}" in text


def test_good_win_message_and_braces() -> None:
    cfg = parse_config(_cfg(on_win={"message": "{{{room}}} in {time}, {moves} moves ✦"}))
    assert cfg.worlds["lobby"].on_win.message.startswith("{{")


@pytest.mark.parametrize("sound", ["a b", 'x"y', "minecraft:UI", "x run kill @e"])
def test_bad_sound_ids_are_refused(sound: str) -> None:
    assert "worlds.lobby.on_win.sound: must be a sound id" in _problems(on_win={"sound": sound})


def test_state_dir_is_relative_to_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "etc"
    folder.mkdir()
    (folder / "pipes.yaml").write_text(
        "version: 1\nstate_dir: state\nservers:\n  main: {password: long-random-secret-42}\n"
        "worlds:\n  lobby: {origin: [0, 100, 0]}\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    cfg = load_config(Path("../etc/pipes.yaml"))
    assert Path(cfg.state_dir) == (folder / "state").resolve()
    assert os.path.isabs(cfg.state_dir)


def _config_with_state_dir(folder: Path, state_dir: str | None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    line = "" if state_dir is None else f"state_dir: {state_dir}\n"
    path = folder / "pipes.yaml"
    path.write_text(
        f"version: 1\n{line}servers:\n  main: {{password: long-random-secret-42}}\n"
        "worlds:\n  lobby: {origin: [0, 100, 0]}\n"
    )
    return path


@pytest.mark.parametrize(
    ("state_dir", "expected"),
    [
        (None, "{sd}"),  # the default `state` is StateDirectory= itself
        ("state", "{sd}"),  # as `pipesctl init` writes it
        ("./state", "{sd}"),
        ("rooms", "{sd}/rooms"),
        ("state/rooms", "{sd}/state/rooms"),
        ("{abs}", "{abs}"),  # an absolute path is kept
    ],
)
def test_state_dir_under_systemd_state_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, state_dir: str | None, expected: str
) -> None:
    sd, absolute = tmp_path / "var-lib-pipesctl", tmp_path / "elsewhere" / "state"
    values = {"sd": str(sd), "abs": str(absolute)}
    path = _config_with_state_dir(
        tmp_path / "etc", None if state_dir is None else state_dir.format(**values)
    )
    monkeypatch.setenv("STATE_DIRECTORY", f"{sd}:{tmp_path / 'second'}")  # the first one counts
    assert Path(load_config(path).state_dir) == Path(expected.format(**values))


@pytest.mark.parametrize("value", ["", "relative/dir", ":/var/lib/x"])
def test_unusable_state_directory_falls_back_to_the_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    path = _config_with_state_dir(tmp_path / "etc", "state")
    monkeypatch.setenv("STATE_DIRECTORY", value)
    assert Path(load_config(path).state_dir) == (tmp_path / "etc" / "state").resolve()


def test_resolve_state_dir_reads_the_given_environment(tmp_path: Path) -> None:
    config = tmp_path / "etc" / "pipes.yaml"
    env = {"STATE_DIRECTORY": "/var/lib/pipesctl"}
    assert resolve_state_dir("state", config, env) == Path("/var/lib/pipesctl")
    assert resolve_state_dir("rooms", config, env) == Path("/var/lib/pipesctl/rooms")
    assert resolve_state_dir("/srv/state", config, env) == Path("/srv/state")
    assert resolve_state_dir("state", config, {}) == config.resolve().parent / "state"
