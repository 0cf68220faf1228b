"""Shared test configuration: hypothesis without wall-clock deadlines (CI machines are shared,
so timing is never asserted), and derandomized under CI so a red run can be replayed."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("pipesctl", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "pipesctl")
