"""Benchmark: RconClient round trips against the vanilla-like fake server, with and without probe.

For short (echo), 5000- and 20000-character replies: round trips per second and p50/p95 latency
of ``RconClient.command`` with the end-of-reply probe on every command, with the short-reply
probe skip, with the probe but without ``TCP_QUICKACK`` (the server's last chunk and probe answer
then wait for the peer's delayed ACK), and mcrcon 0.7.0 as shipped (short replies only: it
truncates long ones). Prints a markdown table.

Run: ``.venv/bin/python -m bench.rcon_roundtrip [--count 2000]``
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from types import ModuleType

from mcrcon import MCRcon

from controller.rcon import RconClient
from controller.rcon import client as client_module

__all__ = ["main", "measure"]

REPLIES = {"short": None, "5000 chars": "A" * 5000, "20000 chars": "B" * 20000}


def _fake_server_module() -> ModuleType:
    """``tests/support/rcon_fakes.py``, the fake server the transport tests use too."""
    root = str(pathlib.Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)  # run as a script, the checkout is not on the path
    import tests.support.rcon_fakes

    return tests.support.rcon_fakes


def measure(run: Callable[[], str], count: int) -> tuple[float, float, float]:
    """``count`` calls of ``run``: (round trips per second, p50 ms, p95 ms)."""
    for _ in range(min(50, count)):
        run()
    times: list[float] = []
    start = time.perf_counter()
    for _ in range(count):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    cuts = statistics.quantiles(times, n=100)
    return count / total, cuts[49] * 1000, cuts[94] * 1000


def main(argv: list[str] | None = None) -> None:
    """Print the markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=2000, help="round trips per row (short)")
    args = parser.parse_args(argv)
    fake = _fake_server_module()
    responses = {name: text for name, text in REPLIES.items() if text is not None}
    server = fake.FakeServer(responses=responses).start()
    saved_quickack = client_module._QUICKACK
    rows: list[str] = []
    try:
        modes = [
            ("probe always", False, True),
            ("skip probe if < 4096 units", True, True),
            ("probe always, no TCP_QUICKACK", False, False),
        ]
        for label, skip, quickack in modes:
            client_module._QUICKACK = saved_quickack if quickack else None
            with RconClient(
                "127.0.0.1", server.port, "pw", flavour="vanilla", skip_short_probe=skip
            ) as client:
                for name, text in REPLIES.items():
                    cmd = "echo" if text is None else name
                    count = args.count if text is None else max(50, args.count // 10)
                    before = client.probes_sent
                    rate, p50, p95 = measure(partial(client.command, cmd), count)
                    probes = (client.probes_sent - before) / (count + min(50, count))
                    rows.append(
                        f"| RconClient, {label} | {name} | {rate:,.0f} | {p50:.3f} | {p95:.3f} "
                        f"| {probes:.2f} |"
                    )
        legacy = MCRcon("127.0.0.1", "pw", port=server.port)
        legacy.connect()
        try:
            rate, p50, p95 = measure(lambda: str(legacy.command("echo")), args.count // 4)
            rows.append(
                f"| mcrcon 0.7.0 as shipped | short | {rate:,.0f} | {p50:.3f} | {p95:.3f} | 0 |"
            )
        finally:
            legacy.disconnect()
    finally:
        client_module._QUICKACK = saved_quickack
        server.stop()
    print("| client | reply | round trips/s | p50 ms | p95 ms | probes/command |")
    print("|---|---|---:|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
