"""The daemon's observer as Prometheus metrics (the official client, its own registry) and the
HTTP endpoint that serves them. Every metric, its type and labels: docs/metrics.md."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Enum, Gauge, Histogram
from prometheus_client.exposition import start_http_server

from controller.errors import ListenError
from controller.runtime.observe import REPAIR_KINDS, LeaseState

__all__ = ["METRIC_NAMES", "Metrics", "MetricsServer"]

# A solve takes from seconds (a small board) to hours; an RCON round trip from a fraction of a
# millisecond (loopback) to the client's timeout.
SOLVE_BUCKETS = (10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1200.0, 1800.0, 3600.0, 7200.0)
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
DETECTION_MODES = ["trigger", "scan"]
LEASE_STATES = ["held", "lost", "released"]

ROOM = ["server", "room"]


class Metrics:
    """The `Observer` of controller/runtime/observe.py, recording into its own registry (never
    the process-global one, so two daemons in one process do not mix). The rooms and servers
    given at construction show zero counts from the first scrape on."""

    def __init__(self, rooms: Iterable[tuple[str, str]] = ()) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.clicks = Counter(
            "pipesctl_clicks", "Turns of a frame applied to a room.", ROOM, registry=r
        )
        self.moves = Counter(
            "pipesctl_moves", "Moves counted in a room (a move is a click).", ROOM, registry=r
        )
        self.solves = Counter("pipesctl_solves", "Puzzles solved in a room.", ROOM, registry=r)
        self.solve_seconds = Histogram(
            "pipesctl_solve_seconds",
            "Time from a puzzle's start to its solve.",
            ROOM,
            buckets=SOLVE_BUCKETS,
            registry=r,
        )
        self.repairs = Counter(
            "pipesctl_repairs",
            "Things put right in a room, by kind (a reconcile's or the tamper guard's).",
            [*ROOM, "kind"],
            registry=r,
        )
        self.water = Gauge(
            "pipesctl_room_water_tiles",
            "Tiles the water reaches now (a paint room: cells that match the target).",
            ROOM,
            registry=r,
        )
        self.tiles = Gauge("pipesctl_room_tiles", "Tiles (or cells) of the room.", ROOM, registry=r)
        self.solved_now = Gauge(
            "pipesctl_room_solved", "1 while the room's puzzle is solved.", ROOM, registry=r
        )
        self.lease_state = Enum(
            "pipesctl_lease_state",
            "The room's lease: held by this daemon, lost to another, or given back.",
            ROOM,
            states=LEASE_STATES,
            registry=r,
        )
        self.commands = Counter(
            "pipesctl_rcon_commands", "RCON commands sent to a server.", ["server"], registry=r
        )
        self.latency = Histogram(
            "pipesctl_rcon_command_seconds",
            "Round trip of one RCON command (sent until its whole reply is read).",
            ["server"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.reconnects = Counter(
            "pipesctl_rcon_reconnects",
            "Connections to a server opened again after the first.",
            ["server"],
            registry=r,
        )
        self.detection_mode = Enum(
            "pipesctl_detection_mode",
            "How turns are noticed on a server: the data pack (trigger) or scanning (scan).",
            ["server"],
            states=DETECTION_MODES,
            registry=r,
        )
        self._lock = threading.Lock()  # the server threads report at once
        for server, room in rooms:
            self.declare(server, room)

    def declare(self, server: str, room: str) -> None:
        """Show a room's and its server's counters at zero before anything happens."""
        for counter in (self.clicks, self.moves, self.solves):
            counter.labels(server, room)
        self.solve_seconds.labels(server, room)
        for kind in REPAIR_KINDS:
            self.repairs.labels(server, room, kind)
        self.commands.labels(server)
        self.latency.labels(server)
        self.reconnects.labels(server)

    # -- the Observer ---------------------------------------------------------------------
    def command_sent(self, server: str, seconds: float) -> None:
        """One command and its round trip."""
        self.commands.labels(server).inc()
        self.latency.labels(server).observe(seconds)

    def reconnected(self, server: str) -> None:
        """A connection opened again."""
        self.reconnects.labels(server).inc()

    def clicked(self, server: str, room: str) -> None:
        """A turn applied."""
        self.clicks.labels(server, room).inc()

    def moved(self, server: str, room: str, moves: int) -> None:
        """Moves counted."""
        self.moves.labels(server, room).inc(moves)

    def solved(self, server: str, room: str, seconds: float) -> None:
        """A solve and its time."""
        self.solves.labels(server, room).inc()
        self.solve_seconds.labels(server, room).observe(seconds)

    def repaired(self, server: str, room: str, kind: str, count: int) -> None:
        """Repairs by kind."""
        self.repairs.labels(server, room, kind).inc(count)

    def progress(self, server: str, room: str, wet: int, total: int, solved: bool) -> None:
        """The room's water now."""
        self.water.labels(server, room).set(wet)
        self.tiles.labels(server, room).set(total)
        self.solved_now.labels(server, room).set(int(solved))

    def detection(self, server: str, mode: str) -> None:
        """The server's detection mode."""
        if mode in DETECTION_MODES:
            with self._lock:  # Enum.state is not atomic
                self.detection_mode.labels(server).state(mode)

    def lease(self, server: str, room: str, state: LeaseState) -> None:
        """The room's lease."""
        with self._lock:
            self.lease_state.labels(server, room).state(state)


_SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "gauge": ("",),
    "stateset": ("",),
}


def _names() -> tuple[str, ...]:
    """Every series name a scrape can show (a counter as `_total`, a histogram as its
    `_bucket`, `_sum` and `_count`, an enum as one 0/1 series per state)."""
    return tuple(
        sorted(
            family.name + suffix
            for family in Metrics().registry.collect()
            for suffix in _SUFFIXES[family.type]
        )
    )


METRIC_NAMES = _names()


class MetricsServer:
    """The metrics endpoint on `bind`:`port` (port 0: any free port, for tests), served from a
    daemon thread by the client library's own WSGI server; `close` stops it."""

    def __init__(self, metrics: Metrics, bind: str = "127.0.0.1", port: int = 9100) -> None:
        try:
            server, thread = start_http_server(port, addr=bind, registry=metrics.registry)
        except OSError as exc:
            raise ListenError.of("metrics_port", bind, port, exc) from None
        self._server: WSGIServer = server
        self._thread = thread
        self.bind = bind
        self.port: int = server.server_port

    def close(self) -> None:
        """Stop serving and free the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=2.0)
