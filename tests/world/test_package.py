"""The world package's public surface: every name of ``__all__`` resolves to its module's object,
and importing the package (or ``mapids`` alone) loads none of the other modules; each room kind's
vocabulary (``controller/world/<kind>/``) imports no other kind's."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import controller.world
from tests.support.imports import modules_after, static_imports

WORLD = Path(controller.world.__file__).parent
KINDS = ("pipes", "paint")
MODULES = [f"controller.world.{m}" for m in ("commands", "replies", "geometry", "mapart")]


@pytest.mark.parametrize("name", controller.world.__all__)
def test_every_public_name_is_its_module_object(name: str) -> None:
    where = controller.world._WHERE[name]
    module = importlib.import_module(f"controller.world.{where}")
    assert getattr(controller.world, name) is (module if name == where else getattr(module, name))


def test_the_surface_maps_each_name_once() -> None:
    assert len(set(controller.world.__all__)) == len(controller.world.__all__)
    assert set(controller.world.__all__) == set(controller.world._WHERE)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = controller.world.no_such_name  # type: ignore[attr-defined]


def test_the_map_ids_alone_load_nothing_else_of_the_world() -> None:
    assert modules_after("import controller.world.mapids", MODULES) == []
    assert modules_after("from controller.world import Room", MODULES) == [
        "controller.world.geometry"
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_a_kind_s_vocabulary_imports_no_other_kind_s(kind: str) -> None:
    others = [f"controller.world.{k}" for k in KINDS if k != kind]
    modules = sorted((WORLD / kind).glob("*.py"))
    assert modules
    found = {
        path.name: sorted(
            m
            for m in static_imports(path.read_text(encoding="utf-8"), typing_too=True)
            if any(m == o or m.startswith(o + ".") for o in others)
        )
        for path in modules
    }
    assert {name: bad for name, bad in found.items() if bad} == {}
