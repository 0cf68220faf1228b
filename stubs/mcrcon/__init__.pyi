# Type stubs for mcrcon 0.7.0 (the module mcrcon.py), covering the API pipesctl uses.
# controller/rcon/client.py subclasses MCRcon and replaces its I/O; tests use it as a peer.

import socket as _socket
from types import TracebackType
from typing import Self

class MCRconException(Exception): ...

class MCRcon:
    socket: _socket.socket | None
    host: str
    password: str
    port: int
    tlsmode: int
    # seconds; mcrcon itself passes it to signal.alarm, which needs an int
    timeout: float
    def __init__(
        self, host: str, password: str, port: int = 25575, tlsmode: int = 0, timeout: int = 5
    ) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
        /,
    ) -> None: ...
    def connect(self) -> None: ...
    def disconnect(self) -> None: ...
    def command(self, command: str) -> str: ...
    def _send(self, out_type: int, out_data: str) -> str: ...
    def _read(self, length: int) -> bytes: ...
