"""The observer as Prometheus metrics: each fact lands in its series, in the daemon's own
registry, and the registry's text parses back with the client library's parser."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY, generate_latest

from controller.metrics import METRIC_NAMES, Metrics
from controller.metrics.prometheus import LATENCY_BUCKETS
from tests.support.scrape import Samples


def test_each_fact_lands_in_its_series() -> None:
    m = Metrics([("main", "lobby"), ("main", "hall")])
    for _ in range(3):
        m.clicked("main", "lobby")
    m.moved("main", "lobby", 4)
    m.solved("main", "lobby", 75.0)
    m.repaired("main", "hall", "blocks_fixed", 6)
    m.command_sent("main", 0.004)
    m.command_sent("main", 0.2)
    m.reconnected("main")
    m.progress("main", "lobby", 12, 49, False)
    m.detection("main", "trigger")
    m.detection("main", "scan")
    m.lease("main", "hall", "lost")
    got = Samples(generate_latest(m.registry).decode())
    lobby = {"server": "main", "room": "lobby"}
    hall = {"server": "main", "room": "hall"}
    assert got.value("pipesctl_clicks_total", **lobby) == 3
    assert got.value("pipesctl_clicks_total", **hall) == 0  # declared: zero from the start
    assert got.value("pipesctl_moves_total", **lobby) == 4
    assert got.value("pipesctl_solves_total", **lobby) == 1
    assert got.value("pipesctl_solve_seconds_bucket", **lobby, le="60.0") == 0
    assert got.value("pipesctl_solve_seconds_bucket", **lobby, le="120.0") == 1
    assert got.value("pipesctl_repairs_total", **hall, kind="blocks_fixed") == 6
    assert got.value("pipesctl_repairs_total", **hall, kind="rebuilt") == 0
    assert got.value("pipesctl_rcon_commands_total", server="main") == 2
    assert got.value("pipesctl_rcon_command_seconds_bucket", server="main", le="0.005") == 1
    assert got.value("pipesctl_rcon_command_seconds_sum", server="main") == pytest.approx(0.204)
    assert got.value("pipesctl_rcon_reconnects_total", server="main") == 1
    assert got.value("pipesctl_room_water_tiles", **lobby) == 12
    assert got.value("pipesctl_detection_mode", server="main", pipesctl_detection_mode="scan") == 1
    assert (
        got.value("pipesctl_detection_mode", server="main", pipesctl_detection_mode="trigger") == 0
    )
    assert got.value("pipesctl_lease_state", **hall, pipesctl_lease_state="lost") == 1
    assert got.names <= set(METRIC_NAMES)
    assert LATENCY_BUCKETS == tuple(sorted(LATENCY_BUCKETS))


def test_two_daemons_keep_their_own_registries() -> None:
    a, b = Metrics([("main", "lobby")]), Metrics([("main", "lobby")])
    a.clicked("main", "lobby")
    labels = {"server": "main", "room": "lobby"}
    assert a.registry.get_sample_value("pipesctl_clicks_total", labels) == 1
    assert b.registry.get_sample_value("pipesctl_clicks_total", labels) == 0
    assert REGISTRY.get_sample_value("pipesctl_clicks_total", labels) is None  # never global


def test_the_exported_names_are_what_a_scrape_shows() -> None:
    m = Metrics([("main", "lobby")])
    m.progress("main", "lobby", 1, 9, False)
    m.detection("main", "scan")
    m.lease("main", "lobby", "held")
    assert Samples(generate_latest(m.registry).decode()).names == set(METRIC_NAMES)
