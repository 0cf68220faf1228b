"""The world package's public surface: every name of ``__all__`` resolves to its module's object,
and importing the package (or ``mapids`` alone) loads none of the other modules."""

from __future__ import annotations

import importlib

import pytest

import controller.world
from tests.support.imports import modules_after

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
