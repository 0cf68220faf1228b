"""Configuration: the default file, every error at once with its path, lookup, passwords."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import (
    config_candidates,
    default_config_text,
    load_config,
    locate_config,
    parse_config,
    weak_password,
)
from controller.errors import ConfigError, ExitCode

ROOT = Path(__file__).resolve().parents[1]


def _world(**kw: object) -> dict[str, object]:
    return {"origin": [0, 64, 0], "server": "main", **kw}


def _cfg(**worlds: dict[str, object]) -> dict[str, object]:
    return {"servers": {"main": {"password_env": "X"}}, "worlds": worlds}


def test_shipped_config_is_the_init_template_and_valid() -> None:
    example = ROOT / "config" / "pipes.example.yaml"
    assert example.read_text() == default_config_text()
    cfg = load_config(example)
    lobby = cfg.worlds["lobby"]
    assert (lobby.width, lobby.height) == (15, 15)
    assert lobby.poll_interval_ms == 50 and lobby.poll_scope == "near_players"
    assert (lobby.poll_reach, lobby.wake_distance) == (None, 48.0)  # the defaults
    assert cfg.servers["main"].detect == "auto"
    assert cfg.servers["main"].password_env == "RCON_PASSWORD"
    assert cfg.servers["main"].password is None


def test_every_problem_is_reported_at_once_with_its_path() -> None:
    data = {
        "servers": {"main": {"port": 0}},
        "worlds": {
            "Bad Name": {"origin": [0, 64, 0], "server": "main"},
            "small": {"origin": [100, 64, 0], "size": [2, 5], "server": "main"},
            "high": {"origin": [200, 318, 0], "server": "main"},
            "ghost": {"origin": [300, 64, 0], "server": "nowhere"},
        },
        "unknown_key": 1,
    }
    with pytest.raises(ConfigError) as info:
        parse_config(data, "pipes.yaml")
    problems = info.value.problems
    assert "servers.main.port: Input should be greater than or equal to 1" in problems
    assert "worlds.small.size: must be two integers 3..128" in problems
    assert "worlds.Bad Name: room names must match [a-z0-9_-]{1,32}" in problems
    assert any(p.startswith("worlds.high.origin: the room spans y 314..321") for p in problems)
    assert "worlds.ghost.server: unknown server 'nowhere'" in problems
    assert any(p.startswith("unknown_key:") for p in problems)
    assert info.value.exit_code == ExitCode.CONFIG


@pytest.mark.parametrize(
    ("a", "b", "overlap"),
    [
        ((0, 64, 0), (15, 64, 0), True),  # borders touch: the border ring is shared
        ((0, 64, 0), (17, 64, 0), False),
        ((0, 64, 0), (0, 71, 0), True),  # y0-4 of the upper room reaches the clear air below
        ((0, 64, 0), (0, 72, 0), False),
    ],
)
def test_overlapping_rooms_are_refused(
    a: tuple[int, ...], b: tuple[int, ...], overlap: bool
) -> None:
    data = _cfg(a=_world(origin=list(a)), b=_world(origin=list(b)))
    if overlap:
        with pytest.raises(ConfigError, match="worlds.b: overlaps room 'a'"):
            parse_config(data)
    else:
        assert set(parse_config(data).worlds) == {"a", "b"}


def test_rooms_in_other_dimensions_do_not_overlap() -> None:
    data = _cfg(a=_world(), b=_world(dimension="minecraft:the_nether"))
    assert len(parse_config(data).worlds) == 2


def test_yaml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "pipes.yaml"
    path.write_text("servers:\n  main: {host: [\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.problems[0].startswith(f"{path}:")


def test_missing_file_suggests_init(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="pipesctl init"):
        load_config(tmp_path / "nope.yaml")


def test_lookup_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PIPESCTL_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_candidates() == [
        Path("config/pipes.yaml"),
        tmp_path / "xdg" / "pipesctl" / "pipes.yaml",
        Path("/etc/pipesctl/pipes.yaml"),
    ]
    assert locate_config() == Path("config/pipes.yaml")  # nothing exists: the first
    xdg = tmp_path / "xdg" / "pipesctl" / "pipes.yaml"
    xdg.parent.mkdir(parents=True)
    xdg.write_text("")
    assert locate_config() == xdg
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "pipes.yaml").write_text("")
    assert locate_config() == Path("config/pipes.yaml")
    monkeypatch.setenv("PIPESCTL_CONFIG", "/etc/x.yaml")
    assert locate_config() == Path("/etc/x.yaml")
    assert locate_config("given.yaml") == Path("given.yaml")


def test_missing_file_names_every_place_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PIPESCTL_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    with pytest.raises(ConfigError) as info:
        load_config()
    assert info.value.problems == [
        f"config/pipes.yaml: no such file (looked in config/pipes.yaml, "
        f"{tmp_path}/xdg/pipesctl/pipes.yaml, /etc/pipesctl/pipes.yaml); "
        "run `pipesctl init` to write a commented one"
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "(top level): the file is empty; expected `version: 1`"),
        ("# only comments\n", "(top level): the file is empty; expected `version: 1`"),
        ("version: 1\n", "(top level): no servers and no worlds are configured; expected"),
        ("version: 7\nservers: {a: {}}\n", "version: 7 is not a configuration version"),
        ("version: '1'\nservers: {a: {}}\n", "version: '1' is not a configuration version"),
        ("[1, 2]\n", "(top level): must be a mapping; expected `version: 1`"),
    ],
)
def test_empty_and_unknown_version_configs_are_errors(
    text: str, problem: str, tmp_path: Path
) -> None:
    path = tmp_path / "pipes.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert any(p.startswith(problem) for p in info.value.problems), info.value.problems
    assert info.value.exit_code == ExitCode.CONFIG


def test_environment_twins_for_host_and_port(monkeypatch: pytest.MonkeyPatch) -> None:
    one = {"servers": {"main": {"password_env": "X"}}}
    monkeypatch.setenv("PIPESCTL_HOST", "10.0.0.5")
    monkeypatch.setenv("PIPESCTL_PORT", "25580")
    server = parse_config(one).servers["main"]
    assert (server.host, server.port) == ("10.0.0.5", 25580)
    monkeypatch.setenv("PIPESCTL_MAIN_PORT", "25590")  # the per-server name wins
    assert parse_config(one).servers["main"].port == 25590
    two = {"servers": {"main": {}, "build-2": {}}}
    cfg = parse_config(two)  # PIPESCTL_HOST is ambiguous with two servers: ignored
    assert cfg.servers["build-2"].host == "127.0.0.1" and cfg.servers["main"].port == 25590
    monkeypatch.setenv("PIPESCTL_BUILD_2_HOST", "mc2")
    assert parse_config(two).servers["build-2"].host == "mc2"
    monkeypatch.setenv("PIPESCTL_MAIN_PORT", "http")
    with pytest.raises(ConfigError, match="PIPESCTL_MAIN_PORT"):
        parse_config(two)


def test_password_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PW", "from-env")
    cfg = parse_config({"servers": {"a": {"password_env": "PW"}}})
    assert cfg.servers["a"].resolve_password("a") == "from-env"
    secret = tmp_path / "pw"
    secret.write_text("from-file\n")
    cfg = parse_config({"servers": {"a": {"password_file": str(secret)}}})
    assert cfg.servers["a"].resolve_password("a") == "from-file"
    monkeypatch.delenv("PW")
    cfg = parse_config({"servers": {"a": {"password_env": "PW"}}})
    with pytest.raises(ConfigError, match=r"servers.a.password_env: \$PW is not set"):
        cfg.servers["a"].resolve_password("a")


def test_inline_password_works_but_warns_and_never_shows() -> None:
    cfg = parse_config({"servers": {"a": {"password": "hunter22"}}})
    assert cfg.warnings == (
        "servers.a.password: an inline password is readable by anyone who can read the file; "
        "prefer password_env or password_file",
        "servers.a.password: weak password (fewer than 12 characters or a common word); "
        "use a long random one",
    )
    server = cfg.servers["a"]
    assert server.resolve_password() == "hunter22"
    assert "hunter22" not in repr(server) and "hunter22" not in repr(cfg)
    assert "hunter22" not in " ".join(cfg.warnings)
    strong = parse_config({"servers": {"a": {"password": "k3v9-Qz81-xx0p-Lm2w"}}})
    assert len(strong.warnings) == 1


def test_weak_password() -> None:
    assert weak_password("password") and weak_password("short")
    assert weak_password("Minecraft") and not weak_password("k3v9-Qz81-xx0p-Lm2w")


def test_in_game_settings_and_their_defaults() -> None:
    lobby = parse_config(_cfg(lobby=_world())).worlds["lobby"]
    assert lobby.hint.enabled and lobby.hint.cooldown_s == 30 and lobby.hint.glow_s == 3
    assert lobby.stats and lobby.leaderboard == "solves" and lobby.on_win.waves_s == 2.0
    assert lobby.on_win.command is None and lobby.seed is None
    daily = parse_config(_cfg(lobby=_world(seed="daily", leaderboard="best_time"))).worlds["lobby"]
    assert daily.seed == "daily" and daily.leaderboard == "best_time"


def test_in_game_settings_are_checked() -> None:
    worlds = {
        "a": _world(hint={"cooldown_s": -1}),
        "b": _world(origin=[100, 64, 0], leaderboard="fastest"),
        "c": _world(origin=[200, 64, 0], seed="weekly"),
        "d": _world(origin=[300, 64, 0], on_win={"waves_s": 11}),
    }
    with pytest.raises(ConfigError) as info:
        parse_config(_cfg(**worlds))
    problems = "\n".join(info.value.problems)
    for where in ("worlds.a.hint.cooldown_s", "worlds.b.leaderboard", "worlds.c.seed",
                  "worlds.d.on_win.waves_s"):  # fmt: skip
        assert where in problems, (where, problems)


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("say {winner}", "unknown placeholder {winner}"),
        ("say {players!r}", "unknown placeholder {players}"),
        ("say {players:>20}", "unknown placeholder {players}"),
        ("say {0}", "unknown placeholder {0}"),
        ("say {", "unbalanced braces"),
        ("say a\nsay b", "single line"),
        ("say \x07", "single line"),
        ("/", "must be a command"),
        ("say " + "x" * 600, "at most 512 characters"),
    ],
)
def test_on_win_command_is_validated_at_load(command: str, problem: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(_cfg(lobby=_world(on_win={"command": command})))
    assert any(p.startswith("worlds.lobby.on_win.command:") and problem in p
               for p in info.value.problems), info.value.problems  # fmt: skip


def test_on_win_command_drops_one_leading_slash() -> None:
    cfg = parse_config(_cfg(lobby=_world(on_win={"command": " /setblock 1 2 3 stone"})))
    assert cfg.worlds["lobby"].on_win.command == "setblock 1 2 3 stone"


def _server(**server: object) -> dict[str, object]:
    return {"servers": {"main": {"password_env": "X", **server}}, "worlds": {"lobby": _world()}}


def test_the_server_version_is_detected_unless_configured() -> None:
    assert parse_config(_server()).servers["main"].release is None
    pinned = parse_config(_server(version=" 1.21.4 ")).servers["main"]
    assert pinned.release is not None and pinned.release.name == "1.21.4"
    assert pinned.version == "1.21.4"


def test_the_old_version_key_still_pins_with_a_warning() -> None:
    cfg = parse_config(_server(minecraft_version="26.1"))
    release = cfg.servers["main"].release
    assert release is not None and release.name == "26.1"
    assert any(w.startswith("servers.main.minecraft_version: the old name") for w in cfg.warnings)
    same = parse_config(_server(version="26.1.0", minecraft_version="26.1")).servers["main"]
    assert same.release == release


def test_two_version_keys_that_disagree_are_refused() -> None:
    with pytest.raises(ConfigError) as bad:
        parse_config(_server(version="26.1", minecraft_version="1.21.4"))
    assert bad.value.exit_code == ExitCode.CONFIG
    assert bad.value.problems == [
        "servers.main: version '26.1' and minecraft_version '1.21.4' disagree; keep `version` "
        "(minecraft_version is its old name)"
    ]


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
def test_a_room_takes_a_difficulty_level(level: str) -> None:
    room = parse_config(_cfg(a={"origin": [0, 64, 0], "difficulty": level})).worlds["a"]
    assert room.difficulty == level


@pytest.mark.parametrize(
    ("keys", "says"),
    [
        ({"difficulty": "impossible"}, "difficulty"),
        ({"difficulty": "hard", "unique": False}, "difficulty hard needs unique: true"),
        ({"difficulty": "expert", "mode": "sink"}, "applies to tree rooms, not sink rooms"),
    ],
)
def test_a_difficulty_a_room_cannot_have_is_a_config_error(
    keys: dict[str, object], says: str
) -> None:
    with pytest.raises(ConfigError, match=says):
        parse_config(_cfg(a={"origin": [0, 64, 0], **keys}))
