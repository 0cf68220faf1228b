"""Configuration of the pipes rooms' `mode`: tree (the default) or sink, and its errors."""

from __future__ import annotations

import pytest

from controller.config import parse_config
from controller.errors import ConfigError


def _cfg(**worlds: dict[str, object]) -> dict[str, object]:
    return {"servers": {"main": {"password_env": "X"}}, "worlds": worlds}


def _room(x: int = 0, **kw: object) -> dict[str, object]:
    return {"origin": [x, 64, 0], "server": "main", "size": [7, 7], **kw}


def _problems(data: dict[str, object]) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(data, "pipes.yaml")
    return info.value.problems


def test_mode_defaults_to_tree_and_sink_takes_coverage() -> None:
    cfg = parse_config(
        _cfg(a=_room(), b=_room(100, mode="sink", coverage=0.3), c=_room(200, mode="tree"))
    )
    assert cfg.worlds["a"].mode == "tree" and cfg.worlds["c"].mode == "tree"
    assert cfg.worlds["b"].mode == "sink" and cfg.worlds["b"].coverage == 0.3


def test_sink_mode_refuses_the_tree_keys_and_unknown_modes() -> None:
    problems = _problems(
        _cfg(
            a=_room(mode="sink", generator="walk", unique=False),
            b=_room(100, mode="sink", branching=0.2),
            c=_room(200, mode="maze"),
            d={"origin": [300, 64, 0], "kind": "paint", "mode": "sink"},
        )
    )
    tail = "only for `mode: tree` (a sink room's route takes `coverage` only)"
    assert f"worlds.a.generator: {tail}" in problems
    assert f"worlds.a.unique: {tail}" in problems
    assert f"worlds.b.branching: {tail}" in problems
    assert any(p.startswith("worlds.c.mode: Input should be 'tree' or 'sink'") for p in problems)
    assert any(p.startswith("worlds.d.mode: only for pipes rooms") for p in problems)
    assert len(problems) == 5, problems


def test_sink_rooms_take_crosses_and_holes_and_tree_rooms_refuse_them() -> None:
    cfg = parse_config(_cfg(a=_room(mode="sink", crosses=0.5, holes=True), b=_room(100)))
    assert cfg.worlds["a"].crosses == 0.5 and cfg.worlds["a"].holes is True
    assert cfg.worlds["b"].crosses == 0.0 and cfg.worlds["b"].holes is False
    problems = _problems(
        _cfg(a=_room(crosses=0.5), b=_room(100, holes=True), c=_room(200, mode="sink", crosses=2))
    )
    tail = "only for `mode: sink` (crosses and holes are sink-room pieces)"
    assert f"worlds.a.crosses: {tail}" in problems
    assert f"worlds.b.holes: {tail}" in problems
    assert any(
        p.startswith("worlds.c.crosses: Input should be less than or equal to 1") for p in problems
    )
    assert len(problems) == 3, problems
