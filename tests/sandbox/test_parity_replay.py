"""Replay the parity script against the sandbox and require the real server's replies."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.rcon.client import RconClient
from controller.sandbox import Sandbox
from controller.versions import RELEASES, release
from tests.support.grammar import REPO
from tests.support.parity import GOLDEN_DIR, load_golden, parity_script

GOLDEN = load_golden()


@pytest.mark.parametrize("name", [r.name for r in RELEASES])
def test_script_runs_against_the_sandbox_of_every_release(name: str) -> None:
    """The script in a release's forms runs on the sandbox playing it: nothing fails inside."""
    with (
        Sandbox(version=name) as sb,
        RconClient("127.0.0.1", sb.port, sb.password) as client,
    ):
        replies = [client.command(c) for c in parity_script(release(name))]
    assert replies[0].startswith("Marked ")
    assert not any("An unexpected error occurred" in r for r in replies)


NO_GOLDEN = (
    f"no golden replies in {GOLDEN_DIR.relative_to(REPO)}/ yet: `make docker-test` on a Docker "
    "host runs tests/docker/test_parity_record.py, which writes "
    f"{GOLDEN_DIR.relative_to(REPO)}/<flavour>-<version>.json"
)


@pytest.mark.parametrize("golden", GOLDEN or [None], ids=[p.name for p, _ in GOLDEN] or ["none"])
def test_sandbox_replies_equal_the_real_server(
    golden: tuple[Path, list[dict[str, str]]] | None,
) -> None:
    if golden is None:
        pytest.skip(NO_GOLDEN)
    path, rows = golden
    flavour, _, version = path.stem.partition("-")  # tests/support/parity.py, golden_path
    with (
        Sandbox(version=version, flavour=flavour) as sb,
        RconClient("127.0.0.1", sb.port, sb.password) as client,
    ):
        got = [client.command(row["command"]) for row in rows]
    mismatches = [
        (row["command"], row["reply"], reply)
        for row, reply in zip(rows, got, strict=True)
        if reply != row["reply"]
    ]
    assert mismatches == []
