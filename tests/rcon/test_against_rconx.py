"""RconClient against rconx's SRCDS-style server: extra auth packet, byte splitting, mirrors."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import rconx

from controller.errors import RconAuthError
from controller.rcon import RconClient

__all__: list[str] = []

BIG = "é" * 5000 + "€" * 3000  # 19000 bytes: rconx cuts at 4086 bytes, mid-character


def handler(content: Any, info: Any) -> str:
    """Echo, a long multibyte reply, and vanilla's answer to ``minecraft:list``."""
    text = str(content.text)
    if text == "big":
        return BIG
    if text == "minecraft:list":
        return "Unknown or incomplete command. See below for errorminecraft:list<--[HERE]"
    if text == "empty":
        return ""
    return "srcds:" + text


def free_port() -> int:
    """A free loopback port (rconx's listener cannot report the one it got for port 0)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def rconx_port() -> Iterator[int]:
    """A running ``rconx.RconServer`` with password ``pw``."""
    port = free_port()
    server = rconx.RconServer("127.0.0.1", port, authentication="pw", command_handler=handler)
    started = threading.Event()
    thread = threading.Thread(target=server.serve, kwargs={"on_started": started.set}, daemon=True)
    thread.start()
    assert started.wait(5)
    yield port
    server.shutdown()
    thread.join(timeout=5)


def test_srcds_auth_and_long_byte_split_replies(rconx_port: int) -> None:
    with RconClient("127.0.0.1", rconx_port, "pw", timeout=2.0) as client:
        assert client.framing == "srcds"
        assert client.flavour == "vanilla"
        for _ in range(3):
            assert client.command("big") == BIG
            assert client.command("hello") == "srcds:hello"
            assert client.command("empty") == ""
        assert client.commands_sent == 1 + 9
        assert client.probes_sent == 1 + 9


def test_short_probe_skip_is_never_used_on_byte_splitting_servers(rconx_port: int) -> None:
    with RconClient("127.0.0.1", rconx_port, "pw", skip_short_probe=True) as client:
        assert client.command("big") == BIG
        assert client.command("after") == "srcds:after"


def test_wrong_password_against_rconx(rconx_port: int) -> None:
    client = RconClient("127.0.0.1", rconx_port, "nope-secret", connect_attempts=1)
    with pytest.raises(RconAuthError) as info:
        client.command("hello")
    assert "nope-secret" not in str(info.value)
    assert not client.connected
