"""A loopback RCON server that behaves like a vanilla (or Paper) server of any release pipesctl
supports (1.20.5 to 26.2; 26.1 by default) for pipesctl.

See ``Sandbox`` for the Python API and ``pipesctl sandbox`` for the command line.
"""

from __future__ import annotations

from controller.sandbox.sandbox import Sandbox

__all__ = ["Sandbox"]
