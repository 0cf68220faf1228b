"""Wire-protocol tests for the sandbox RCON server, raw sockets against a fake game.

Each test names the section of docs/server-behaviour.md it checks (the RCON sections for the
wire protocol, "Main thread" to "Empty replies" for command to reply, the Paper sections).
"Derived" marks behaviour read from the decompiled code (RconClient / PktUtils) that the document
does not spell out, unverified on a live server.
"""

from __future__ import annotations

import math
import struct
import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.sandbox import Sandbox
from controller.sandbox.server import (
    body_from_packet,
    encode_packet,
    encode_reply,
    java_is_blank,
    split_reply,
    unknown_request,
)
from tests.support.sandbox_fakes import PARSE_ERROR, FakeGame, RawClient, packet


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    """A vanilla-flavoured sandbox over the fake game."""
    with Sandbox(game_factory=FakeGame, password="pw") as sb:
        yield sb


@pytest.fixture
def paper() -> Iterator[Sandbox]:
    """A paper-flavoured sandbox over the fake game."""
    with Sandbox(game_factory=FakeGame, password="pw", flavour="paper") as sb:
        yield sb


@pytest.fixture
def client(sandbox: Sandbox) -> Iterator[RawClient]:
    """A logged-in raw client."""
    with RawClient(sandbox.port) as raw:
        assert raw.login("pw") == 1
        yield raw


# -- pure functions ------------------------------------------------------------------------------


def _utf16_units(text: str) -> bytes:
    return text.encode("utf-16-le", "surrogatepass")


@given(st.text(alphabet=st.sampled_from("aé€😀\u0000z"), max_size=9000))
def test_split_reply_matches_java_substring(text: str) -> None:
    """RCON reply splitting: 4096-UTF-16-unit chunks, the last shorter, at least one (do/while)."""
    units = _utf16_units(text)
    expected = [units[i : i + 8192] for i in range(0, len(units), 8192)] or [b""]
    chunks = split_reply(text)
    assert [_utf16_units(c) for c in chunks] == expected
    assert len(chunks) == max(1, math.ceil(len(units) / 8192))


@given(
    st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",)), max_size=9000),
    st.integers(-(2**31), 2**31 - 1),
)
def test_encode_reply_round_trips_through_the_framing(text: str, request_id: int) -> None:
    """RCON packets, RCON reply splitting: each chunk is length | id | 0 | utf8 body | 00 00.

    The length field is bytes + 10.
    """
    data = encode_reply(request_id, text)
    bodies = []
    while data:
        (length,) = struct.unpack("<i", data[:4])
        rid, kind = struct.unpack("<ii", data[4:12])
        assert (rid, kind) == (request_id, 0)
        assert data[4 + length - 2 : 4 + length] == b"\0\0"
        bodies.append(data[12 : 4 + length - 2])
        data = data[4 + length :]
    assert b"".join(bodies).decode() == text


def test_surrogate_pair_cut_by_the_split_becomes_question_marks() -> None:
    """RCON reply splitting: by UTF-16 units; getBytes(UTF_8) writes '?' per lone half (derived)."""
    text = "a" + "😀" * 2048  # 4097 units: the boundary falls inside the last emoji
    bodies = [encode_packet(0, 0, chunk)[12:-2] for chunk in split_reply(text)]
    assert bodies == [("a" + "😀" * 2047 + "?").encode(), b"?"]


def test_unknown_request_is_java_to_hex_string() -> None:
    """RCON: other packet types: Integer.toHexString, negative types in 32-bit two's complement."""
    assert unknown_request(0) == "Unknown request 0"
    assert unknown_request(100) == "Unknown request 64"
    assert unknown_request(-1) == "Unknown request ffffffff"
    assert unknown_request(-(2**31)) == "Unknown request 80000000"


@given(st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=400))
def test_body_is_read_up_to_the_terminator(body: str) -> None:
    """RCON: one read per packet: stringFromByteArray reads UTF-8 from offset 12 to the NUL."""
    data = packet(5, 2, body)
    assert body_from_packet(bytearray(data), len(data)) == body


def _java_string_from_byte_array(buf: bytes, offset: int, length: int) -> str | None:
    """A literal transcription of PktUtils.stringFromByteArray (None where Java throws)."""
    var3 = length - 1
    var4 = var3 if offset > var3 else offset
    while buf[var4] != 0 and var4 < var3:
        var4 += 1
    if var4 - offset < 0:
        return None
    return buf[offset:var4].decode("utf-8", "replace")


@given(st.binary(min_size=14, max_size=80), st.data())
def test_body_matches_pkt_utils_transcription(buf: bytes, data: st.DataObject) -> None:
    """RCON: one read per packet: body_from_packet agrees with the decompiled loop."""
    read = data.draw(st.integers(10, len(buf)))
    assert body_from_packet(bytearray(buf), read) == _java_string_from_byte_array(buf, 12, read)


