"""The fake server reproduces what was measured with real clients (docs/libraries.md, "mcrcon").

The reference client is "rcon (conqp)" of the same document.
"""

from __future__ import annotations

import signal

import mcrcon
from rcon.source import Client

from tests.support.rcon_fakes import ServerFactory

__all__: list[str] = []


def test_stock_mcrcon_truncates_and_desynchronises(make_server: ServerFactory) -> None:
    server = make_server(split_delay=0.05, responses={"big": "A" * 5000})
    previous = signal.getsignal(signal.SIGALRM)
    try:
        with mcrcon.MCRcon("127.0.0.1", "pw", port=server.port) as legacy:
            first = legacy.command("big")
            second = legacy.command("list")
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert len(first) == 4096
    assert second.startswith("A" * 904)  # the rest of "big": the stream is out of step


def test_the_conqp_client_reads_whole_replies(make_server: ServerFactory) -> None:
    server = make_server(split_delay=0.01, responses={"big": "é" * 5000})
    with Client("127.0.0.1", server.port, passwd="pw", timeout=3) as other:
        assert other.run("big") == "é" * 5000
        assert other.run("list") == "There are 0 of a max of 20 players online: "
    assert server.bad_reads == 0
