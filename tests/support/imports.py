"""Which libraries a piece of code loads, run in a fresh interpreter (start-up cost checks), and
which modules a source file's import statements name (layering checks)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterable

__all__ = ["HEAVY", "heavy_modules_after", "modules_after", "static_imports"]

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


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of every node inside an `if TYPE_CHECKING:` block."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            inside |= {id(n) for statement in node.body for n in ast.walk(statement)}
    return inside


def static_imports(source: str, *, typing_too: bool = False) -> set[str]:
    """The absolute modules the import statements of ``source`` name, anywhere in it (``from a
    import b`` gives ``a`` and ``a.b``); those under ``if TYPE_CHECKING:`` only with
    ``typing_too``."""
    tree = ast.parse(source)
    skipped = set() if typing_too else _type_checking_nodes(tree)
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names
