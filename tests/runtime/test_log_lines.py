"""The daemon's log lines are sentences about a room or a server, never Python reprs.

A static check reads every logging call of the controller (the sandbox excepted: it logs what
vanilla's console would) and refuses ``%r``, ``!r`` and ``repr()``; an end-to-end run records the
lines a build, a click, an audit repair and an admin request log, and checks that each one names
its room or server first (so ``--log-format json`` can give them as fields) and holds no repr.
"""

from __future__ import annotations

import ast
import json
import logging
import re
from pathlib import Path

import pytest

import controller
from controller.cli.common import JsonFormatter
from controller.runtime.requests import RepairRequest, ResetRequest
from tests.support.harness import Harness

ROOT = Path(controller.__file__).parent
LEVELS = {"debug", "info", "warning", "error", "exception", "critical"}
DATACLASS_REPR = re.compile(r"\b[A-Z]\w*\(\w+=")


def repr_in_log_calls(source: str) -> list[str]:
    """The logging calls (``log.info(...)`` and the like) that print a value's repr."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in LEVELS
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in {"log", "logger", "_log"}
        ):
            continue
        text = ast.unparse(node)
        fmt = node.args[0] if node.args else None
        if (
            isinstance(fmt, ast.Constant)
            and isinstance(fmt.value, str)
            and re.search(r"%[-#0 +\d.]*r", fmt.value)
        ):
            found.append(text)
        elif "!r" in text or "repr(" in text:
            found.append(text)
    return found


@pytest.mark.parametrize(
    "source",
    [
        'log.info("room %s: %r", name, rep)',
        'log.warning(f"server {name}: {exc!r}")',
        'logger.error("got %s", repr(value))',
    ],
)
def test_the_check_finds_reprs(source: str) -> None:
    assert repr_in_log_calls(source)


def test_the_check_allows_plain_arguments() -> None:
    assert repr_in_log_calls('log.info("room %s: %s", name, rep.describe())') == []


def test_no_controller_log_call_prints_a_repr() -> None:
    found = {
        str(path.relative_to(ROOT)): bad
        for path in sorted(ROOT.rglob("*.py"))
        if "sandbox" not in path.parts
        and (bad := repr_in_log_calls(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_json_lines_name_the_room_or_server_of_a_runtime_line() -> None:
    def line(message: str, *args: object) -> dict[str, object]:
        record = logging.LogRecord("controller.runtime", logging.INFO, "", 0, message, args, None)
        result: dict[str, object] = json.loads(JsonFormatter().format(record))
        return result

    assert line("room %s: solved in %s with %d moves", "lobby", "0:42", 17)["room"] == "lobby"
    assert line("server %s: back; rooms reconciled", "main")["server"] == "main"
    assert "room" not in line("RCON %s: connected", "127.0.0.1:25575")


def test_a_daemon_run_logs_sentences_naming_room_or_server(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="controller.runtime")
    room, link = harness.room, harness.daemon.links["main"]
    harness.click(2, 3)
    harness.daemon.poll("main")
    x, y, z = room.geom.state_pos(1, 1)
    harness.sb.call(lambda g: g.execute(f"setblock {x} {y} {z} minecraft:stone"))
    room.reconcile(link)
    room.handle_request(link, RepairRequest())
    room.handle_request(link, ResetRequest(5))
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("controller.runtime")]
    assert any("admin request: reset with seed 5" in m for m in lines)
    assert any(m.startswith("room lobby: reconciled: ") for m in lines)
    for message in lines:
        assert message.startswith(("room lobby: ", "server main: ")), message
        assert not DATACLASS_REPR.search(message), message
