"""The real server of the Docker tests: its description and an independent RCON oracle.

``tests/docker/conftest.py`` starts it (the ``mc_server`` fixture); tests type against
``McServer`` and cross-check replies with ``rcon_cli``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["McServer", "rcon_cli"]


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


def rcon_cli(container: Any, cmd: str) -> str:
    """Run one command through the image's own ``rcon-cli`` (an oracle independent of ours)."""
    exit_code, output = container.exec(["rcon-cli", cmd])
    text = output.decode("utf-8", "replace") if isinstance(output, bytes) else str(output)
    if exit_code != 0:
        raise RuntimeError(f"rcon-cli {cmd!r} exited {exit_code}: {text.strip()}")
    return text.strip()
