"""The daemon's HTTP endpoints, opened from its configuration: the Prometheus metrics
(`metrics_port`, docs/metrics.md) and the web page (`web_port`). Both are off by default."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from controller.config import Config
from controller.metrics import Metrics, MetricsServer
from controller.records.setup import target_of
from controller.runtime.daemon import Daemon
from controller.web.live import LiveRooms
from controller.web.server import WebServer
from controller.web.stored import StoredStandings

__all__ = ["metrics_for", "serving"]

log = logging.getLogger("controller.web")


def metrics_for(config: Config, worlds: list[str]) -> Metrics | None:
    """The metrics to hand the daemon as its observer (None when `metrics_port` is unset)."""
    if config.metrics_port is None:
        return None
    return Metrics((config.worlds[name].server, name) for name in worlds)


@contextmanager
def serving(daemon: Daemon, metrics: Metrics | None) -> Iterator[None]:
    """Listen on the configured ports while the block runs (a port that cannot be listened on
    is a ListenError before anything else happens); closed afterwards."""
    config = daemon.config
    with ExitStack() as stack:
        if metrics is not None and config.metrics_port is not None:
            endpoint = MetricsServer(metrics, config.metrics_bind, config.metrics_port)
            stack.callback(endpoint.close)
            log.info("metrics on %s port %d", endpoint.bind, endpoint.port)
        if config.web_port is not None:
            standings = StoredStandings(target_of(config))
            stack.callback(standings.close)
            page = WebServer(
                LiveRooms(daemon.rooms), config.web_bind, config.web_port, daemon.clock, standings
            )
            stack.callback(page.close)
            log.info("web page of the rooms at %s", page.url)
        yield
