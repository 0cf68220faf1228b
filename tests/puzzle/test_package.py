"""The engine's public surface: every name of ``__all__`` resolves, and importing stays light."""

from __future__ import annotations

import importlib

import pytest

import controller.puzzle
from tests.support.imports import modules_after

ENGINE_MODULES = ("generators", "solver", "deduce", "flow", "play", "serialize", "netid")


@pytest.mark.parametrize("name", controller.puzzle.__all__)
def test_every_public_name_is_its_module_object(name: str) -> None:
    module = importlib.import_module(f"controller.puzzle.{controller.puzzle._WHERE[name]}")
    assert getattr(controller.puzzle, name) is getattr(module, name)


def test_the_surface_lists_each_name_once_and_only_mapped_names() -> None:
    assert len(set(controller.puzzle.__all__)) == len(controller.puzzle.__all__)
    assert set(controller.puzzle.__all__) == set(controller.puzzle._WHERE)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = controller.puzzle.no_such_name  # type: ignore[attr-defined]


def test_the_model_alone_loads_no_generator_or_solver() -> None:
    assert modules_after("import controller.puzzle.solver", ["controller.puzzle.solver"])
    loaded = modules_after(
        "import controller.puzzle.model", [f"controller.puzzle.{m}" for m in ENGINE_MODULES]
    )
    assert loaded == []
