"""`pipesctl maps install | preview | export` through typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import nbtlib
import numpy as np
import pytest
from nbtlib import Compound, File, Int, String
from PIL import Image
from typer.testing import CliRunner

from controller.cli import app as pipesctl
from controller.cli.maps import CACHE_WARNING, app
from controller.errors import ExitCode
from controller.maps import Layout, atomic_save, map_file, map_path, probe, read_colors
from controller.versions import NEWEST, OLDEST, RELEASES, Release, release
from controller.world.datapack import build, folders
from controller.world.mapart import (
    DEFAULT_MAP_ID_BASE,
    PICTURE_COUNT,
    all_pictures,
    render_cross_picture,
    render_sink_picture,
)
from controller.world.mapids import (
    BRUSH_OFFSET,
    BRUSH_PICTURES,
    CROSS_OFFSET,
    CROSS_PICTURES,
    SINK_OFFSET,
    SINK_PICTURES,
)
from controller.world.packformat import compatibility
from controller.world.paint.art import render_brush
from tests.support.imports import heavy_modules_after
from tests.support.map_worlds import write_level_dat

runner = CliRunner()

CONFIG = """\
version: 1
servers:
  main:
    password_env: RCON_PASSWORD
    minecraft_version: "1.21.4"
worlds:
  lobby:
    origin: [0, 100, 0]
    map_id_base: 2000000
