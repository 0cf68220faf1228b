"""A loopback RCON server that behaves like a vanilla (or Paper) 26.x server for pipesctl.

See ``Sandbox`` for the Python API and ``pipesctl sandbox`` for the command line.
"""

from __future__ import annotations

from controller.sandbox.sandbox import Sandbox

__all__ = ["Sandbox"]
