"""The sd_notify client against real AF_UNIX datagram sockets (a path and an abstract name):
the exact bytes of each message, no-ops without a socket, errors swallowed, the watchdog
variables (docs/systemd.md, "The notification protocol" and "The watchdog")."""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.runtime.systemd import STATUS_MAX_BYTES, Notifier, clean_status, watchdog_interval


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A bound datagram socket at a path in tmp_path, and its `$NOTIFY_SOCKET` value."""
    path = tmp_path / "n.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2.0)
        yield sock, str(path)


@pytest.fixture
def abstract() -> Iterator[tuple[socket.socket, str]]:
    """A bound datagram socket in the abstract namespace, and its `@name` value."""
    name = f"pipesctl-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2.0)
        yield sock, "@" + name


def _notifier(address: str, **env: str) -> Notifier:
    return Notifier.from_environment({"NOTIFY_SOCKET": address, **env})


def test_messages_on_a_path_socket(listener: tuple[socket.socket, str]) -> None:
    sock, address = listener
    notifier = _notifier(address, WATCHDOG_USEC="30000000")
    assert notifier.enabled
    assert notifier.ready("rooms lobby ready")
    assert sock.recv(4096) == b"READY=1\nSTATUS=rooms lobby ready"
    assert notifier.status("server main unreachable")
    assert sock.recv(4096) == b"STATUS=server main unreachable"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    assert notifier.extend_timeout(2.5)
    assert sock.recv(4096) == b"EXTEND_TIMEOUT_USEC=2500000"
    notifier.close()
    assert not notifier.enabled
    assert not notifier.ready()


def test_messages_on_an_abstract_socket(abstract: tuple[socket.socket, str]) -> None:
    sock, address = abstract
    with _notifier(address) as notifier:
        assert notifier.ready()
        assert sock.recv(4096) == b"READY=1"
        assert notifier.stopping("saving rooms")
        assert sock.recv(4096) == b"STOPPING=1\nSTATUS=saving rooms"


def test_reloading_carries_the_monotonic_time(listener: tuple[socket.socket, str]) -> None:
    sock, address = listener
    with _notifier(address) as notifier:
        assert notifier.reloading()
        first, second = sock.recv(4096).decode().split("\n")
    assert first == "RELOADING=1"
    key, value = second.split("=")
    assert key == "MONOTONIC_USEC" and value.isdigit()


def test_a_status_is_one_clean_line(listener: tuple[socket.socket, str]) -> None:
    sock, address = listener
    with _notifier(address) as notifier:
        notifier.status("rooms lobby\nREADY=1\r\n ready\x00")
        assert sock.recv(4096) == b"STATUS=rooms lobby READY=1 ready"
        notifier.status("é" * STATUS_MAX_BYTES)
        sent = sock.recv(8192)
    assert b"\n" not in sent
    assert len(sent) <= len(b"STATUS=") + STATUS_MAX_BYTES
    assert sent.decode("utf-8").endswith("…")  # cut on a character boundary


def test_clean_status_keeps_a_short_line() -> None:
    assert clean_status("  rooms lobby, hall ready ") == "rooms lobby, hall ready"
    assert clean_status("a\tb\n\nc") == "a b c"


def test_no_socket_is_a_no_op() -> None:
    notifier = Notifier.from_environment({})
    assert not notifier.enabled
    assert notifier.watchdog_interval is None
    assert not notifier.ready("x")
    assert not notifier.status("x")
    assert not notifier.watchdog()
    assert not notifier.stopping()
    notifier.close()


@pytest.mark.parametrize("address", ["", "relative/path", "@", "vsock:2:1234"])
def test_unsupported_addresses_send_nothing(address: str) -> None:
    notifier = _notifier(address, WATCHDOG_USEC="1000000")
    assert not notifier.enabled
    assert notifier.watchdog_interval is None
    assert not notifier.ready()


def test_a_missing_socket_raises_nothing_and_logs_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    notifier = _notifier(str(tmp_path / "gone.sock"))
    with caplog.at_level(logging.DEBUG, logger="controller.runtime"):
        assert not notifier.ready()
        assert not notifier.status("still here")
        assert not notifier.stopping()
    logged = [r for r in caplog.records if "cannot notify" in r.getMessage()]
    assert len(logged) == 1
    notifier.close()


def test_default_environment_is_os_environ(
    listener: tuple[socket.socket, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sock, address = listener
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    with Notifier.from_environment() as notifier:
        assert notifier.watchdog_interval == 10.0
        assert notifier.watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"


@pytest.mark.parametrize(
    ("env", "interval"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4242"}, 15.0),  # our pid below
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4243"}, None),  # another process's
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "x"}, None),
        ({"WATCHDOG_USEC": "500000"}, 0.25),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
        ({"WATCHDOG_USEC": "30s"}, None),
        ({"WATCHDOG_PID": "4242"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval(env: dict[str, str], interval: float | None) -> None:
    assert watchdog_interval(env, pid=4242) == interval


def test_watchdog_pid_defaults_to_this_process() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(os.getpid())}) == 1.0
    other = os.getpid() + 1
    assert watchdog_interval({"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(other)}) is None


def test_watchdog_for_another_process_sends_nothing(listener: tuple[socket.socket, str]) -> None:
    sock, address = listener
    with _notifier(address, WATCHDOG_USEC="2000000", WATCHDOG_PID=str(os.getpid() + 1)) as n:
        assert n.watchdog_interval is None
        assert not n.watchdog()
        assert n.ready()  # readiness is still ours to tell
        assert sock.recv(4096) == b"READY=1"


def test_threads_share_one_notifier(listener: tuple[socket.socket, str]) -> None:
    sock, address = listener
    sock.settimeout(0.5)
    notifier = _notifier(address, WATCHDOG_USEC="1000000")
    sent: list[bool] = []
    received: list[bytes] = []

    def read() -> None:
        try:
            while True:
                received.append(sock.recv(4096))
        except TimeoutError:
            pass

    def ping() -> None:
        for _ in range(25):
            sent.append(notifier.watchdog())

    reader = threading.Thread(target=read)
    reader.start()
    threads = [threading.Thread(target=ping) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    reader.join()
    notifier.close()
    assert len(sent) == 100 and any(sent)
    assert len(received) == sent.count(True)  # each datagram whole, none doubled
    assert set(received) == {b"WATCHDOG=1"}


def test_a_full_queue_never_blocks(
    listener: tuple[socket.socket, str], caplog: pytest.LogCaptureFixture
) -> None:
    sock, address = listener  # never read: the kernel queue fills up
    with _notifier(address) as notifier, caplog.at_level(logging.DEBUG):
        results = [notifier.status(f"line {i}") for i in range(200)]
    assert results[0] and not results[-1]
    assert sum("cannot notify" in r.getMessage() for r in caplog.records) == 1