"""


# The pipe pictures, the paint rooms' brush pictures and the sink rooms' fixed pictures
# (docs/world-format.md).
OFFSETS = [
    *range(PICTURE_COUNT),
    *range(CROSS_OFFSET, CROSS_OFFSET + len(CROSS_PICTURES)),
    *range(BRUSH_OFFSET, BRUSH_OFFSET + len(BRUSH_PICTURES)),
    *range(SINK_OFFSET, SINK_OFFSET + len(SINK_PICTURES)),
]


def ids_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_install_writes_all_pictures_and_warns_about_caching(tmp_path: Path) -> None:
    result = runner.invoke(app, ["install", "--world-dir", str(tmp_path), "--create"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "data" / "minecraft" / "maps"  # default version 26.1
    base = DEFAULT_MAP_ID_BASE
    assert ids_in(folder) == sorted(f"{base + k}.dat" for k in OFFSETS)
    assert f"map ids {base}..{base + PICTURE_COUNT - 1}" in result.output
    assert f"{PICTURE_COUNT} write" in result.output
    assert f"paint brush map ids {base + 32}..{base + 34}" in result.output
    assert "  3 write" in result.output
    for k, axis in enumerate(BRUSH_PICTURES):
        shown = read_colors(folder / f"{base + BRUSH_OFFSET + k}.dat")
        assert np.array_equal(shown, render_brush(axis))
    assert f"sink room map ids {base + 40}..{base + 42}" in result.output
    for k, picture in enumerate(SINK_PICTURES):
        shown = read_colors(folder / f"{base + SINK_OFFSET + k}.dat")
        assert np.array_equal(shown, render_sink_picture(picture))
    assert f"sink room cross map ids {base + 20}..{base + 24}" in result.output
    for k, picture in enumerate(CROSS_PICTURES):
        shown = read_colors(folder / f"{base + CROSS_OFFSET + k}.dat")
        assert np.array_equal(shown, render_cross_picture(picture))
    assert " ".join(CACHE_WARNING.split()) in " ".join(result.output.split())

    again = runner.invoke(app, ["install", "--world-dir", str(tmp_path), "--create"])
    assert again.exit_code == 0
    assert f"{PICTURE_COUNT} unchanged" in again.output


def test_install_takes_base_and_version_from_the_world(tmp_path: Path) -> None:
    config = tmp_path / "pipes.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    world = tmp_path / "world"
    args = ["install", "--world-dir", str(world), "--world", "lobby", "--config", str(config)]
    result = runner.invoke(app, [*args, "--create"])
    assert result.exit_code == 0, result.output
    assert ids_in(world / "data") == sorted(f"map_{2000000 + k}.dat" for k in OFFSETS)
    assert nbtlib.load(world / "data" / "map_2000004.dat")["DataVersion"] == 4189


def test_install_unknown_world_is_a_usage_error(tmp_path: Path) -> None:
    config = tmp_path / "pipes.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    args = ["install", "--world-dir", str(tmp_path), "--world", "attic", "--config", str(config)]
    result = runner.invoke(app, [*args, "--create"])
    assert result.exit_code == 2
    assert "no world 'attic'" in result.output and "lobby" in result.output


def test_install_bad_config_exits_3(tmp_path: Path) -> None:
    config = tmp_path / "pipes.yaml"
    config.write_text("worlds: [1, 2]\n", encoding="utf-8")
    args = ["install", "--world-dir", str(tmp_path), "--world", "lobby", "--config", str(config)]
    assert runner.invoke(app, [*args, "--create"]).exit_code == 3


def test_install_refuses_a_folder_no_server_made(tmp_path: Path) -> None:
    typo = tmp_path / "wrold"
    missing = runner.invoke(app, ["install", "--world-dir", str(typo)])
    assert missing.exit_code == ExitCode.USAGE
    assert f"world folder {typo} does not exist" in missing.output
    assert "--create" in missing.output
    assert not typo.exists()
    empty = runner.invoke(app, ["install", "--world-dir", str(tmp_path)])
    assert empty.exit_code == ExitCode.USAGE
    assert "holds no level.dat" in empty.output and "--create" in empty.output
    assert list(tmp_path.iterdir()) == []


def test_install_create_makes_the_world_folder(tmp_path: Path) -> None:
    world = tmp_path / "server" / "world"
    result = runner.invoke(app, ["install", "--world-dir", str(world), "--create"])
    assert result.exit_code == ExitCode.OK, result.output
    assert len(ids_in(world / "data" / "minecraft" / "maps")) == len(OFFSETS)
    assert (world / "datapacks" / "pipesctl" / "pack.mcmeta").is_file()


def test_install_reads_level_dat(tmp_path: Path) -> None:
    data = Compound({"DataVersion": Int(4790), "Version": Compound({"Name": String("26.1.2")})})
    File({"Data": data}, gzipped=True).save(tmp_path / "level.dat")
    result = runner.invoke(app, ["install", "--world-dir", str(tmp_path), "--base", "10"])
    assert result.exit_code == 0, result.output
    assert "level.dat: DataVersion 4790 (26.1.2)" in result.output
    assert nbtlib.load(tmp_path / "data/minecraft/maps/10.dat")["DataVersion"] == 4790
    assert "for 26.1.2, format 101.1" in result.output


def test_install_version_overrides_level_dat(tmp_path: Path) -> None:
    """An admin installing for the release the server is about to run: --version wins."""
    write_level_dat(tmp_path, 4189, "1.21.4")
    args = ["install", "--world-dir", str(tmp_path), "--base", "10", "--version", "26.1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "level.dat says DataVersion 4189 (1.21.4)" in result.output
    assert nbtlib.load(tmp_path / "data/minecraft/maps/10.dat")["DataVersion"] == 4786
    assert not (tmp_path / "data" / "map_10.dat").exists()


@pytest.mark.parametrize(
    ("data_version", "name"), [(4779, "26.1-snapshot-11"), (3700, "1.20.4"), (5011, None)]
)
def test_install_refuses_a_world_of_an_unsupported_release(
    tmp_path: Path, data_version: int, name: str | None
) -> None:
    write_level_dat(tmp_path, data_version, name)
    result = runner.invoke(pipesctl, ["install", "--world-dir", str(tmp_path)])
    assert result.exit_code == ExitCode.USAGE
    (line,) = result.output.strip().splitlines()
    assert line.startswith("error: ") and f"DataVersion {data_version}" in line
    assert f"Java {OLDEST.name} to {NEWEST.name}" in line and "--version" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["level.dat"]  # nothing written


@pytest.mark.parametrize("version", ["1.20.4", "1.21.12", "26.3", "latest", ""])
def test_install_and_export_refuse_unsupported_versions(tmp_path: Path, version: str) -> None:
    for argv in (
        ["install", "--world-dir", str(tmp_path / "w"), "--create", "--version", version],
        ["maps", "export", str(tmp_path / "e"), "--version", version],
    ):
        result = runner.invoke(pipesctl, argv)
        assert result.exit_code == ExitCode.USAGE, result.output
        (line,) = result.output.strip().splitlines()
        assert f"pipesctl serves Java {OLDEST.name} to {NEWEST.name}" in line
    assert list(tmp_path.iterdir()) == []


def _written_for(world: Path, target: Release, base: int) -> None:
    """What `target` reads: a compatible pack.mcmeta, the functions and the advancement in its
    folders, every map file where it looks for them, with its DataVersion and every field."""
    pack = world / "datapacks" / "pipesctl"
    meta = json.loads((pack / "pack.mcmeta").read_text())["pack"]
    assert compatibility(meta, target) == "compatible"
    fn, adv = folders(target).function, folders(target).advancement
    assert (pack / "data" / "pipes" / fn / "clicked.mcfunction").is_file()
    assert (pack / "data" / "pipes" / adv / "clicked.json").is_file()
    assert (pack / "data" / "minecraft" / folders(target).function_tags / "load.json").is_file()
    files = {p.relative_to(pack).as_posix() for p in pack.rglob("*") if p.is_file()}
    assert files == set(build(target))
    layout = Layout.NAMESPACED if target.namespaced_maps else Layout.LEGACY
    for k in OFFSETS:
        root = nbtlib.load(map_path(world, layout, base + k))
        assert int(root["DataVersion"]) == target.data_version
        data = root["data"]
        assert str(data["dimension"]) == "minecraft:overworld"
        assert len(data["colors"]) == 128 * 128
        assert int(data["locked"]) == 1
        assert int(data["trackingPosition"]) == 0 and int(data["scale"]) == 0
        assert {"xCenter", "zCenter", "unlimitedTracking"} <= set(data)
    other = Layout.LEGACY if layout is Layout.NAMESPACED else Layout.NAMESPACED
    assert not map_path(world, other, base).exists()


@pytest.mark.parametrize("target", RELEASES, ids=str)
def test_install_writes_what_each_release_reads(tmp_path: Path, target: Release) -> None:
    """For every supported release: `install --create --version V`, then the same world with
    a level.dat of V and no --version, and `export --version V`, all write what V reads."""
    world = tmp_path / "world"
    argv = ["install", "--create", "--version", target.name, "--world-dir", str(world)]
    result = runner.invoke(pipesctl, [*argv, "--base", "0"])
    assert result.exit_code == ExitCode.OK, result.output
    _written_for(world, target, 0)
    old = tmp_path / "old"
    write_level_dat(old, target.data_version, target.name)
    result = runner.invoke(pipesctl, ["install", "--world-dir", str(old), "--base", "0"])
    assert result.exit_code == ExitCode.OK, result.output
    _written_for(old, target, 0)
    out = tmp_path / "export"
    result = runner.invoke(app, ["export", str(out), "--version", target.name, "--base", "0"])
    assert result.exit_code == ExitCode.OK, result.output
    _written_for(out, target, 0)


def test_install_refuses_foreign_maps_unless_forced(tmp_path: Path) -> None:
    theirs = map_path(tmp_path, Layout.NAMESPACED, 500 + 7)
    atomic_save(map_file(np.full((128, 128), 34, dtype=np.uint8), 4790), theirs)
    args = ["install", "--world-dir", str(tmp_path), "--base", "500", "--create"]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 1
    assert str(theirs) in refused.output and "--force" in refused.output
    assert ids_in(theirs.parent) == ["507.dat"]
    forced = runner.invoke(app, [*args, "--force"])
    assert forced.exit_code == 0, forced.output
    assert "replaced a foreign map" in forced.output
    assert np.array_equal(read_colors(theirs), all_pictures(500)[507])


def test_install_warns_when_the_counter_reaches_the_base(tmp_path: Path) -> None:
    counter = File({"data": Compound({"map": Int(600)}), "DataVersion": Int(4790)}, gzipped=True)
    atomic_save(counter, tmp_path / "data" / "minecraft" / "maps" / "last_id.dat")
    before = (tmp_path / "data" / "minecraft" / "maps" / "last_id.dat").read_bytes()
    result = runner.invoke(
        app, ["install", "--world-dir", str(tmp_path), "--base", "590", "--create"]
    )
    assert result.exit_code == 0
    assert "map counter is at 600" in result.stderr
    assert (tmp_path / "data" / "minecraft" / "maps" / "last_id.dat").read_bytes() == before


def test_install_warns_when_a_server_runs_on_the_world(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(probe, "server_holds_world", lambda world: world == tmp_path)
    result = runner.invoke(app, ["install", "--world-dir", str(tmp_path), "--create"])
    assert result.exit_code == 0
    assert "a server is running on this world" in result.stderr
    quiet = runner.invoke(app, ["install", "--world-dir", str(tmp_path / "other"), "--create"])
    assert "server is running" not in quiet.stderr


@pytest.mark.parametrize("base", ["-1", str(2**31 - 10)])
def test_install_rejects_bases_outside_the_id_range(tmp_path: Path, base: str) -> None:
    result = runner.invoke(
        app, ["install", "--world-dir", str(tmp_path), "--base", base, "--create"]
    )
    assert result.exit_code == 2
    assert not (tmp_path / "data").exists()


def test_preview_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "maps.png"
    result = runner.invoke(app, ["preview", "--out", str(out), "--base", "42"])
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert image.format == "PNG"
        assert image.width % 128 == 0 and image.height % 128 == 0


def test_export_writes_the_layout_of_the_version(tmp_path: Path) -> None:
    out = tmp_path / "export"
    result = runner.invoke(app, ["export", str(out), "--version", "1.21.4", "--base", "0"])
    assert result.exit_code == 0, result.output
    assert ids_in(out / "data") == sorted(f"map_{k}.dat" for k in OFFSETS)
    assert nbtlib.load(out / "data" / "map_0.dat")["DataVersion"] == 4189
    assert "Copy" in result.output


@pytest.mark.parametrize("args", [["--help"], ["maps", "--help"], ["maps", "install", "--help"]])
def test_help_loads_no_numpy_pil_or_nbtlib(args: list[str]) -> None:
    """CLI start-up stays quick: the map commands load the picture libraries when they run."""
    body = (
        f"sys.argv = ['pipesctl', *{args!r}]\n"
        "from controller.cli import main\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
    )
    assert heavy_modules_after(body) == []


def test_install_writes_maps_and_the_data_pack_idempotently(tmp_path: Path) -> None:
    world = tmp_path / "world"
    write_level_dat(world, 4790, "26.1.2")
    first = runner.invoke(pipesctl, ["install", "--world-dir", str(world)])
    assert first.exit_code == ExitCode.OK, first.output
    pack = world / "datapacks" / "pipesctl"
    for rel, data in build(release("26.1.2")).items():
        assert (pack / rel).read_bytes() == data
    assert "file/pipesctl" in first.output
    stale = pack / "data" / "pipes" / "function" / "old.mcfunction"
    stale.write_text("say old\n")
    again = runner.invoke(pipesctl, ["maps", "install", "--world-dir", str(world)])
    assert again.exit_code == ExitCode.OK, again.output
    assert not stale.exists()
    third = runner.invoke(pipesctl, ["install", "--world-dir", str(world)])
    assert "data pack" in third.output and "unchanged" in third.output
    assert sorted(p.relative_to(pack).as_posix() for p in pack.rglob("*") if p.is_file()) == sorted(
        build(release("26.1.2"))
    )


def test_a_rooms_poll_reach_widens_the_packs_marks(tmp_path: Path) -> None:
    """Without `poll_reach` the pack marks by the server's reach (6.71, creative 8.71 from the
    eyes); the room's `poll_reach: 12` makes it one radius for every game mode."""
    clicked = Path("datapacks/pipesctl/data/pipes/function/clicked.mcfunction")
    config = tmp_path / "pipes.yaml"
    config.write_text(CONFIG + "    poll_reach: 12\n", encoding="utf-8")
    plain, wide = tmp_path / "plain", tmp_path / "wide"
    assert runner.invoke(app, ["export", str(plain), "--version", "26.1"]).exit_code == 0
    result = runner.invoke(app, ["export", str(wide), "-w", "lobby", "-c", str(config)])
    assert result.exit_code == ExitCode.OK, result.output

    def marking(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.endswith("add pipes.new")]

    marks = marking((plain / clicked).read_text())
    assert ["..8.71," in marks[0], "..6.71," in marks[4]] == [True, True]
    marks = marking((wide / clicked).read_text())
    assert marks == [
        "execute at @s anchored eyes positioned ^ ^ ^ run tag @e[tag=pipes,tag=pipes.r"
        f"{r},tag=!pipes.near,distance=..12,nbt=!{{ItemRotation:{r}b}}] add pipes.new"
        for r in range(4)
    ]


def test_export_includes_the_data_pack(tmp_path: Path) -> None:
    out = tmp_path / "export"
    result = runner.invoke(pipesctl, ["maps", "export", str(out), "--version", "26.2"])
    assert result.exit_code == ExitCode.OK, result.output
    meta = json.loads((out / "datapacks" / "pipesctl" / "pack.mcmeta").read_text())
    assert meta["pack"]["min_format"] == [107, 1]


def test_map_commands_take_the_short_flags_of_every_command(tmp_path: Path) -> None:
    config = tmp_path / "pipes.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    out = tmp_path / "export"
    result = runner.invoke(app, ["export", str(out), "-w", "lobby", "-c", str(config)])
    assert result.exit_code == ExitCode.OK, result.output
    assert len(ids_in(out / "data")) == len(OFFSETS)  # 1.21.4 of the room's server: legacy
