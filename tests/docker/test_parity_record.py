"""Record the replies of a real server to the parity script (golden files for the sandbox)."""

from __future__ import annotations

import json

import pytest

from controller.rcon.client import RconClient
from controller.versions import release
from tests.support.docker_server import McServer
from tests.support.parity import golden_path, parity_script


@pytest.mark.docker
def test_record_real_server_replies(mc_server: McServer) -> None:
    client = RconClient(mc_server.host, mc_server.rcon_port, mc_server.password, timeout=10.0)
    with client:
        script = parity_script(release(mc_server.version))
        rows = [{"command": c, "reply": client.command(c)} for c in script]
    path = golden_path(mc_server.type.lower(), mc_server.version)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert rows[0]["reply"].startswith("Marked ")
