"""The sandbox server against three independent RCON client libraries.

mcrcon (what pipesctl's transport is built on), conqp's ``rcon`` and ``rconx`` (preset
"minecraft") must all log in, run commands and reassemble long replies exactly as they would
against a vanilla server (docs/server-behaviour.md, "RCON login" to "RCON reply splitting").
mcrcon arms SIGALRM, so it runs only in the main test thread with an integer timeout.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import rcon.exceptions
import rcon.source
import rconx
from mcrcon import MCRcon, MCRconException

from controller.sandbox import Sandbox
from tests.support.sandbox_fakes import PARSE_ERROR, FakeGame

LONG = "long 10000 é"  # 10000 UTF-16 units, three packets (4096 + 4096 + 1808), 20000 bytes


@pytest.fixture(params=["vanilla", "paper"])
def sandbox(request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """A sandbox over the fake game, in both flavours."""
    with Sandbox(game_factory=FakeGame, password="s3cret", flavour=request.param) as sb:
        yield sb


def _parse_error(sb: Sandbox, command: str) -> str:
    sep = "\n" if sb.flavour == "paper" else ""
    return PARSE_ERROR + sep + command + "<--[HERE]"


def test_mcrcon(sandbox: Sandbox) -> None:
    """mcrcon: login, echo, multi-message join, parse error, multi-packet reply."""
    assert threading.current_thread() is threading.main_thread()
    with MCRcon(sandbox.host, sandbox.password, sandbox.port, timeout=10) as mcr:
        assert mcr.command("echo hello") == "hello"
        assert mcr.command("multi a b") == "ab"
        assert mcr.command("foo") == _parse_error(sandbox, "foo")
        assert mcr.command("echo ünï€😀") == "ünï€😀"
        assert mcr.command(LONG) == "é" * 10000
        assert mcr.command("empty") == ""
    assert [e.command for e in sandbox.command_log] == [
        "echo hello",
        "multi a b",
        "foo",
        "echo ünï€😀",
        LONG,
        "empty",
    ]


def test_mcrcon_wrong_password(sandbox: Sandbox) -> None:
    """mcrcon raises on the (-1, 2, "") auth failure reply ("RCON login")."""
    mcr = MCRcon(sandbox.host, "wrong", sandbox.port, timeout=10)
    try:
        with pytest.raises(MCRconException, match="Login failed"):
            mcr.connect()
    finally:
        mcr.disconnect()


def test_conqp_rcon(sandbox: Sandbox) -> None:
    """rcon.source.Client: login, commands, and its fragmentation probe on long replies."""
    with rcon.source.Client(sandbox.host, sandbox.port, passwd=sandbox.password, timeout=10) as c:
        assert c.run("echo hello") == "hello"
        assert c.run("foo") == _parse_error(sandbox, "foo")
        assert c.run(LONG) == "é" * 10000
        assert c.run("echo after") == "after"  # the probe's "Unknown request 0" was consumed


def test_conqp_rcon_wrong_password(sandbox: Sandbox) -> None:
    """rcon.source.Client raises WrongPassword on id -1 ("RCON login")."""
    client = rcon.source.Client(sandbox.host, sandbox.port, timeout=10)
    try:
        client.connect()
        with pytest.raises(rcon.exceptions.WrongPassword):
            client.login("wrong")
        assert client.login(sandbox.password)  # the connection stayed open
        assert client.run("echo still here") == "still here"
    finally:
        client.close()


def test_rconx_minecraft_preset(sandbox: Sandbox) -> None:
    """rconx (preset minecraft): ending probe after the first packet, long replies reassembled."""
    with rconx.RconClient.create(sandbox.host, sandbox.port, preset="minecraft") as client:
        client.connect_and_authenticate(sandbox.password, timeout=10)
        assert client.execute("echo hello", timeout=10).text == "hello"
        assert client.execute("foo", timeout=10).text == _parse_error(sandbox, "foo")
        assert client.execute(LONG, timeout=10).text == "é" * 10000
        assert client.execute("long 4096 x", timeout=10).text == "x" * 4096
        assert client.execute("empty", timeout=10).text == ""


def test_rconx_wrong_password(sandbox: Sandbox) -> None:
    """rconx raises RconAuthenticationError on id -1 ("RCON login")."""
    with rconx.RconClient.create(sandbox.host, sandbox.port, preset="minecraft") as client:
        with pytest.raises(rconx.RconAuthenticationError):
            client.connect_and_authenticate("wrong", timeout=10)


def test_rconx_oversize_command_is_refused_client_side(sandbox: Sandbox) -> None:
    """rconx's minecraft preset knows the 1460-byte limit and refuses before sending.

    Source: docs/server-behaviour.md, "RCON: one read per packet".
    """
    with rconx.RconClient.create(sandbox.host, sandbox.port, preset="minecraft") as client:
        client.connect_and_authenticate(sandbox.password, timeout=10)
        with pytest.raises(rconx.RconSizeLimitError):
            client.execute("echo " + "x" * 1442, timeout=10)
        assert client.execute("echo " + "x" * 1441, timeout=10).text == "x" * 1441
