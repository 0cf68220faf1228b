"""Configuration of paint rooms: `kind`, the `paint` keys, their errors and placement checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import PaintConfig, parse_config
from controller.errors import ConfigError


def _cfg(**worlds: dict[str, object]) -> dict[str, object]:
    return {"servers": {"main": {"password_env": "X"}}, "worlds": worlds}


def _paint(**kw: object) -> dict[str, object]:
    return {"origin": [0, 64, 0], "server": "main", "kind": "paint", "size": [8, 6], **kw}


def _problems(data: dict[str, object]) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(data, "pipes.yaml")
    return info.value.problems


def test_kind_defaults_to_pipes_and_paint_keys_to_their_defaults() -> None:
    cfg = parse_config(_cfg(lobby={"origin": [0, 64, 0]}, art=_paint(origin=[100, 64, 0])))
    assert cfg.worlds["lobby"].kind == "pipes" and cfg.worlds["lobby"].paint is None
    art = cfg.worlds["art"]
    assert art.kind == "paint" and art.paint_keys == PaintConfig()
    assert art.paint_keys.blocks == ("minecraft:white_concrete", "minecraft:blue_concrete")
    assert (art.paint_keys.orientation, art.paint_keys.target) == ("floor", "above")


def test_paint_keys_are_read_and_block_ids_namespaced() -> None:
    keys = {"blocks": ["stone", "minecraft:gold_block"], "orientation": "wall", "target": "left"}
    cfg = parse_config(_cfg(art=_paint(paint={**keys, "generator": "strokes", "par": 7})))
    paint = cfg.worlds["art"].paint_keys
    assert paint.blocks == ("minecraft:stone", "minecraft:gold_block")
    assert (paint.orientation, paint.target, paint.generator, paint.par) == (
        "wall", "left", "strokes", 7,
    )  # fmt: skip


def test_every_paint_problem_is_reported_with_its_path() -> None:
    problems = _problems(
        _cfg(
            a=_paint(paint={"blocks": ["stone"], "orientation": "ceiling"}),
            b=_paint(origin=[100, 64, 0], paint={"blocks": ["stone", "minecraft:stone"]}),
            c=_paint(origin=[200, 64, 0], paint={"cells": 49}),
            d=_paint(origin=[300, 64, 0], paint={"generator": "strokes", "par": 14}),
            e=_paint(origin=[400, 64, 0], paint={"par": 3}),
            f=_paint(origin=[500, 64, 0], generator="eller", coverage=0.3),
            g={"origin": [600, 64, 0], "server": "main", "paint": {}},
            h=_paint(origin=[700, 64, 0], paint={"target": "below", "colour": 3}),
            i=_paint(origin=[800, 64, 0], on_win={"waves_s": 1}),
            j=_paint(origin=[900, 64, 0], restart_by=["*"], undo=False),
        )
    )
    assert (
        "worlds.a.paint.blocks: must be two block ids [colour 0, colour 1] like "
        "minecraft:stone" in problems
    )
    assert any(p.startswith("worlds.a.paint.orientation: Input should be 'floor' or 'wall'")
               for p in problems)  # fmt: skip
    assert "worlds.b.paint.blocks: the two colours must be different blocks" in problems
    assert "worlds.c.paint.cells: must be 1..48 for this size" in problems
    assert "worlds.d.paint.par: must be 0..13 for this size" in problems
    assert "worlds.e.paint.par: only for the strokes generator" in problems
    assert (
        "worlds.f.generator: only for pipes rooms (paint rooms take `paint.generator`)" in problems
    )
    assert any(p.startswith("worlds.f.coverage: only for pipes rooms") for p in problems)
    assert "worlds.i.on_win.waves_s: only for pipes rooms (the water's waves)" in problems
    assert "worlds.j.restart_by: only for pipes rooms" in problems
    assert "worlds.j.undo: only for pipes rooms" in problems
    assert "worlds.g.paint: only for rooms with `kind: paint`" in problems
    assert any(p.startswith("worlds.h.paint.target: Input should be") for p in problems)
    assert any(p.startswith("worlds.h.paint.colour: Extra inputs") for p in problems)


def test_paint_rooms_take_the_player_feature_keys() -> None:
    keys = {
        "seed": "daily",
        "on_win": {"command": "/give {player} minecraft:cookie", "sidebar": True},
        "hint": {"cooldown_s": 10, "glow_s": 2},
        "stats": False,
    }
    art = parse_config(_cfg(art=_paint(**keys))).worlds["art"]
    assert art.seed == "daily" and art.on_win.command == "give {player} minecraft:cookie"
    assert (art.hint.cooldown_s, art.hint.glow_s, art.stats) == (10, 2, False)


def test_a_paint_room_checks_the_player_feature_keys_like_a_pipes_room() -> None:
    problems = _problems(
        _cfg(
            a=_paint(on_win={"command": "say {winner}"}),
            b=_paint(origin=[100, 64, 0], hint={"cooldown_s": -1}),
            c=_paint(origin=[200, 64, 0], seed="weekly"),
        )
    )
    assert any(p.startswith("worlds.a.on_win.command:") and "{winner}" in p for p in problems)
    assert any(p.startswith("worlds.b.hint.cooldown_s:") for p in problems)
    assert any(p.startswith("worlds.c.seed.") and "daily" in p for p in problems)


def test_a_paint_room_overlaps_by_its_own_box() -> None:
    # The target copy above (north of) the canvas reaches 8 rows further north than the canvas.
    pipes = {"origin": [0, 64, -12], "server": "main", "size": [5, 5]}
    problems = _problems(_cfg(lobby=pipes, art=_paint()))
    assert "worlds.art: overlaps room 'lobby'" in problems
    parse_config(_cfg(lobby=pipes, art=_paint(paint={"target": "none"})))


def test_a_wall_room_must_fit_the_build_height() -> None:
    problems = _problems(_cfg(art=_paint(origin=[0, 315, 0], paint={"orientation": "wall"})))
    assert any(p.startswith("worlds.art.origin: the room spans y 309..323") for p in problems)


def _yaml_blocks(text: str) -> list[str]:
    return [b.split("```", 1)[0] for b in text.split("```yaml\n")[1:]]


def test_the_documented_examples_are_valid_paint_rooms() -> None:
    import yaml

    root = Path(__file__).resolve().parents[1]
    for doc in ("README.md", "docs/paint.md"):
        blocks = [b for b in _yaml_blocks((root / doc).read_text()) if "kind: paint" in b]
        assert blocks, doc
        for block in blocks:
            worlds = yaml.safe_load(block)["worlds"]
            cfg = parse_config({"servers": {"main": {"password_env": "X"}}, "worlds": worlds})
            assert all(w.kind == "paint" for w in cfg.worlds.values())
    template = (root / "config" / "pipes.example.yaml").read_text()
    commented = template.split("  # gallery:\n", 1)[1]
    room = "\n".join(line.replace("#", "", 1)[1:] for line in commented.splitlines())
    cfg = parse_config(_cfg(gallery=yaml.safe_load(room)))
    assert cfg.worlds["gallery"].paint_keys.orientation == "floor"
