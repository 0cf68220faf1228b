"""Real-server fixtures: itzg/minecraft-server through testcontainers, skipped without Docker.

Every test marked ``docker`` is skipped with "Docker engine not available" when
``docker.from_env().ping()`` fails; the rest of the suite is unaffected. The session fixture
``mc_server`` starts one server per entry of the matrix (``MATRIX``: release × flavour, from
``PIPESCTL_TEST_MC_MATRIX``; flat world, offline mode, small view distance) and runs every test
against each, with the map art and the companion data pack installed into the bound
``/data/world`` BEFORE the server starts (the server caches map lookups, misses included).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.docker_server import (
    DOCKER_SKIP_REASON,
    MAP_ID_BASE,
    MATRIX,
    RCON_PASSWORD,
    STARTUP_TIMEOUT_S,
    McServer,
    ServerKind,
    docker_available,
    free_port,
    image_for,
    install_data_pack,
    install_map_art,
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip every test marked ``docker`` when no engine answers."""
    marked = [item for item in items if item.get_closest_marker("docker") is not None]
    if not marked or docker_available():
        return
    skip = pytest.mark.skip(reason=DOCKER_SKIP_REASON)
    for item in marked:
        item.add_marker(skip)


@pytest.fixture(scope="session", params=MATRIX, ids=lambda kind: kind.id)
def mc_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[McServer]:
    """One real server per matrix entry, map art and data pack installed before it starts."""
    kind: ServerKind = request.param
    from testcontainers.core.container import DockerContainer
    from testcontainers.core.wait_strategies import LogMessageWaitStrategy

    data = tmp_path_factory.mktemp("mcdata")
    world = data / "world"  # LEVEL defaults to "world"
    map_paths = install_map_art(world, kind.version, MAP_ID_BASE)
    install_data_pack(world, kind.version)  # a new world enables it at its first start
    container = (
        DockerContainer(image_for(kind.version))
        .with_envs(
            EULA="TRUE",
            TYPE=kind.type,
            VERSION=kind.version,
            ONLINE_MODE="FALSE",
            ENABLE_RCON="TRUE",
            RCON_PASSWORD=RCON_PASSWORD,
            BROADCAST_RCON_TO_OPS="FALSE",
            MEMORY="1G",
            LEVEL_TYPE="FLAT",
            GENERATE_STRUCTURES="FALSE",
            VIEW_DISTANCE="2",
            SIMULATION_DISTANCE="2",
            SPAWN_PROTECTION="0",
            MODE="creative",
            DIFFICULTY="peaceful",
            UID=str(os.getuid()),
            GID=str(os.getgid()),
        )
        # A fixed host port: a restarted container keeps it (the restart test relies on it).
        .with_bind_ports(25575, free_port())
        .with_volume_mapping(str(data), "/data", mode="rw")
        .waiting_for(
            LogMessageWaitStrategy("RCON running on").with_startup_timeout(STARTUP_TIMEOUT_S)
        )
    )
    with container:
        yield McServer(
            container=container,
            host=container.get_container_host_ip(),
            rcon_port=int(container.get_exposed_port(25575)),
            password=RCON_PASSWORD,
            data_dir=data,
            world_dir=world,
            version=kind.version,
            map_id_base=MAP_ID_BASE,
            map_paths=map_paths,
            type=kind.type,
        )
