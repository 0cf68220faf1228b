"""Smoke test against a real server (marked ``docker``; skipped without a Docker engine)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from controller.maps import map_path, read_colors, read_level_info, resolve_target
from controller.world.mapart import all_pictures
from tests.support.docker_server import McServer, rcon_cli

pytestmark = pytest.mark.docker


def test_server_answers_list_with_our_map_art_present(mc_server: McServer) -> None:
    reply = rcon_cli(mc_server.container, "list")
    assert re.match(r"There are 0 of a max of \d+ players online", reply), reply

    # the server created its level.dat in the folder we had seeded; our guess of the map layout
    # (from the pinned version) is the one its level.dat implies
    level = read_level_info(mc_server.world_dir)
    assert level is not None and level.data_version is not None
    target = resolve_target(mc_server.world_dir, None, "0.0")
    pictures = all_pictures(mc_server.map_id_base)
    for map_id, path in mc_server.map_paths.items():
        assert path == map_path(mc_server.world_dir, target.layout, map_id)
        assert path.is_file(), f"the server moved or removed {path}"
        assert np.array_equal(read_colors(path), pictures[map_id])
