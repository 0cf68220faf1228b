"""RconClient against the vanilla-like fake server: whole replies, sync, errors, reconnects."""

from __future__ import annotations

import logging
import random
import re
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator

import mcrcon
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.errors import RconAuthError, RconProtocolError, RconUnavailable
from controller.rcon import RconClient
from tests.support.rcon_fakes import FakeServer, ServerFactory, java_chunks, packet

__all__: list[str] = []


def client_for(server: FakeServer, **options: object) -> RconClient:
    """A client for ``server`` with password ``pw`` unless given."""
    password = str(options.pop("password", "pw"))
    return RconClient(server.host, server.port, password, **options)  # type: ignore[arg-type]


def as_vanilla_sends(reply: str) -> str:
    """What a whole reply looks like after vanilla's splitting (lone surrogates become ``?``)."""
    return b"".join(java_chunks(reply)).decode("utf-8")


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class FakeTime:
    """Injectable clock and sleep: sleeping advances the clock and may run a hook."""

    def __init__(self, on_sleep: Callable[[int], None] | None = None) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []
        self.on_sleep = on_sleep

    def clock(self) -> float:
        """The fake monotonic time."""
        return self.now

    def sleep(self, seconds: float) -> None:
        """Record, advance the clock, run the hook."""
        self.sleeps.append(seconds)
        self.now += seconds
        if self.on_sleep is not None:
            self.on_sleep(len(self.sleeps))


LONG_REPLIES = {
    "r5000": "A" * 5000,
    "r20000": "".join(chr(65 + i % 26) for i in range(20000)),
    "r4096": "x" * 4096,
    "r8192": "y" * 8192,
    "r4095": "z" * 4095,
    "multi": "é§€" * 3000,
    "astral": "a" + "😀" * 3000,
    "empty": "",
}


@pytest.mark.parametrize("skip_short_probe", [False, True])
def test_long_replies_come_back_whole_and_in_sync(
    make_server: ServerFactory, skip_short_probe: bool
) -> None:
    server = make_server(responses=dict(LONG_REPLIES), split_delay=0.01)
    with client_for(server, skip_short_probe=skip_short_probe) as client:
        for name, reply in LONG_REPLIES.items():
            assert client.command(name) == as_vanilla_sends(reply), name
            assert client.command("list") == "There are 0 of a max of 20 players online: "
    assert server.bad_reads == 0
    assert server.connections == 1
    assert set(server.probes) == {100}


def test_astral_reply_cut_mid_pair_matches_java() -> None:
    assert "?" in as_vanilla_sends(LONG_REPLIES["astral"])


def test_counters_and_the_short_reply_probe_skip(make_server: ServerFactory) -> None:
    server = make_server(responses=dict(LONG_REPLIES))
    with client_for(server, flavour="vanilla") as plain:
        for name in ("r5000", "r4095", "list", "r4096"):
            plain.command(name)
        assert (plain.commands_sent, plain.probes_sent) == (4, 4)
    with client_for(server, flavour="vanilla", skip_short_probe=True) as fast:
        for name in ("r5000", "r4095", "list", "r4096", "empty", "multi"):
            fast.command(name)
        # probes only where the first packet held a full 4096-unit chunk
        assert (fast.commands_sent, fast.probes_sent) == (6, 3)
    assert len(server.probes) == 7


def test_latin1_bytes_are_replaced_not_fatal(make_server: ServerFactory) -> None:
    server = make_server(raw_replies={"latin": lambda rid: packet(rid, 0, b"\xa7cred \xe2\x82")})
    with client_for(server, flavour="vanilla") as client:
        assert client.command("latin") == "\ufffdcred \ufffd"
        assert client.command("after") == "echo:after"


def test_timeout_in_a_worker_thread_with_a_float_timeout(make_server: ServerFactory) -> None:
    server = make_server(slow={"slow": 1.0})
    client = client_for(server, timeout=0.2, flavour="vanilla")
    outcome: list[BaseException | str] = []

    def worker() -> None:
        try:
            outcome.append(client.command("slow"))
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            outcome.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(timeout=10)
    assert len(outcome) == 1 and isinstance(outcome[0], RconUnavailable)
    assert "within 0.2 s" in str(outcome[0])
    assert not client.connected
    # the next command reconnects and gets its own reply, never the late "slow" one
    assert client.command("next") == "echo:next"
    assert server.commands.count("slow") == 1
    client.close()


def test_no_signal_is_ever_used(server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object) -> None:
        raise AssertionError("signal used")

    monkeypatch.setattr(signal, "signal", forbidden)
    monkeypatch.setattr(signal, "alarm", forbidden)
    client = client_for(server)
    assert isinstance(client, mcrcon.MCRcon)
    with client:
        assert client.command("hi") == "echo:hi"
        assert client._send(2, "legacy") == "echo:legacy"


