"""docs/grafana-dashboard.json: a Grafana dashboard whose every query names only metrics and
labels the daemon exports, and which shows every metric (docs/metrics.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from controller.metrics import METRIC_NAMES, Metrics

DASHBOARD = Path(__file__).resolve().parents[2] / "docs" / "grafana-dashboard.json"
METRIC = re.compile(r"\bpipesctl_[a-z_]+\b")
MATCHER = re.compile(r"([a-z_]+)\s*(?:=~|!~|!=|=)")
GROUPING = re.compile(r"\b(?:by|without)\s*\(([^)]*)\)")
PROMQL = {"le"}  # the bucket label of every histogram


def _dashboard() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    return data


def _exprs(dash: dict[str, Any]) -> list[str]:
    out = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    out += [v["query"]["query"] for v in dash["templating"]["list"] if v["type"] == "query"]
    return out


def _labels() -> set[str]:
    """Every label name the daemon's series carry."""
    metrics = Metrics([("main", "lobby")])
    metrics.progress("main", "lobby", 1, 9, False)
    metrics.detection("main", "scan")
    metrics.lease("main", "lobby", "held")
    return {
        key for family in metrics.registry.collect() for s in family.samples for key in s.labels
    }


def test_the_dashboard_is_a_grafana_dashboard() -> None:
    dash = _dashboard()
    assert dash["title"] and dash["uid"] and isinstance(dash["schemaVersion"], int)
    ids = [p["id"] for p in dash["panels"]]
    assert len(ids) == len(set(ids)) and ids
    for panel in dash["panels"]:
        assert panel["type"] in {"timeseries", "stat", "bargauge", "table"}
        assert set(panel["gridPos"]) == {"h", "w", "x", "y"}
        assert panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24
        assert panel["targets"] and all(t["refId"] and t["expr"] for t in panel["targets"])
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}


def test_every_query_names_only_exported_metrics_and_labels() -> None:
    labels = _labels() | PROMQL
    for expr in _exprs(_dashboard()):
        names = METRIC.findall(expr)
        assert names, expr
        assert set(names) <= set(METRIC_NAMES), (expr, set(names) - set(METRIC_NAMES))
        used = set(MATCHER.findall(expr))
        for group in GROUPING.findall(expr):
            used |= {g.strip() for g in group.split(",") if g.strip()}
        assert used <= labels, (expr, used - labels)


def test_every_metric_has_a_panel() -> None:
    queried = {name for expr in _exprs(_dashboard()) for name in METRIC.findall(expr)}
    families = {family.name for family in Metrics().registry.collect()}
    for family in families:
        assert any(q == family or q.startswith(family + "_") for q in queried), family
