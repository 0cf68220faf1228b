"""Prometheus metrics of a running daemon (`metrics_port`): docs/metrics.md."""

from __future__ import annotations

from controller.metrics.prometheus import METRIC_NAMES, Metrics, MetricsServer

__all__ = ["METRIC_NAMES", "Metrics", "MetricsServer"]
