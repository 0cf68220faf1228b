"""RconClient against the project's sandbox server (vanilla and Paper flavours)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest

from controller.errors import RconAuthError
from controller.rcon import RconClient, parse_error, unexpected_empty
from controller.rcon.flavour import Flavour
from controller.rcon.replies import ParseError, split_messages
from controller.sandbox import Sandbox

__all__: list[str] = []


@pytest.fixture(params=["vanilla", "paper"])
def sandbox(request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """A running sandbox of each flavour."""
    with Sandbox(flavour=request.param) as sb:
        yield sb


def client_for(sb: Sandbox, **options: object) -> RconClient:
    """A client for the sandbox, with its generated password."""
    return RconClient(sb.host, sb.port, sb.password, **options)  # type: ignore[arg-type]


def test_flavour_prefix_and_parse_errors(sandbox: Sandbox) -> None:
    with client_for(sandbox) as client:
        assert client.flavour == sandbox.flavour
        error = parse_error(client.command("setblock minecra"), "setblock minecra")
        assert error == ParseError("Expected integer", "setblock minecra")
        reply = client.command("summon minecraft:item_frame 0 64 0", prefix=True)
        assert reply == "Summoned new Item Frame"
        assert not unexpected_empty(reply, "summon minecraft:item_frame 0 64 0")
        namespaced = client.command("minecraft:list")
        assert (parse_error(namespaced) is None) == (sandbox.flavour == "paper")
    sent = [e.command for e in sandbox.log_entries()]
    expected_summon: dict[Flavour, str] = {
        "vanilla": "summon minecraft:item_frame 0 64 0",
        "paper": "minecraft:summon minecraft:item_frame 0 64 0",
    }
    assert expected_summon[sandbox.flavour] in sent


def _ageless(text: str) -> str:
    return re.sub(r"(?i)(ticksLived): \d+", r"\1: _", text)


def test_multi_packet_reply_from_the_sandbox(sandbox: Sandbox) -> None:
    with client_for(sandbox, skip_short_probe=True) as client:
        client.command("forceload add 0 0", prefix=True)
        for i in range(25):
            client.command(
                f'summon minecraft:item_frame {i} 64 0 {{Tags:["pipes"],Facing:1b}}', prefix=True
            )
        command = "execute as @e[type=item_frame,tag=pipes] run data get entity @s"
        reply = client.command(command, prefix=True)
        sent = sandbox.log_entries()[-1].command  # prefixed on Paper
        direct = "".join(sandbox.call(lambda game: game.execute(sent)))
        # what the game printed, whole, across three packets (a tick may pass between the two
        # reads: the frames' age is the one field that moves)
        assert _ageless(reply) == _ageless(direct)
        assert len(reply) > 2 * 4096  # three packets on the wire
        head = "Item Frame has the following entity data: "
        parts = reply.split(head)
        assert parts[0] == "" and len(parts) == 26
        assert all(part.startswith("{") and part.endswith("}") for part in parts[1:])
        assert split_messages(client.command("list")) == [
            "There are 0 of a max of 20 players online: "
        ]


def test_restart_and_refused_connections_are_survived(sandbox: Sandbox) -> None:
    with client_for(sandbox, backoff=(0.05, 0.2), connect_attempts=20) as client:
        client.command("list")
        sandbox.restart()
        assert (
            client.command("scoreboard objectives add once dummy") == "Created new objective [once]"
        )
        assert client.connects == 2
        sandbox.server.refuse_connections(0.3)
        sandbox.server.drop_connections()
        assert client.command("scoreboard objectives add twice dummy").startswith("Created")
        assert client.connects == 3 and client.connect_failures >= 1
        assert len(client.backoff_delays) == client.connect_failures
    sent = [e.command for e in sandbox.log_entries()]
    assert sent.count("scoreboard objectives add once dummy") == 1
    assert sent.count("scoreboard objectives add twice dummy") == 1


def test_threads_share_one_connection(sandbox: Sandbox) -> None:
    client = client_for(sandbox)
    client.command("scoreboard objectives add t dummy")
    wrong: list[str] = []

    def worker(n: int) -> None:
        for i in range(20):
            reply = client.command(f"scoreboard players set w{n} t {i}")
            if reply != f"Set [t] for w{n} to {i}":
                wrong.append(reply)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert wrong == []
    assert client.connects == 1 and sandbox.server.connection_count() == 1
    client.close()


def test_wrong_password_against_the_sandbox(sandbox: Sandbox) -> None:
    client = RconClient(sandbox.host, sandbox.port, "not-" + sandbox.password)
    with pytest.raises(RconAuthError):
        client.connect()
    assert sandbox.password not in repr(client)