def test_body_edge_cases_from_pkt_utils() -> None:
    """RCON: one read per packet (derived): stop at NUL or read-1; reads of 10-12 throw."""
    buf = bytearray(b"\x00" * 12 + b"abc\x00def")
    assert body_from_packet(buf, len(buf)) == "abc"
    no_nul = bytearray(b"\x00" * 12 + b"abcd")
    assert body_from_packet(no_nul, len(no_nul)) == "abc"  # up to read-1 only
    assert body_from_packet(bytearray(13), 13) == ""
    for read in (10, 11, 12):
        assert body_from_packet(bytearray(14), read) is None


def test_java_is_blank() -> None:
    """Paper: blank commands: String.isBlank (Character.isWhitespace) excludes no-break spaces."""
    assert java_is_blank("")
    assert java_is_blank(" \t\r\n\u2003\u001f")
    assert not java_is_blank("\u00a0")
    assert not java_is_blank(" x ")


# -- login ---------------------------------------------------------------------------------------


def test_login_ok_replies_type_2_with_the_request_id(sandbox: Sandbox) -> None:
    """RCON login: body equal to the password → (requestId, 2, "")."""
    with RawClient(sandbox.port) as raw:
        assert raw.login("pw", request_id=77) == 77


@pytest.mark.parametrize("password", ["wrong", "", "pw ", "PW"])
def test_bad_login_replies_minus_one_and_keeps_the_connection(
    sandbox: Sandbox, password: str
) -> None:
    """RCON login: anything else → (-1, 2, ""); the connection stays open and can log in again."""
    with RawClient(sandbox.port) as raw:
        assert raw.login(password, request_id=5) == -1
        raw.send_packet(6, 2, "echo hi")
        assert raw.read_packet() == (-1, 2, b"")
        assert raw.login("pw", request_id=8) == 8
        assert raw.command("echo hi") == "hi"


def test_failed_login_after_success_deauthenticates(client: RawClient) -> None:
    """RCON login: a failed login sets authed = false."""
    assert client.login("nope") == -1
    client.send_packet(9, 2, "echo x")
    assert client.read_packet() == (-1, 2, b"")


def test_unauthenticated_command_is_refused(sandbox: Sandbox) -> None:
    """RCON commands: type 2 before login → (-1, 2, ""), connection open, nothing executed."""
    with RawClient(sandbox.port) as raw:
        raw.send_packet(3, 2, "set k v")
        assert raw.read_packet() == (-1, 2, b"")
        raw.send_packet(4, 2, "echo again")
        assert raw.read_packet() == (-1, 2, b"")
    assert sandbox.call(lambda game: game.executed) == []
    assert len(sandbox.command_log) == 0


@pytest.mark.parametrize(
    ("packet_type", "reply"),
    [
        (0, "Unknown request 0"),
        (1, "Unknown request 1"),
        (4, "Unknown request 4"),
        (100, "Unknown request 64"),
        (-1, "Unknown request ffffffff"),
    ],
)
def test_unknown_types_answer_without_auth_check(
    sandbox: Sandbox, packet_type: int, reply: str
) -> None:
    """RCON: other packet types: Unknown request <hex>, with the request id, no auth needed."""
    with RawClient(sandbox.port) as raw:
        raw.send_packet(31, packet_type, "whatever")
        assert raw.read_packet() == (31, 0, reply.encode())
        raw.send_packet(32, packet_type)
        assert raw.read_packet() == (32, 0, reply.encode())


# -- framing errors: the connection is closed without a reply ------------------------------------


def test_short_packet_closes(client: RawClient) -> None:
    """RCON: one read per packet: read < 10 → close, no reply."""
    client.send(struct.pack("<i", 5) + b"\x01\x00\x00\x00\x02")
    assert client.closed_without_reply()


def test_length_mismatch_closes(client: RawClient) -> None:
    """RCON: one read per packet: length != read - 4 → close, no reply."""
    data = bytearray(packet(1, 2, "echo hi"))
    data[0] += 1
    client.send(bytes(data))
    assert client.closed_without_reply()


def test_oversize_packet_closes(client: RawClient) -> None:
    """RCON: one read per packet: 1461 bytes are cut at 1460, the length disagrees → close."""
    client.send(packet(1, 2, "echo " + "x" * 1442))  # body 1447 bytes, packet 1461
    assert client.closed_without_reply()


def test_largest_packet_is_accepted(client: RawClient) -> None:
    """RCON: one read per packet: a 1446-byte body (a 1460-byte packet) is the largest command."""
    body = "echo " + "é" * 720 + "x"  # 5 + 1440 + 1 = 1446 bytes
    assert len(body.encode()) == 1446
    assert client.command(body) == body[5:]


