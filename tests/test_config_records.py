"""The `records` key: SQLite by default, a PostgreSQL URL (short or as a mapping), the password
kept out of the URL and never echoed, the server's name in the network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.config import Config, parse_config
from controller.errors import ConfigError
from controller.records.setup import server_name, target_of


def _config(tmp_path: Path, **top: Any) -> Config:
    data = {
        "state_dir": str(tmp_path / "state"),
        "servers": {"main": {"password_env": "PW"}},
        "worlds": {"lobby": {"server": "main", "origin": [0, 100, 0]}},
        **top,
    }
    return parse_config(data)


def test_without_records_the_store_is_sqlite_in_the_state_dir(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    target = target_of(cfg)
    assert (target.kind, target.location) == ("sqlite", str(tmp_path / "state" / "records.sqlite3"))
    assert not target.shared
    assert server_name(cfg, "lobby") == "main"
    assert not any("records" in w for w in cfg.warnings)


def test_a_url_alone_is_a_shared_postgresql_store_and_the_name_is_warned_about(
    tmp_path: Path,
) -> None:
    cfg = _config(tmp_path, records="postgresql://pipes@db.example:5432/pipes")
    target = target_of(cfg)
    assert (target.kind, target.location, target.password) == (
        "postgresql", "postgresql://pipes@db.example:5432/pipes", None,
    )  # fmt: skip
    assert target.shared
    assert any(w.startswith("records.server_name: not set") for w in cfg.warnings)


def test_the_password_comes_from_the_environment_or_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = "postgresql://pipes@127.0.0.1/pipes"
    monkeypatch.setenv("PIPES_DB_PW", "from-env-secret")
    cfg = _config(tmp_path, records={"url": url, "password_env": "PIPES_DB_PW",
                                     "server_name": "lobby-1"})  # fmt: skip
    assert target_of(cfg).password == "from-env-secret"
    assert "from-env-secret" not in repr(target_of(cfg))
    assert server_name(cfg, "lobby") == "lobby-1" and cfg.warnings == ()
    secret = tmp_path / "db.pw"
    secret.write_text("from-file-secret\n")
    cfg = _config(tmp_path, records={"url": url, "password_file": str(secret)})
    assert target_of(cfg).password == "from-file-secret"
    monkeypatch.delenv("PIPES_DB_PW")
    cfg = _config(tmp_path, records={"url": url, "password_env": "PIPES_DB_PW"})
    with pytest.raises(ConfigError, match=r"records.password_env: \$PIPES_DB_PW is not set"):
        target_of(cfg)


@pytest.mark.parametrize(
    ("records", "problem"),
    [
        ("postgresql://pipes:hunter2hunter2@db/pipes", "a password inside the URL is refused"),
        ("postgresql://pipes@db/pipes?password=hunter2hunter2", "a password inside the URL"),
        ("mysql://pipes@db/pipes", "must be a postgresql://user@host:port/database URL"),
        ("postgresql://pipes@db", "needs a host and a database"),
        ("postgresql://pipes@db:99999/pipes", "valid port"),
        ({"url": "postgresql://p@db/x", "server_name": "no spaces"}, "records.server_name"),
        ({"password_env": "X"}, "password_env and password_file go with a PostgreSQL `url`"),
        ({"url": "postgresql://p@db/x", "refresh_s": 0}, "records.refresh_s"),
        ({"uri": "postgresql://p@db/x"}, "records.uri"),
    ],
)
def test_bad_records_config_is_a_clear_error_that_never_echoes_a_password(
    tmp_path: Path, records: Any, problem: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        _config(tmp_path, records=records)
    assert problem in str(caught.value)
    assert "hunter2" not in str(caught.value)
