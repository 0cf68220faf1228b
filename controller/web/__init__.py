"""The read-only web page of the rooms (`web_port`): live boards, water, leaderboards and the
daily results; and `serving`, which opens it and the metrics endpoint beside a daemon."""

from __future__ import annotations

from controller.web.serve import metrics_for, serving

__all__ = ["metrics_for", "serving"]
