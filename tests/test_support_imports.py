"""Tests share code only through ``tests/support``: no test module imports another one, and
conftest files hold fixtures and hooks only.

Every ``.py`` file under ``tests/`` (conftest files and ``tests/support`` included) may import
``tests.support`` and its modules, and nothing else of ``tests``; relative imports are refused
too, and so is loading a module by its path, so nothing slips past. ``bench/`` may use only the
support modules meant for it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUPPORT = "tests.support"
BY_PATH = "spec_from_file_location"  # importlib's way to load a module from a file path
# The support modules a benchmark may share with the tests: command samples, the fake RCON
# servers, the harness's full-recompute world check, the clock that moves only when told, the
# tamper kinds, and the runs of a daemon stopped by signals, and the PostgreSQL server the
# records tests start.
BENCH_MAY_USE = frozenset(
    {
        "tests.support.command_forms",
        "tests.support.rcon_fakes",
        "tests.support.harness",
        "tests.support.stepclock",
        "tests.support.tamper",
        "tests.support.stop_runs",
        "tests.support.postgres",
    }
)


def imported_modules(source: str) -> list[str]:
    """Every module an import statement names (``from a import b`` gives ``a`` and ``a.b``);
    a relative import gives its dots (``.conftest``)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            names.append(base)
            if node.module and node.level == 0:
                names.extend(f"{base}.{alias.name}" for alias in node.names)
    return names


def loads_by_path(source: str) -> bool:
    """Whether the code names importlib's loader of a module from a file path."""
    return any(
        isinstance(node, ast.Attribute)
        and node.attr == BY_PATH
        or isinstance(node, ast.Name)
        and node.id == BY_PATH
        or isinstance(node, ast.alias)
        and node.name == BY_PATH
        for node in ast.walk(ast.parse(source))
    )


def _is_support(module: str) -> bool:
    return module == SUPPORT or module.startswith(SUPPORT + ".")


def module_violations(source: str) -> list[str]:
    """The imports of one tests/ file that reach another test module."""
    bad = [BY_PATH] if loads_by_path(source) else []
    for module in imported_modules(source):
        if module.startswith("."):
            bad.append(module)
        elif (module == "tests" or module.startswith("tests.")) and not _is_support(module):
            bad.append(module)
    return sorted(set(bad))


def bench_violations(source: str) -> list[str]:
    """The imports of one bench/ file that reach test code other than what bench may use."""
    bad = [BY_PATH] if loads_by_path(source) else []
    for module in imported_modules(source):
        if module.startswith("."):
            bad.append(module)
        elif module == "tests" or module.startswith("tests."):
            if module not in BENCH_MAY_USE and module.rsplit(".", 1)[0] not in BENCH_MAY_USE:
                bad.append(module)
    return sorted(set(bad))


@pytest.mark.parametrize(
    "source",
    [
        "from tests.runtime.conftest import Harness",
        "from tests.puzzle.test_flow import tree_boards",
        "import tests.rcon.fake_server",
        "from tests import grammar",
        "from .conftest import make_config",
        "def f():\n    from tests.sandbox.test_protocol_fakes import FakeGame",
    ],
)
def test_the_check_catches_imports_of_test_modules(source: str) -> None:
    assert module_violations(source)


def test_the_check_allows_the_support_package() -> None:
    source = (
        "import pytest\nfrom controller.sandbox import Sandbox\n"
        "from tests.support.harness import Harness\nfrom tests.support import boards\n"
        "import tests.support.grammar\n"
    )
    assert module_violations(source) == []


def test_bench_check_allows_only_its_support_modules() -> None:
    assert bench_violations("from tests.support.command_forms import GOOD") == []
    assert bench_violations("from controller.maps import install_pictures") == []
    assert bench_violations("from tests.support.grammar import assert_valid_commands")
    assert bench_violations("from tests.test_grammar_helper import GOOD")
    assert bench_violations("spec = importlib.util.spec_from_file_location('m', path)")


def test_tests_import_shared_code_only_from_support() -> None:
    found = {
        str(path.relative_to(ROOT)): bad
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if (bad := module_violations(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "move shared helpers into tests/support/"


def test_bench_imports_no_test_module() -> None:
    found = {
        str(path.relative_to(ROOT)): bad
        for path in sorted((ROOT / "bench").rglob("*.py"))
        if (bad := bench_violations(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_support_modules_say_what_they_hold() -> None:
    missing = [
        path.name
        for path in sorted((ROOT / "tests" / "support").glob("*.py"))
        if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert missing == []


def helpers_in_conftest(source: str) -> list[str]:
    """The top-level classes and functions of a conftest that are neither fixtures nor hooks."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            found.append(node.name)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            fixture = any("fixture" in ast.unparse(d) for d in node.decorator_list)
            if not fixture and not node.name.startswith("pytest_"):
                found.append(node.name)
    return found


def test_the_conftest_check_finds_helpers() -> None:
    source = (
        "import pytest\n@pytest.fixture\ndef server(): ...\n"
        "def pytest_collection_modifyitems(config, items): ...\n"
        "def make_config(): ...\nclass Harness: ...\n"
    )
    assert helpers_in_conftest(source) == ["make_config", "Harness"]


def test_conftests_hold_fixtures_and_hooks_only() -> None:
    found = {
        str(path.relative_to(ROOT)): bad
        for path in sorted((ROOT / "tests").rglob("conftest.py"))
        if (bad := helpers_in_conftest(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "shared helpers belong in tests/support/"