def test_reconnect_after_a_restart_on_the_same_port(make_server: ServerFactory) -> None:
    first = make_server()
    port = first.port
    second = FakeServer(port=port)

    def restart_on_third_sleep(n: int) -> None:
        if n == 3:
            second.start()

    fake = FakeTime(restart_on_third_sleep)
    client = client_for(
        first,
        backoff=(0.5, 1.5),
        connect_attempts=5,
        sleep=fake.sleep,
        clock=fake.clock,
        rng=random.Random(7),
    )
    try:
        assert client.command("before") == "echo:before"
        first.stop()
        reply = client.command("after")  # idle socket was closed: not sent, so sent once
        assert reply == "echo:after"
        assert first.commands.count("after") == 0
        assert second.commands.count("after") == 1
        assert client.connects == 2
        assert client.connect_failures == 3
        # backoff honoured: jittered within [base/2, base], doubling, capped at 1.5
        assert len(fake.sleeps) == 3
        for delay, base in zip(fake.sleeps, (0.5, 1.0, 1.5), strict=True):
            assert base / 2 <= delay <= base
        assert client.backoff_delays == fake.sleeps
        assert client.command("again") == "echo:again"
        assert client.connects == 2
    finally:
        client.close()
        second.stop()


def test_backoff_state_survives_between_calls(make_server: ServerFactory) -> None:
    fake = FakeTime()
    client = RconClient(
        "127.0.0.1",
        free_port(),
        "pw",
        backoff=(0.5, 2.0),
        connect_attempts=2,
        sleep=fake.sleep,
        clock=fake.clock,
        rng=random.Random(1),
    )
    for _ in range(3):
        with pytest.raises(RconUnavailable, match="cannot connect"):
            client.command("list")
    # attempts 1..6 failed; sleeps happen before attempts 2..6 and keep growing to the cap
    assert len(fake.sleeps) == 5
    bases = (0.5, 1.0, 2.0, 2.0, 2.0)
    assert all(b / 2 <= d <= b for d, b in zip(fake.sleeps, bases, strict=True))
    # time passing on its own counts towards the wait
    fake.now += 10
    with pytest.raises(RconUnavailable):
        client.command("list")
    assert len(fake.sleeps) == 6  # only the second attempt of that call slept


def test_a_command_that_may_have_run_is_never_resent(make_server: ServerFactory) -> None:
    server = make_server(close_on={"die"})
    with client_for(server, flavour="vanilla") as client:
        with pytest.raises(RconUnavailable, match="lost"):
            client.command("die")
        assert server.commands.count("die") == 1
        assert client.command("next") == "echo:next"
        assert server.commands == ["die", "next"]
        assert server.connections == 2