def test_two_packets_in_one_read_close(client: RawClient) -> None:
    """RCON: one read per packet: two packets in one read → length mismatch → dropped, none runs."""
    client.send(packet(1, 2, "set a 1") + packet(2, 2, "set b 2"))
    assert client.closed_without_reply()


def test_packet_split_over_two_reads_closes(sandbox: Sandbox, client: RawClient) -> None:
    """RCON: one read per packet: a packet split over two TCP reads is rejected."""
    data = packet(1, 2, "set split 1")
    client.send(data[:9])
    time.sleep(0.3)  # let the server's read see only the first part
    try:
        client.send(data[9:])
    except OSError:
        pass
    assert client.closed_without_reply()
    assert sandbox.call(lambda game: game.state) == {}


def test_header_only_command_closes_when_authed(client: RawClient) -> None:
    """Derived (PktUtils): a 10..12-byte command packet makes new String(...) throw → close."""
    client.send(struct.pack("<iii", 8, 1, 2))  # 12 bytes, length 8 = read - 4
    assert client.closed_without_reply()


def test_header_only_packets_before_login(sandbox: Sandbox) -> None:
    """Derived (RconClient.run): type 2 checks auth before reading the body; type 3 reads it."""
    with RawClient(sandbox.port) as raw:
        raw.send(struct.pack("<iii", 8, 4, 2))  # command, not logged in → auth failure reply
        assert raw.read_packet() == (-1, 2, b"")
        raw.send(struct.pack("<iii", 8, 5, 3))  # login with no body → new String throws → close
        assert raw.closed_without_reply()


def test_type_field_uses_the_persistent_buffer(sandbox: Sandbox) -> None:
    """Derived: RconClient.buf persists; a 10-byte read takes type bytes 10-11 from before."""
    with RawClient(sandbox.port) as raw:
        raw.send_packet(1, 0x00AB0000, "")
        assert raw.read_packet() == (1, 0, b"Unknown request ab0000")
        raw.send(struct.pack("<ii", 6, 2) + b"\x64\x00")  # read = 10, type low bytes 64 00
        assert raw.read_packet() == (2, 0, b"Unknown request ab0064")


# -- command replies -----------------------------------------------------------------------------


def test_messages_join_without_separator(client: RawClient) -> None:
    """Output assembly (MC-7569): feedback messages are appended with no newline."""
    assert client.command("multi ab cd ef") == "abcdef"


def test_vanilla_parse_error_is_two_messages_joined(client: RawClient) -> None:
    """Parse errors: `foo` → error text immediately followed by `foo<--[HERE]`."""
    assert client.command("foo") == PARSE_ERROR + "foo<--[HERE]"


def test_vanilla_blank_command_reaches_the_game(sandbox: Sandbox, client: RawClient) -> None:
    """Parse errors: an empty command is a parse error on vanilla (it runs on the main thread)."""
    assert client.command("") == PARSE_ERROR + "<--[HERE]"
    assert sandbox.call(lambda game: game.executed) == [""]


def test_exception_becomes_error_executing(client: RawClient) -> None:
    """RCON commands: runCommand throws → "Error executing: <cmd> (<message>)"."""
    assert client.command("boom now") == "Error executing: boom now (kaboom)"


@pytest.mark.parametrize(
    ("units", "char", "sizes"),
    [
        (4095, "x", [4095]),
        (4096, "x", [4096]),
        (4097, "x", [4096, 1]),
        (8192, "x", [4096, 4096]),
        (10000, "x", [4096, 4096, 1808]),
        (5000, "é", [4096, 904]),
        (3000, "😀", [2048, 952]),
    ],
)
def test_long_replies_are_split_by_utf16_units(
    client: RawClient, units: int, char: str, sizes: list[int]
) -> None:
    """RCON reply splitting: 4096-unit chunks with the request id, no terminator; 4096 is one."""
    bodies = client.command_packets(f"long {units} {char}", request_id=99)
    assert [len(b.decode()) for b in bodies] == sizes
    assert "".join(b.decode() for b in bodies) == char * units


def test_reply_cutting_a_surrogate_pair_over_the_wire(client: RawClient) -> None:
    """RCON reply splitting (derived): a non-BMP character across the cut arrives as '?' '?'."""
    client.send_packet(3, 2, "echo a" + "😀" * 200)  # warm-up, ordinary reply
    assert client.read_packet() == (3, 0, ("a" + "😀" * 200).encode())
    bodies = client.command_packets("long 2048 😀 a")  # "a" + 2048 emoji
    assert bodies == [("a" + "😀" * 2047 + "?").encode(), b"?"]


