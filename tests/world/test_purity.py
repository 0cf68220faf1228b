"""`controller/world` stays pure, and importing it stays light.

The purity check reads the source of every module under ``controller/world`` (its room kinds'
subpackages included) and lists its import
statements (top level, function bodies and ``TYPE_CHECKING`` blocks alike). None may name, or name
a submodule of, a module in ``IO_MODULES``: the file system (``os``, ``pathlib``, ``io``,
``shutil``, ``tempfile``, ``fcntl``, ``mmap``, ``glob``), compressed files (``gzip``, ``zlib``),
processes and sockets (``subprocess``, ``socket``, ``select``, ``selectors``, ``asyncio``), and the
libraries that read and write files for us (``PIL``, ``nbtlib``). ``pillow_minecraft_map`` (a PIL
file plugin) may only be imported for its palette table. Dynamic imports (``importlib``,
``__import__``) and the builtin ``open`` are refused too, so nothing slips past the list.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import controller.world
from tests.support.imports import heavy_modules_after

IO_MODULES = frozenset(
    {
        "os",
        "pathlib",
        "io",
        "shutil",
        "tempfile",
        "fcntl",
        "mmap",
        "glob",
        "gzip",
        "zlib",
        "subprocess",
        "socket",
        "select",
        "selectors",
        "asyncio",
        "PIL",
        "nbtlib",
    }
)
# (module, name) pairs allowed from otherwise refused packages: data, not I/O.
ALLOWED_FROM = frozenset({("pillow_minecraft_map.plugin", "JE_1_17_PALETTE")})
REFUSED_ROOTS = IO_MODULES | {"pillow_minecraft_map", "importlib"}
REFUSED_CALLS = frozenset({"open", "__import__"})

WORLD = Path(controller.world.__file__).parent
MODULES = sorted(WORLD.rglob("*.py"))


def violations(source: str) -> list[str]:
    """Every import or call in ``source`` that breaks the purity rule, as readable lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if _refused(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [a.name for a in node.names if (node.module, a.name) not in ALLOWED_FROM]
            if names and _refused(node.module):
                found.append(f"from {node.module} import {', '.join(names)}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in REFUSED_CALLS
        ):
            found.append(f"{node.func.id}(...) at line {node.lineno}")
    return found


def _refused(module: str) -> bool:
    return module.split(".")[0] in REFUSED_ROOTS


@pytest.mark.parametrize(
    "source",
    [
        "import os",
        "import os.path as p",
        "from pathlib import Path",
        "def f():\n    import gzip",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from PIL import Image",
        "from nbtlib import File",
        "from pillow_minecraft_map.plugin import JE_1_17_PALETTE, MinecraftMapImageFile",
        "import importlib",
        "data = open('x').read()",
    ],
)
def test_the_check_catches_io(source: str) -> None:
    assert violations(source)


def test_the_check_allows_pure_imports() -> None:
    pure = (
        "import json, re, uuid\nimport numpy as np\nfrom controller.puzzle.model import Board\n"
        "from pillow_minecraft_map.plugin import JE_1_17_PALETTE\n"
    )
    assert violations(pure) == []


def test_world_modules_do_no_io() -> None:
    names = {p.relative_to(WORLD).as_posix() for p in MODULES}
    assert names >= {"__init__.py", "commands.py", "mapart.py", "pipes/boardart.py", "paint/art.py"}
    found = {
        p.relative_to(WORLD).as_posix(): violations(p.read_text(encoding="utf-8")) for p in MODULES
    }
    assert {name: v for name, v in found.items() if v} == {}


def test_importing_the_world_package_loads_no_numpy() -> None:
    assert heavy_modules_after("import controller.world") == []


def test_pictures_load_on_first_use() -> None:
    body = "import controller.world as w\nassert w.PICTURE_COUNT == 20 and w.SIZE == 128"
    assert "numpy" in heavy_modules_after(body)
