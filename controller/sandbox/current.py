"""The release the sandbox game being run plays, for the code that has no game at hand.

``Game`` sets :data:`CURRENT` around every call into it (``controller.sandbox.profile.playing``),
so feedback strings, registries and NBT forms follow that game's release; outside a call it is
None and everything answers as 26.1. A context variable keeps two games apart, also when two
sandboxes run their main threads side by side.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .profile import SandboxVersion

__all__ = ["CURRENT"]

CURRENT: ContextVar[SandboxVersion | None] = ContextVar("sandbox_release", default=None)
