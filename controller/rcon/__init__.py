"""The RCON transport: one connection per server, built on mcrcon; knows nothing of puzzles."""

from __future__ import annotations

from controller.rcon.client import Framing, RconClient
from controller.rcon.flavour import FLAVOUR_PROBE, Flavour, detect_flavour, prefixed
from controller.rcon.protocol import MAX_COMMAND_BYTES
from controller.rcon.replies import (
    ParseError,
    expects_output,
    normalize,
    parse_error,
    split_messages,
    unexpected_empty,
)

__all__ = [
    "FLAVOUR_PROBE",
    "MAX_COMMAND_BYTES",
    "Flavour",
    "Framing",
    "ParseError",
    "RconClient",
    "detect_flavour",
    "expects_output",
    "normalize",
    "parse_error",
    "prefixed",
    "split_messages",
    "unexpected_empty",
]
