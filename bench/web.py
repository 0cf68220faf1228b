"""Benchmark: what the metrics and the web page cost the daemon.

Measures (medians): one command observed by the metrics (a counter and a histogram), one
scrape of a daemon's registry with 4 rooms on 2 servers, and the web page's board picture of
a room at several sizes (drawn once per change: the page asks at most every 2 s), with its
PNG size. Prints a markdown table.

Run: ``.venv/bin/python -m bench.web [--repeat 7]``
"""

from __future__ import annotations

import argparse
import os

from prometheus_client import generate_latest

from bench.maps import timed
from controller.metrics import Metrics
from controller.puzzle.flow import compute_flow
from controller.puzzle.generators import GeneratorParams, generate
from controller.web.live import RoomView
from controller.web.pictures import render_png, tile_pixels

__all__ = ["main"]


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rooms = [("main", "lobby"), ("main", "hall"), ("other", "garden"), ("other", "tower")]
    metrics = Metrics(rooms)
    for server, room in rooms:
        metrics.progress(server, room, 10, 49, False)
        metrics.lease(server, room, "held")
        metrics.detection(server, "trigger")
    n = 10_000

    def observe() -> None:
        for _ in range(n):
            metrics.command_sent("main", 0.002)

    rows = [
        ("one command observed", f"{timed(observe, args.repeat) * 1000 / n:.1f} µs"),
        (
            "one scrape, 4 rooms on 2 servers",
            f"{timed(lambda: generate_latest(metrics.registry), args.repeat):.2f} ms "
            f"({len(generate_latest(metrics.registry)) // 1024} KiB)",
        ),
    ]
    for size in (7, 15, 31, 64, 128):
        board = generate(size, size, seed=1, params=GeneratorParams(unique=False))
        view = RoomView(
            "r", "s", "pipes", size, size, 1,
            built=True, board=board, classes=tuple(compute_flow(board).classes),
        )  # fmt: skip
        png = render_png(view) or b""  # the tile pictures are drawn once per process first
        px = tile_pixels(size, size)
        ms = timed(lambda v=view: render_png(v), args.repeat)
        rows.append(
            (
                f"board picture {size}x{size} ({px} px a tile)",
                f"{ms:.0f} ms, {len(png) // 1024} KiB",
            )
        )
    load = os.getloadavg()[0]
    print(f"Load average (1 min) when it started: {load:.1f} on {os.cpu_count()} cores.\n")
    print("| step | median |")
    print("|---|---|")
    for what, figure in rows:
        print(f"| {what} | {figure} |")


if __name__ == "__main__":
    main()