def test_wrong_password_is_an_auth_error_and_never_leaks(
    server: FakeServer, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "hunter2-secret"
    caplog.set_level(logging.DEBUG)
    fake = FakeTime()
    client = client_for(server, password=secret, sleep=fake.sleep, clock=fake.clock)
    with pytest.raises(RconAuthError) as info:
        client.command("list")
    assert "refused the password" in str(info.value)
    assert server.logins == 1 and fake.sleeps == []  # not retried
    assert server.commands == []
    texts = [str(info.value), repr(client), caplog.text, repr(info.value)]
    assert all(secret not in t for t in texts)
    with client_for(server) as good:
        assert secret not in repr(good)


def test_nothing_listening_is_unavailable() -> None:
    fake = FakeTime()
    client = RconClient(
        "127.0.0.1", free_port(), "pw", connect_attempts=3, sleep=fake.sleep, clock=fake.clock
    )
    with pytest.raises(RconUnavailable, match="cannot connect"):
        client.connect()
    assert client.connect_failures == 3 and len(fake.sleeps) == 2


def test_unknown_host_is_unavailable() -> None:
    client = RconClient("no-such-host.invalid", 25575, "pw", connect_attempts=1)
    with pytest.raises(RconUnavailable, match="cannot resolve"):
        client.command("list")


def test_oversize_command_refused_without_touching_the_socket(server: FakeServer) -> None:
    client = client_for(server, flavour="vanilla")
    with pytest.raises(ValueError, match="1446"):
        client.command("say " + "a" * 1443)
    with pytest.raises(ValueError, match="1446"):
        client.command("é" * 724)
    assert server.connections == 0 and client.commands_sent == 0
    assert client.command("a" * 1446) == "echo:" + "a" * 1446
    assert client.command("é" * 723) == "echo:" + "é" * 723
    with pytest.raises(ValueError):
        client.command("say " + "a" * 1443)
    assert server.bad_reads == 0
    assert server.commands == ["a" * 1446, "é" * 723]
    assert client.commands_sent == 2
    client.close()


def test_prefix_longer_than_the_limit_is_refused_before_sending(make_server: ServerFactory) -> None:
    server = make_server(flavour="paper")
    with client_for(server) as client:
        sent = client.commands_sent
        with pytest.raises(ValueError):
            client.command("kill " + "a" * 1436, prefix=True)  # 1441 bytes, 1451 prefixed
        assert client.commands_sent == sent


def test_concurrent_callers_never_interleave(make_server: ServerFactory) -> None:
    server = make_server(reply_delay=0.0005, responses={"big": "B" * 5000})
    client = client_for(server)
    errors: list[str] = []

    def worker(n: int) -> None:
        for i in range(25):
            cmd = f"w{n}-{i}"
            if client.command(cmd) != "echo:" + cmd:
                errors.append(cmd)
            if i % 8 == 0 and client.command("big") != "B" * 5000:
                errors.append("big")

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert errors == []
    assert server.bad_reads == 0  # never two packets in one read
    assert server.connections == 1
    assert client.commands_sent == 1 + 8 * (25 + 4)
    client.close()


def test_the_fake_server_does_drop_two_packets_in_one_read(server: FakeServer) -> None:
    with socket.create_connection((server.host, server.port)) as raw:
        raw.sendall(packet(1, 3, b"pw"))
        raw.recv(100)
        raw.sendall(packet(2, 2, b"a") + packet(3, 100, b""))
        assert raw.recv(100) == b""
    assert server.bad_reads == 1


def test_flavour_detection_and_prefixing(make_server: ServerFactory) -> None:
    vanilla = make_server()
    paper = make_server(flavour="paper")
    with client_for(vanilla) as v, client_for(paper) as p:
        assert (v.flavour, p.flavour) == ("vanilla", "paper")
        assert v.command("execute as @e run kill @s", prefix=True) == (
            "echo:execute as @e run kill @s"
        )
        assert p.command("execute as @e run kill @s", prefix=True) == (
            "echo:execute as @e run minecraft:kill @s"
        )
        assert v.commands_sent == 2 and p.commands_sent == 2  # the probe counts as a command
    assert vanilla.commands[0] == paper.commands[0] == "minecraft:list"
    assert paper.commands[1] == "minecraft:execute as @e run minecraft:kill @s"
    with client_for(vanilla, flavour="paper") as fixed:
        assert fixed.flavour == "paper"
        assert fixed.command("x") == "echo:x"
        assert fixed.commands_sent == 1


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        (b"\x05\x00\x00\x00abcde", "impossible packet length 5"),
        (b"\xff\xff\xff\xff", "impossible packet length -1"),
        (packet(2, 0, b"ok")[:-2] + b"xy", "two NUL"),
        (packet(-1, 2, b""), "unexpected packet"),
        (packet(2, 2, b"auth?"), "type 2"),
    ],
)
def test_malformed_frames_are_protocol_errors(
    make_server: ServerFactory, raw: bytes, error: str
) -> None:
    server = make_server(raw_replies={"bad": raw})
    with client_for(server, flavour="vanilla") as client:
        with pytest.raises(RconProtocolError, match=error):
            client.command("bad")
        assert not client.connected
        assert client.command("fine") == "echo:fine"


def test_close_wakes_a_blocked_command_and_is_final(make_server: ServerFactory) -> None:
    server = make_server(slow={"slow": 5.0})
    client = client_for(server, timeout=30.0, flavour="vanilla")
    client.connect()
    outcome: list[BaseException] = []

    def worker() -> None:
        try:
            client.command("slow")
        except BaseException as exc:  # noqa: BLE001
            outcome.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    while "slow" not in server.commands:
        threading.Event().wait(0.005)
    client.close()
    thread.join(timeout=3)
    assert not thread.is_alive()
    assert isinstance(outcome[0], RconUnavailable)
    with pytest.raises(RconUnavailable, match="closed"):
        client.command("list")
    client.reconnect()
    assert client.command("list").startswith("There are")
    client.close()


def test_ipv6_loopback(make_server: ServerFactory) -> None:
    try:
        server = make_server(host="::1")
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with client_for(server) as client:
        assert client.command("v6") == "echo:v6"
        assert "[::1]" in repr(client) or client.host == "::1"


