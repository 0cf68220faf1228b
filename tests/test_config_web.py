"""The metrics and web page keys: off by default, ports 1..65535, bind addresses parsed, and
the template's commented lines valid once uncommented."""

from __future__ import annotations

import pytest

from controller.config import default_config_text, parse_config
from controller.errors import ConfigError

BASE: dict[str, object] = {"servers": {"main": {"password_env": "X"}}, "worlds": {}}


def test_both_are_off_by_default_on_loopback() -> None:
    cfg = parse_config(BASE)
    assert cfg.metrics_port is None and cfg.web_port is None
    assert cfg.metrics_bind == "127.0.0.1" and cfg.web_bind == "127.0.0.1"


@pytest.mark.parametrize(
    ("keys", "problem"),
    [
        ({"metrics_port": 0}, "metrics_port: Input should be greater than or equal to 1"),
        ({"web_port": 65536}, "web_port: Input should be less than or equal to 65535"),
        ({"web_port": "eighty"}, "web_port: Input should be a valid integer"),
        ({"web_bind": "localhost"}, "web_bind: 'localhost' is not an IP address"),
        ({"metrics_bind": "10.0.0.300"}, "metrics_bind: '10.0.0.300' is not an IP address"),
        ({"web_port": 9000, "metrics_port": 9000}, "metrics_port and web_port are both 9000"),
    ],
)
def test_bad_values_are_named(keys: dict[str, object], problem: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({**BASE, **keys}, "pipes.yaml")
    assert any(problem in p for p in info.value.problems), info.value.problems


def test_addresses_are_kept_in_their_plain_form() -> None:
    cfg = parse_config({**BASE, "metrics_port": 9100, "metrics_bind": " ::1 ", "web_port": 80,
                        "web_bind": "0.0.0.0"})  # fmt: skip
    assert (cfg.metrics_bind, cfg.metrics_port, cfg.web_bind, cfg.web_port) == (
        "::1",
        9100,
        "0.0.0.0",
        80,
    )


def test_the_templates_commented_keys_are_valid() -> None:
    import yaml

    text = default_config_text()
    keys = ("# metrics_port:", "# metrics_bind:", "# web_port:", "# web_bind:")
    lines = [
        line.removeprefix("# ") if line.startswith(keys) else line for line in text.splitlines()
    ]
    cfg = parse_config(yaml.safe_load("\n".join(lines)))
    assert (cfg.metrics_port, cfg.metrics_bind, cfg.web_port, cfg.web_bind) == (
        9100,
        "127.0.0.1",
        8080,
        "127.0.0.1",
    )
