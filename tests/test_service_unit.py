"""The example unit `docs/pipesctl.service` says what the code relies on (docs/systemd.md,
"The unit file"), its command matches the documented install ("Install"), and systemd's own
`systemd-analyze verify` accepts it when that tool is installed."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.errors import ExitCode

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "docs" / "pipesctl.service"
INSTALLED = "/opt/pipesctl/bin/pipesctl"


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """A unit file's sections: each key with its values in order (a key may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"setting outside a section: {raw!r}"
        assert "=" in line, f"not KEY=VALUE: {raw!r}"
        key, value = line.split("=", 1)
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def seconds(span: str) -> float:
    """A systemd time span (`15s`, `5min`, `1min 30s`, `90`) in seconds."""
    units = {"ms": 0.001, "s": 1, "sec": 1, "min": 60, "m": 60, "h": 3600, "": 1}
    total = 0.0
    for number, unit in re.findall(r"(\d+(?:\.\d+)?)\s*([a-z]*)", span):
        total += float(number) * units[unit]
    return total


SERVICE = parse_unit(UNIT.read_text(encoding="utf-8"))["Service"]


def one(key: str) -> str:
    values = SERVICE.get(key, [])
    assert len(values) == 1, f"{key}= set {len(values)} times"
    return values[0]


def test_it_is_a_notify_service_with_a_watchdog() -> None:
    assert one("Type") == "notify"
    assert one("NotifyAccess") == "main"
    assert seconds(one("WatchdogSec")) >= 10  # pings every half of it


def test_the_stop_timeout_leaves_room_for_a_clean_stop() -> None:
    assert seconds(one("TimeoutStopSec")) >= 10  # the daemon exits within 5 s of SIGTERM
    assert "KillMode" not in SERVICE or one("KillMode") in {"control-group", "mixed"}


def test_restarts_skip_what_a_restart_cannot_fix() -> None:
    assert one("Restart") == "on-failure"
    assert seconds(one("RestartSec")) >= 1
    prevented = {int(code) for code in one("RestartPreventExitStatus").split()}
    assert prevented == {ExitCode.USAGE, ExitCode.CONFIG, ExitCode.AUTH}
    assert ExitCode.UNREACHABLE not in prevented


def test_state_goes_to_the_state_directory() -> None:
    assert one("StateDirectory") == "pipesctl"
    assert one("WorkingDirectory") == "/var/lib/pipesctl"
    assert one("User") == "pipesctl"
    assert "DynamicUser" not in SERVICE


def test_hardening() -> None:
    assert one("NoNewPrivileges") == "yes"
    assert one("ProtectSystem") == "strict"
    assert one("ProtectHome") == "yes"
    assert one("PrivateTmp") == "yes"
    assert not one("ExecStart").startswith(("/home/", "/root/"))  # ProtectHome= hides those


def test_exec_start_is_the_documented_install() -> None:
    argv = shlex.split(one("ExecStart"))
    assert argv[0] == INSTALLED
    assert argv[1] == "start" and "--world" in argv[2:]
    guide = (ROOT / "docs" / "systemd.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for text in (guide, readme, UNIT.read_text(encoding="utf-8")):
        assert "python3 -m venv /opt/pipesctl" in text
        assert "/opt/pipesctl/bin/pip install ." in text


def test_the_configuration_path_is_the_one_the_unit_installs() -> None:
    env = dict(value.split("=", 1) for value in SERVICE["Environment"])
    assert env["PIPESCTL_CONFIG"] == "/etc/pipesctl/pipes.yaml"
    assert one("EnvironmentFile") == "/etc/pipesctl/pipesctl.env"


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed"
)
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    # verify checks that the command exists: point it at an executable of this machine.
    text = UNIT.read_text(encoding="utf-8").replace(INSTALLED, sys.executable)
    unit = tmp_path / "pipesctl.service"
    unit.write_text(text, encoding="utf-8")
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    about_unit = [
        line
        for line in (done.stdout + done.stderr).splitlines()
        if "pipesctl.service" in line or str(unit) in line
    ]
    assert done.returncode == 0, done.stdout + done.stderr
    assert about_unit == []  # unknown keys and bad values are only warned about
