"""The shipped docker/ files, checked without Docker: service order, secrets, pins, config."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from controller.config import parse_config

DOCKER = Path(__file__).resolve().parents[2] / "docker"
VAR = re.compile(r"\$\{(\w+)(?::?[-?]([^}]*))?\}")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DOCKER / "compose.yaml").read_text(encoding="utf-8"))
    return data


def with_defaults(text: str) -> str:
    """Interpolate ``${VAR:-default}`` with its default, as compose does with VAR unset."""
    return VAR.sub(lambda m: m[2] if m[2] is not None else "", text)


def test_maps_run_before_the_server_and_pipesctl_after_it_is_healthy(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    assert services["minecraft"]["depends_on"] == {
        "maps": {"condition": "service_completed_successfully"}
    }
    assert services["pipesctl"]["depends_on"] == {"minecraft": {"condition": "service_healthy"}}
    assert services["maps"]["command"][:4] == ["maps", "install", "--world-dir", "/data/world"]
    assert "--create" in services["maps"]["command"]  # it runs before the server made the world
    assert services["pipesctl"]["command"] == ["start", "--world", "lobby"]
    # the maps service writes into the very volume the server uses as /data
    assert "mc-data:/data" in services["maps"]["volumes"]
    assert "mc-data:/data" in services["minecraft"]["volumes"]
    assert any(v.endswith(":/state") for v in services["pipesctl"]["volumes"])


def test_server_is_pinned_and_rcon_stays_private(compose: dict[str, Any]) -> None:
    mc = compose["services"]["minecraft"]
    assert mc["image"].startswith("itzg/minecraft-server:") and "java25" in mc["image"]
    env = mc["environment"]
    assert env["EULA"] == "TRUE"
    assert re.fullmatch(r"\d+\.\d+(\.\d+)?", with_defaults(env["VERSION"]))
    assert env["ENABLE_RCON"] == "true" and env["BROADCAST_RCON_TO_OPS"] == "false"
    assert env["RCON_PASSWORD"].startswith("${RCON_PASSWORD:?")  # from .env, required
    for name, service in compose["services"].items():
        for port in service.get("ports", []):
            assert "25575" not in str(port), f"{name} publishes RCON"


def test_env_example_defines_every_variable(compose: dict[str, Any]) -> None:
    used = set(VAR.findall((DOCKER / "compose.yaml").read_text(encoding="utf-8")))
    names = {name for name, _ in used}
    example = (DOCKER / ".env.example").read_text(encoding="utf-8")
    defined = {line.split("=", 1)[0] for line in example.splitlines() if re.match(r"\w+=", line)}
    assert names <= defined


def test_inline_pipesctl_config_is_valid(compose: dict[str, Any]) -> None:
    content = with_defaults(compose["configs"]["pipes"]["content"])
    config = parse_config(yaml.safe_load(content), "compose.yaml")
    lobby = config.worlds["lobby"]
    server = config.servers[lobby.server]
    assert server.host == "minecraft" and server.password_env == "RCON_PASSWORD"
    assert server.version == with_defaults(
        compose["services"]["minecraft"]["environment"]["VERSION"]
    )
    assert config.state_dir == "/state"


def test_dockerfile_is_slim_non_root_with_healthcheck() -> None:
    text = (DOCKER / "Dockerfile").read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert any(line == "FROM python:3.11-slim" for line in lines)
    user = next(i for i, line in enumerate(lines) if line.startswith("USER "))
    assert lines[user].split()[1] not in ("root", "0")
    entry = next(i for i, line in enumerate(lines) if line.startswith("ENTRYPOINT"))
    assert user < entry and lines[entry] == 'ENTRYPOINT ["pipesctl"]'
    assert 'CMD ["pipesctl", "status"]' in text
    assert "pip install ." in text