def test_empty_reply_is_one_empty_packet(client: RawClient) -> None:
    """RCON reply splitting, Empty replies: an empty reply is still one packet, empty body."""
    assert client.command_packets("empty", request_id=12) == [b""]


def test_leading_slash_reaches_the_game_unchanged(sandbox: Sandbox, client: RawClient) -> None:
    """Success and failure messages: the game strips one '/'; the server passes the body on."""
    assert client.command("/echo slashed") == "slashed"
    assert sandbox.call(lambda game: game.executed) == ["/echo slashed"]


def test_commands_run_on_the_main_thread_between_ticks(client: RawClient) -> None:
    """Main thread: the command runs on the single server thread, never during a tick."""
    assert client.command("thread") == "Server thread"
    assert all(client.command("intick") == "False" for _ in range(20))


# -- the shared console buffer (vanilla) vs per-connection buffers (paper) -------------------------


def _hold_first_reader(sb: Sandbox, console_of: object) -> tuple[threading.Event, list[str]]:
    """Make the first getCommandResponse() wait until a second one has returned."""
    second_done = threading.Event()
    seen: list[str] = []
    original = console_of.get_command_response  # type: ignore[attr-defined]
    lock = threading.Lock()

    def patched() -> str:
        with lock:
            order = len(seen)
            seen.append(threading.current_thread().name)
        if order == 0:
            assert second_done.wait(10)
            return str(original())
        result = str(original())
        second_done.set()
        return result

    console_of.get_command_response = patched  # type: ignore[attr-defined]
    return second_done, seen


def test_vanilla_connections_share_one_output_buffer(sandbox: Sandbox) -> None:
    """Shared output buffer (derived): B's prepareForCommand clears A's output before A reads."""
    _, readers = _hold_first_reader(sandbox, sandbox.server.console)
    with RawClient(sandbox.port) as a, RawClient(sandbox.port) as b:
        assert a.login("pw") == 1 and b.login("pw") == 1
        a.send_packet(10, 2, "echo ALPHA")  # runs, then A's read waits for B's
        while not readers:
            time.sleep(0.01)
        b.send_packet(20, 2, "echo BETA")
        assert b.read_packet() == (20, 0, b"BETA")
        assert a.read_packet() == (10, 0, b"BETA")  # A lost its own output and saw B's


def test_vanilla_concurrent_outputs_mix(sandbox: Sandbox) -> None:
    """Shared output buffer (derived): both queued before either runs → both see both outputs."""
    _hold_first_reader(sandbox, sandbox.server.console)
    game = sandbox.game
    game.gate.clear()  # the first command blocks the main thread inside the game
    with RawClient(sandbox.port) as a, RawClient(sandbox.port) as b:
        assert a.login("pw") == 1 and b.login("pw") == 1
        a.send_packet(10, 2, "wait ALPHA")
        while len(game.executed) < 1:
            time.sleep(0.01)
        b.send_packet(20, 2, "echo BETA")
        while sandbox.main_thread.pending() < 1:
            time.sleep(0.01)
        game.gate.set()
        assert b.read_packet() == (20, 0, b"ALPHABETA")
        assert a.read_packet() == (10, 0, b"ALPHABETA")


def test_paper_connections_have_their_own_buffers(paper: Sandbox) -> None:
    """Paper: RCON connections: each connection gets its own RconConsoleSource."""
    game = paper.game
    game.gate.clear()
    with RawClient(paper.port) as a, RawClient(paper.port) as b:
        assert a.login("pw") == 1 and b.login("pw") == 1
        a.send_packet(10, 2, "wait ALPHA")
        while len(game.executed) < 1:
            time.sleep(0.01)
        b.send_packet(20, 2, "echo BETA")
        while paper.main_thread.pending() < 1:
            time.sleep(0.01)
        game.gate.set()
        assert {a.read_packet(), b.read_packet()} == {(10, 0, b"ALPHA"), (20, 0, b"BETA")}


@pytest.mark.parametrize("blank", ["", "   ", "\t\n"])
def test_paper_blank_command_is_empty_without_the_main_thread(paper: Sandbox, blank: str) -> None:
    """Paper: blank commands: `if (command.isBlank()) return "";` on the RCON thread."""
    with RawClient(paper.port) as raw:
        assert raw.login("pw") == 1
        assert raw.command_packets(blank) == [b""]
    assert paper.call(lambda game: game.executed) == []


def test_paper_parse_error_has_a_newline(paper: Sandbox) -> None:
    """Paper: parse errors: one message "error\\ncontext" (built by the game, passed through)."""
    with RawClient(paper.port) as raw:
        assert raw.login("pw") == 1
        assert raw.command("foo") == PARSE_ERROR + "\nfoo<--[HERE]"
