"""A daemon on a sandbox with the web page of its room served on a free port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.web_site import Site, site_on


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    yield from site_on(tmp_path, monkeypatch)


@pytest.fixture
def sink_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    """The same with a sink room (`mode: sink`): the page shows route progress."""
    yield from site_on(tmp_path, monkeypatch, mode="sink")
