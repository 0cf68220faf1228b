"""Configuration: the default file, every error at once with its path, lookup, passwords."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import (
    default_config_text,
    load_config,
    locate_config,
    parse_config,
)
from controller.errors import ConfigError, ExitCode

ROOT = Path(__file__).resolve().parents[1]


def _world(**kw: object) -> dict[str, object]:
    return {"origin": [0, 64, 0], "server": "main", **kw}


def _cfg(**worlds: dict[str, object]) -> dict[str, object]:
    return {"servers": {"main": {"password_env": "X"}}, "worlds": worlds}


def test_shipped_config_is_the_init_template_and_valid() -> None:
    assert (ROOT / "config" / "pipes.yaml").read_text() == default_config_text()
    cfg = load_config(ROOT / "config" / "pipes.yaml")
    lobby = cfg.worlds["lobby"]
    assert (lobby.width, lobby.height) == (15, 15)
    assert lobby.poll_interval_ms == 50 and lobby.poll_scope == "near_players"
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
    assert locate_config() == Path("config/pipes.yaml")
    monkeypatch.setenv("PIPESCTL_CONFIG", "/etc/x.yaml")
    assert locate_config() == Path("/etc/x.yaml")
    assert locate_config("given.yaml") == Path("given.yaml")


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
    with pytest.warns(UserWarning, match="inline password"):
        cfg = parse_config({"servers": {"a": {"password": "hunter22"}}})
    server = cfg.servers["a"]
    assert server.resolve_password() == "hunter22"
    assert "hunter22" not in repr(server) and "hunter22" not in repr(cfg)
