"""Which libraries a piece of code loads, run in a fresh interpreter (start-up cost checks)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable

__all__ = ["HEAVY", "heavy_modules_after", "modules_after"]

HEAVY = ("numpy", "PIL", "nbtlib", "pillow_minecraft_map")

PROBE = """\
import json, sys
{body}
names = set(sys.modules) | {{m.split(".")[0] for m in sys.modules}}
print(json.dumps(sorted(names & set({roots!r}))))
"""


def modules_after(body: str, roots: Iterable[str]) -> list[str]:
    """The modules among ``roots`` (top-level or dotted names) loaded by running ``body`` in a
    fresh interpreter; a top-level name counts when any of its submodules is loaded."""
    script = PROBE.format(body=body, roots=tuple(roots))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return loaded


def heavy_modules_after(body: str) -> list[str]:
    """The heavy libraries (numpy, pillow, nbtlib) loaded by running ``body``."""
    return modules_after(body, HEAVY)
