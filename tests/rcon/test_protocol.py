"""Framing, size limits and vanilla's reply splitting, checked against independent oracles."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rcon.protocol import (
    MAX_COMMAND_BYTES,
    Packet,
    command_bytes,
    decode_body,
    encode_packet,
    parse_length,
    parse_payload,
    unknown_request_text,
    utf16_units,
    utf16_units_of_utf8,
    vanilla_chunks,
)
from tests.support.rcon_fakes import java_chunks, packet

__all__: list[str] = []

bodies = st.binary(max_size=2000).filter(lambda b: b"\x00" not in b)
ids = st.integers(min_value=-(2**31), max_value=2**31 - 1)


@given(ids, st.integers(min_value=-(2**31), max_value=2**31 - 1), bodies)
def test_encode_matches_the_reference_framing_and_round_trips(rid: int, t: int, b: bytes) -> None:
    raw = encode_packet(rid, t, b)
    assert raw == packet(rid, t, b)
    assert raw == struct.pack("<iii", len(b) + 10, rid, t) + b + b"\x00\x00"
    assert parse_length(raw[:4]) == len(raw) - 4
    assert parse_payload(raw[4:]) == Packet(rid, t, b)


@pytest.mark.parametrize("length", [-1, 0, 9, 1 << 17])
def test_impossible_lengths_are_rejected(length: int) -> None:
    with pytest.raises(ValueError):
        parse_length(struct.pack("<i", length))


def test_bad_padding_and_short_payloads_are_rejected() -> None:
    with pytest.raises(ValueError, match="NUL"):
        parse_payload(struct.pack("<ii", 1, 0) + b"ab\x00x")
    with pytest.raises(ValueError, match="shorter"):
        parse_payload(b"\x00" * 9)


def test_command_size_limit_is_1446_utf8_bytes() -> None:
    assert MAX_COMMAND_BYTES == 1446
    assert len(command_bytes("a" * 1446)) == 1446
    assert len(command_bytes("é" * 723)) == 1446
    with pytest.raises(ValueError, match="1447"):
        command_bytes("a" * 1447)
    with pytest.raises(ValueError, match="1448"):
        command_bytes("é" * 724)
    with pytest.raises(ValueError, match="NUL"):
        command_bytes("say a\x00b")


texts = st.text(
    alphabet=st.sampled_from(["a", "é", "§", "€", "😀", "\U0001f9ea", " ", "\n"]), max_size=9000
)


@given(texts)
def test_splitting_matches_a_java_style_oracle(text: str) -> None:
    assert vanilla_chunks(text) == java_chunks(text)


@given(texts)
def test_every_chunk_but_the_last_is_exactly_4096_units(text: str) -> None:
    chunks = vanilla_chunks(text)
    assert all(utf16_units(decode_body(c)) == 4096 for c in chunks[:-1])
    assert utf16_units(decode_body(chunks[-1])) <= 4096
    assert len(chunks) == max(1, -(-utf16_units(text) // 4096))


@given(st.text(max_size=3000))
def test_utf16_units_agree_with_an_encoder(text: str) -> None:
    expected = len(text.encode("utf-16-le", "surrogatepass")) // 2
    assert utf16_units(text) == expected
    assert utf16_units_of_utf8(text.encode("utf-8", "surrogatepass")) == expected


def test_decoding_tolerates_latin1_section_sign() -> None:
    assert decode_body(b"\xa7aRed") == "\ufffdaRed"
    assert decode_body("§aRed".encode()) == "§aRed"


def test_unknown_request_text_is_lower_hex_of_the_unsigned_type() -> None:
    assert unknown_request_text(100) == "Unknown request 64"
    assert unknown_request_text(0) == "Unknown request 0"
    assert unknown_request_text(-1) == "Unknown request ffffffff"
