"""Pure RCON framing: packet encoding and decoding, size limits, vanilla's reply splitting.

The layout is mcrcon's (and vanilla's): ``int32 LE length | int32 LE id | int32 LE type | body |
0x00 0x00``, where ``length`` counts everything after itself. Nothing here touches a socket.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

__all__ = [
    "AUTH_FAILED_ID",
    "CHUNK_UTF16_UNITS",
    "HEADER",
    "MAX_COMMAND_BYTES",
    "MAX_INCOMING_LENGTH",
    "MAX_REQUEST_PACKET",
    "MIN_LENGTH",
    "Packet",
    "SRCDS_MIRROR_BODY",
    "TYPE_AUTH",
    "TYPE_AUTH_RESPONSE",
    "TYPE_COMMAND",
    "TYPE_PROBE",
    "TYPE_RESPONSE",
    "command_bytes",
    "decode_body",
    "encode_packet",
    "parse_length",
    "parse_payload",
    "unknown_request_text",
    "utf16_units",
    "utf16_units_of_utf8",
    "vanilla_chunks",
]

TYPE_RESPONSE = 0
"""``SERVERDATA_RESPONSE_VALUE``: every command reply packet."""
TYPE_COMMAND = 2
"""``SERVERDATA_EXECCOMMAND``: a command request."""
TYPE_AUTH_RESPONSE = 2
"""``SERVERDATA_AUTH_RESPONSE``: the login reply."""
TYPE_AUTH = 3
"""``SERVERDATA_AUTH``: a login request."""
TYPE_PROBE = 100
"""An invalid type: vanilla and Paper answer ``Unknown request 64`` under the probe's id."""
AUTH_FAILED_ID = -1
"""The request id of a refused login (and of a command on an unauthenticated connection)."""

MAX_REQUEST_PACKET = 1460
"""Vanilla reads at most this many bytes per packet (``PktUtils.MAX_PACKET_SIZE``)."""
MAX_COMMAND_BYTES = MAX_REQUEST_PACKET - 14
"""1446: the largest command body, in UTF-8 bytes, vanilla accepts (1460 - 12 header - 2 NULs)."""
MIN_LENGTH = 10
"""The smallest legal ``length`` field: id + type + two NULs."""
MAX_INCOMING_LENGTH = 1 << 16
"""Largest ``length`` accepted from a server (vanilla: 4096 UTF-16 units, <= 12298 bytes)."""
CHUNK_UTF16_UNITS = 4096
"""Vanilla splits replies into chunks of this many UTF-16 code units (Java ``String.length()``)."""
SRCDS_MIRROR_BODY = b"\x00\x00\x00\x01\x00\x00\x00\x00"
"""The second packet an SRCDS-style server (e.g. rconx) sends in answer to a type-0 packet."""

HEADER = struct.Struct("<iii")
_LENGTH = struct.Struct("<i")


@dataclass(frozen=True, slots=True)
class Packet:
    """One decoded RCON packet; ``body`` is raw bytes (decode whole replies, never chunks)."""

    request_id: int
    type: int
    body: bytes


def encode_packet(request_id: int, ptype: int, body: bytes) -> bytes:
    """Frame one packet exactly as mcrcon and vanilla do."""
    payload = HEADER.pack(0, request_id, ptype)[4:] + body + b"\x00\x00"
    return _LENGTH.pack(len(payload)) + payload


def parse_length(raw: bytes) -> int:
    """Decode and validate a 4-byte length prefix; raise ``ValueError`` when it is impossible."""
    if len(raw) != 4:
        raise ValueError(f"length prefix needs 4 bytes, got {len(raw)}")
    (length,) = _LENGTH.unpack(raw)
    if length < MIN_LENGTH or length > MAX_INCOMING_LENGTH:
        raise ValueError(f"impossible packet length {length}")
    return int(length)


def parse_payload(payload: bytes) -> Packet:
    """Decode what follows the length prefix; raise ``ValueError`` on a malformed frame."""
    if len(payload) < MIN_LENGTH:
        raise ValueError(f"packet of {len(payload)} bytes is shorter than {MIN_LENGTH}")
    if payload[-2:] != b"\x00\x00":
        raise ValueError("packet does not end with two NUL bytes")
    request_id, ptype = struct.unpack_from("<ii", payload)
    return Packet(int(request_id), int(ptype), bytes(payload[8:-2]))


def command_bytes(command: str) -> bytes:
    """Encode a command for sending; raise ``ValueError`` if vanilla would drop the connection."""
    if "\x00" in command:
        raise ValueError("an RCON command cannot contain a NUL character")
    data = command.encode("utf-8")
    if len(data) > MAX_COMMAND_BYTES:
        raise ValueError(
            f"command is {len(data)} UTF-8 bytes; the server accepts at most {MAX_COMMAND_BYTES}"
        )
    return data


def decode_body(data: bytes) -> str:
    """Decode a whole reply once: UTF-8, invalid bytes (e.g. a Latin-1 ``§``) replaced."""
    return data.decode("utf-8", errors="replace")


def utf16_units(text: str) -> int:
    """Java's ``String.length()`` of ``text``: characters outside the BMP count twice."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def unknown_request_text(ptype: int) -> str:
    """Vanilla's answer to a packet of an unknown type (``Unknown request <hex>``)."""
    return f"Unknown request {ptype & 0xFFFFFFFF:x}"


def vanilla_chunks(reply: str) -> list[bytes]:
    """Split a reply the way vanilla's ``sendCmdResponse`` does, as encoded packet bodies.

    Chunks hold 4096 UTF-16 units; a surrogate pair cut in two becomes ``?`` on each side, as
    Java's UTF-8 encoder writes lone surrogates. An empty reply still yields one empty chunk.
    """
    units = reply.encode("utf-16-le", "surrogatepass")
    step = CHUNK_UTF16_UNITS * 2
    pieces = [units[i : i + step] for i in range(0, len(units), step)] or [b""]
    return [p.decode("utf-16-le", "surrogatepass").encode("utf-8", "replace") for p in pieces]


def utf16_units_of_utf8(data: bytes) -> int:
    """UTF-16 length of valid UTF-8 ``data`` without decoding it (4-byte sequences count 2)."""
    return sum(1 for b in data if b & 0xC0 != 0x80) + sum(1 for b in data if b >= 0xF0)