def test_disconnect_then_command_reconnects(server: FakeServer) -> None:
    with client_for(server, flavour="vanilla") as client:
        client.command("a")
        client.disconnect()
        assert not client.connected
        assert client.command("b") == "echo:b"
        assert server.connections == 2 and client.connects == 2


reply_texts = st.one_of(
    st.text(alphabet=st.sampled_from("aé§€😀 \n"), max_size=14000),
    st.integers(min_value=4090, max_value=12300).map(lambda n: "x" * n),
    st.integers(min_value=2040, max_value=4100).map(lambda n: "a" + "😀" * n),
)


@pytest.fixture(scope="module")
def shared_server() -> Iterator[FakeServer]:
    """One server for the property test (hypothesis forbids function-scoped fixtures)."""
    server = FakeServer().start()
    yield server
    server.stop()


@settings(max_examples=60, deadline=None)
@given(text=reply_texts, skip=st.booleans())
def test_any_reply_comes_back_exactly_as_vanilla_sent_it(
    shared_server: FakeServer, text: str, skip: bool
) -> None:
    shared_server.responses["gen"] = text
    with client_for(shared_server, flavour="vanilla", skip_short_probe=skip) as client:
        assert client.command("gen") == as_vanilla_sends(text)
        assert client.command("ping") == "echo:ping"
    assert shared_server.bad_reads == 0


def test_close_cuts_a_backoff_wait_short() -> None:
    client = RconClient("127.0.0.1", free_port(), "pw", backoff=(30.0, 30.0), connect_attempts=3)
    outcome: list[BaseException] = []

    def worker() -> None:
        try:
            client.connect()
        except BaseException as exc:  # noqa: BLE001
            outcome.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    while not client.backoff_delays:  # the first attempt failed, the 30 s wait began
        threading.Event().wait(0.005)
    client.close()
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert isinstance(outcome[0], RconUnavailable) and "closed" in str(outcome[0])
    assert client.connect_failures == 1


def test_a_listener_that_never_answers_the_login_times_out() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(5)  # the kernel completes the handshake; nobody ever reads
        client = RconClient(
            "127.0.0.1", silent.getsockname()[1], "pw", timeout=0.15, connect_attempts=1
        )
        with pytest.raises(RconUnavailable, match="within 0.15 s"):
            client.connect()
        assert not client.connected and client.connects == 0


def test_a_silent_listener_is_reported_with_the_attempts_and_the_time_they_took() -> None:
    """Each attempt waits `timeout` for the login reply; the message says all of it."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # accepted by the kernel, never answered
        port = silent.getsockname()[1]
        client = RconClient(
            "127.0.0.1", port, "pw", timeout=0.1, backoff=(0.05, 0.05), connect_attempts=3
        )
        started = time.monotonic()
        with pytest.raises(RconUnavailable) as info:
            client.connect()
        spent = time.monotonic() - started
    message = str(info.value)
    match = re.fullmatch(
        rf"no reply from RCON at 127\.0\.0\.1:{port} within 0\.1 s \(3 attempts over (\S+) s\)",
        message,
    )
    assert match is not None, message
    assert abs(float(match.group(1)) - spent) < 0.1  # the time actually spent, waits included
    assert spent >= 3 * 0.1 and client.connect_failures == 3


def test_one_attempt_keeps_the_plain_message() -> None:
    fake = FakeTime()
    client = RconClient(
        "127.0.0.1", free_port(), "pw", connect_attempts=1, sleep=fake.sleep, clock=fake.clock
    )
    with pytest.raises(RconUnavailable) as info:
        client.connect()
    assert "attempt" not in str(info.value)


def test_attempts_over_a_fake_clock_count_the_backoff_waits() -> None:
    fake = FakeTime()
    client = RconClient(
        "127.0.0.1",
        free_port(),
        "pw",
        backoff=(2.0, 2.0),
        connect_attempts=3,
        sleep=fake.sleep,
        clock=fake.clock,
        rng=random.Random(1),
    )
    with pytest.raises(RconUnavailable, match=r"\(3 attempts over (\d+\.\d) s\)$") as info:
        client.connect()
    assert f"over {sum(fake.sleeps):.1f} s" in str(info.value)


def test_bounded_waits_less_and_tries_once_for_the_block_only() -> None:
    client = RconClient("127.0.0.1", 1, "pw", timeout=5.0, connect_attempts=3)
    with client.bounded(2.0):
        assert (client.timeout, client.connect_attempts) == (2.0, 1)
        with pytest.raises(RconUnavailable, match="1 attempt|cannot connect"):
            client.command("list")  # nothing listens on port 1: one attempt, no backoff
    assert (client.timeout, client.connect_attempts) == (5.0, 3)
    assert client.connect_failures == 1
