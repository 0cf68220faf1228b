"""The real server of the Docker tests: its settings, whether Docker answers, an RCON oracle.

``tests/docker/conftest.py`` starts the server (the ``mc_server`` fixture) and skips the
``docker`` tests when ``docker_available()`` is false; tests type against ``McServer`` and
cross-check replies with ``rcon_cli``.
"""

from __future__ import annotations

import gc
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "DOCKER_SKIP_REASON",
    "MAP_ID_BASE",
    "MATRIX",
    "MC_IMAGE",
    "MC_VERSION",
    "ServerKind",
    "image_for",
    "parse_matrix",
    "RCON_PASSWORD",
    "STARTUP_TIMEOUT_S",
    "McServer",
    "docker_available",
    "free_port",
    "install_data_pack",
    "install_map_art",
    "rcon_cli",
]

DOCKER_SKIP_REASON = "Docker engine not available"
MC_IMAGE = os.environ.get("PIPESCTL_TEST_MC_IMAGE")  # None: chosen by release (image_for)
MC_VERSION = os.environ.get("PIPESCTL_TEST_MC_VERSION", "26.1.2")


@dataclass(frozen=True)
class ServerKind:
    """One server of the matrix: itzg's `VERSION` and `TYPE` (VANILLA, PAPER, FABRIC …)."""

    version: str
    type: str = "VANILLA"

    @property
    def id(self) -> str:
        return f"{self.version}-{self.type.lower()}"


# The same releases and flavours as the sandbox's end-to-end matrix
# (tests/runtime/test_versions_e2e.py): the oldest supported, 1.21.4 (the last JSON-text
# release), 1.21.11 and the newest, on vanilla and Paper.
DEFAULT_MATRIX = " ".join(
    f"{version}:{kind}"
    for version in ("1.20.5", "1.21.4", "1.21.11", "26.2")
    for kind in ("VANILLA", "PAPER")
)


def parse_matrix(text: str) -> list[ServerKind]:
    """`VERSION[:TYPE]` entries separated by spaces or commas; TYPE defaults to VANILLA."""
    kinds = []
    for entry in text.replace(",", " ").split():
        version, _, kind = entry.partition(":")
        kinds.append(ServerKind(version, (kind or "VANILLA").upper()))
    return kinds


# PIPESCTL_TEST_MC_MATRIX picks the servers; PIPESCTL_TEST_MC_VERSION alone means that one
# vanilla server (the older single-server setting).
MATRIX = parse_matrix(
    os.environ.get("PIPESCTL_TEST_MC_MATRIX")
    or (MC_VERSION if "PIPESCTL_TEST_MC_VERSION" in os.environ else DEFAULT_MATRIX)
)


def image_for(version: str) -> str:
    """itzg's image for a release: Java 25 for 26.x, Java 21 for 1.20.5 to 1.21.x
    (docs/server-behaviour.md, "Versions: Java runtime"); PIPESCTL_TEST_MC_IMAGE overrides."""
    if MC_IMAGE:
        return MC_IMAGE
    major = version.split(".", 1)[0]
    return (
        "itzg/minecraft-server:java25"
        if major.isdigit() and int(major) >= 26
        else ("itzg/minecraft-server:java21")
    )


RCON_PASSWORD = "pipesctl-test-rcon"
MAP_ID_BASE = 1_000_000
STARTUP_TIMEOUT_S = 420  # first start downloads the server jar and generates the world


_available: bool | None = None


def _ping() -> bool:
    import docker

    client = docker.from_env(timeout=3)
    try:
        return bool(client.ping())
    finally:
        client.close()


def docker_available() -> bool:
    """Whether a Docker engine answers ``docker.from_env().ping()`` (cached for the session)."""
    global _available
    if _available is None:
        # A failed ping leaves docker-py's socket to the garbage collector; its ResourceWarning
        # would turn into an error at the end of the session (filterwarnings = error).
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            try:
                _available = _ping()
            except Exception:
                _available = False
            gc.collect()
    return _available


def free_port() -> int:
    """A TCP port free on loopback right now."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def install_map_art(world_dir: Path, version: str, base: int) -> dict[int, Path]:
    """Write the pictures into a world folder the way `pipesctl maps install` does."""
    from controller.maps import install_pictures, resolve_target
    from controller.world.mapart import all_pictures

    target = resolve_target(world_dir, None, version)
    plan = install_pictures(world_dir, all_pictures(base), target)
    return {item.map_id: item.path for item in plan}


def install_data_pack(world_dir: Path, version: str) -> None:
    """Write the companion data pack the way `pipesctl install` does."""
    from controller.maps.datapack import PACK_FOLDER, install_pack
    from controller.versions import release
    from controller.world.datapack import build

    install_pack(world_dir / "datapacks" / PACK_FOLDER, build(release(version)))


@dataclass(frozen=True)
class McServer:
    """A running server: its container, RCON address, and the host folder bound at /data."""

    container: Any  # testcontainers DockerContainer
    host: str
    rcon_port: int
    password: str
    data_dir: Path
    world_dir: Path
    version: str
    map_id_base: int
    map_paths: dict[int, Path]
    type: str = "VANILLA"


def rcon_cli(container: Any, cmd: str) -> str:
    """Run one command through the image's own ``rcon-cli`` (an oracle independent of ours)."""
    exit_code, output = container.exec(["rcon-cli", cmd])
    text = output.decode("utf-8", "replace") if isinstance(output, bytes) else str(output)
    if exit_code != 0:
        raise RuntimeError(f"rcon-cli {cmd!r} exited {exit_code}: {text.strip()}")
    return text.strip()
