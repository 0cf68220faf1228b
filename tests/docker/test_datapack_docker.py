"""The companion data pack's protocol on a real server (marked ``docker``; skipped without a
Docker engine): the replies trigger mode reads, from the server itself through the image's
``rcon-cli`` (docs/datapack.md, "Protocol")."""

from __future__ import annotations

import pytest

from controller.world import turns
from tests.support.docker_server import McServer, rcon_cli

pytestmark = pytest.mark.docker

MARKED = f'{{Tags:["{turns.FRAME_TAG}","{turns.NEAR}"]}}'


def test_the_pack_is_enabled_and_speaks_protocol_2(mc_server: McServer) -> None:
    c = mc_server.container
    assert "[file/pipesctl" in rcon_cli(c, "datapack list enabled")
    assert turns.function_result(rcon_cli(c, turns.pack_version()), "version") == 2


def test_the_click_poll_proves_the_pack_is_loaded(mc_server: McServer) -> None:
    c = mc_server.container
    count = turns.parse_click_count(rcon_cli(c, turns.click_poll()))
    assert isinstance(count, int)
    assert count == turns.parse_click_count(rcon_cli(c, turns.click_count()))
    # a function that does not exist: the forked chain stops without a message
    assert rcon_cli(c, turns.click_poll().replace(":version", ":no_such_function")) == ""


def test_done_clears_marks_only_after_a_whole_read(mc_server: McServer) -> None:
    c = mc_server.container
    count = turns.parse_click_count(rcon_cli(c, turns.click_count()))
    assert isinstance(count, int)  # the load function made the counter
    assert turns.function_result(rcon_cli(c, turns.done(count + 1, 0)), "done") == 0  # a click
    assert turns.function_result(rcon_cli(c, turns.done(count, 0)), "done") == 1
    rcon_cli(c, "forceload add 0 0")
    try:
        rcon_cli(c, f"summon minecraft:marker 0 100 0 {MARKED}")
        # the read named no frame but one is marked: refused, and the count moves on
        assert turns.function_result(rcon_cli(c, turns.done(count, 0)), "done") == 0
        assert turns.parse_click_count(rcon_cli(c, turns.click_count())) == count + 1
        assert turns.function_result(rcon_cli(c, turns.done(count + 1, 1)), "done") == 1
        assert rcon_cli(c, f"execute if entity @e[tag={turns.NEAR}]") == "Test failed"
    finally:
        rcon_cli(c, "kill @e[type=minecraft:marker,tag=pipes]")
        rcon_cli(c, "forceload remove 0 0")
