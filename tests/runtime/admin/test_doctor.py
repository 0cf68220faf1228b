"""Doctor's checks of what `install` wrote against the server's release (no server needed)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from controller.maps.datapack import PACK_FOLDER, install_pack
from controller.maps.install import install_pictures
from controller.maps.probe import Target
from controller.puzzle.generators import GeneratorParams, generate
from controller.runtime.admin.doctor import (
    Check,
    Report,
    check_map_files,
    check_pack_files,
    check_world_format,
)
from controller.runtime.state import SINK_WORLD_FORMAT, WORLD_FORMAT, RoomState
from controller.versions import RELEASES, Release, release
from controller.world.datapack import build
from controller.world.mapart import all_pictures

BASE = 5000
IDS = sorted(all_pictures(BASE))


def _install(world: Path, target: Release) -> None:
    install_pictures(world, all_pictures(BASE), Target(target, "test"))
    install_pack(world / "datapacks" / PACK_FOLDER, build(target))


def _checks(world: Path | None, server: Release) -> dict[str, Check]:
    report = Report("lobby", "main")
    check_map_files(report, world, server, IDS)
    check_pack_files(report, world, server)
    return {c.name: c for c in report.checks}


@pytest.mark.parametrize("target", RELEASES, ids=str)
def test_what_install_wrote_for_a_release_passes_for_it(tmp_path: Path, target: Release) -> None:
    _install(tmp_path, target)
    checks = _checks(tmp_path, target)
    assert [c.status for c in checks.values()] == ["pass", "pass"], checks
    assert f"at DataVersion {target.data_version} ({target.name})" in checks["map files"].detail
    assert checks["pack files"].detail.startswith(f"format {target.pack}, files in ")


def test_every_release_of_another_format_or_layout_fails(tmp_path: Path) -> None:
    """A world installed for 1.21.4: doctor for any other release reports what differs."""
    _install(tmp_path, release("1.21.4"))
    for server in RELEASES:
        checks = _checks(tmp_path, server)
        maps_ok = server.data_version == 4189
        pack_ok = server.pack.major == 61
        assert (checks["map files"].status == "pass") == maps_ok, server
        assert (checks["pack files"].status == "pass") == pack_ok, server
        for check in checks.values():
            if check.status == "fail":
                assert check.fix is not None and f"--version {server.name}" in check.fix


def test_map_files_at_another_data_version(tmp_path: Path) -> None:
    _install(tmp_path, release("26.1.2"))
    checks = _checks(tmp_path, release("26.1"))
    assert checks["map files"].status == "fail"
    assert checks["map files"].detail == (
        f"{len(IDS)} pictures at DataVersion 4790, not 26.1's 4786"
    )
    assert checks["pack files"].status == "pass"  # 26.1.2 writes format 101.1 as 26.1 does


def test_map_files_in_the_layout_the_release_does_not_read(tmp_path: Path) -> None:
    _install(tmp_path, release("1.21.11"))
    checks = _checks(tmp_path, release("26.1"))
    assert checks["map files"].detail == (
        f"{len(IDS)} of {len(IDS)} pictures missing from data/minecraft/maps/<id>.dat "
        f"(first: map id {BASE}); {len(IDS)} at data/map_<id>.dat, where 26.1 does not look"
    )
    assert checks["pack files"].detail == (
        "pack.mcmeta declares formats 94.1 to 94.*, 26.1 reads format 101.1: the server lists "
        "the pack as incompatible"
    )


def test_a_pack_with_plural_folders_on_a_release_reading_singular_ones(tmp_path: Path) -> None:
    """The 1.20.6 pack's functions/ and advancements/ with a 1.21 pack.mcmeta: 1.21 would load
    neither, so the check names the first file missing from the folders 1.21 reads."""
    _install(tmp_path, release("1.20.6"))
    pack = tmp_path / "datapacks" / PACK_FOLDER
    (pack / "pack.mcmeta").write_bytes(build(release("1.21"))["pack.mcmeta"])
    check = _checks(tmp_path, release("1.21"))["pack files"]
    assert check.status == "fail"
    assert check.detail == (
        "8 file(s) missing where 1.21 reads them (first: data/minecraft/tags/function/load.json; "
        "functions go in function/)"
    )


def test_no_pack_is_skipped_and_a_broken_one_fails(tmp_path: Path) -> None:
    _install(tmp_path, release("26.2"))
    pack = tmp_path / "datapacks" / PACK_FOLDER
    (pack / "pack.mcmeta").write_text("{not json", encoding="utf-8")
    assert _checks(tmp_path, release("26.2"))["pack files"].status == "fail"
    (pack / "pack.mcmeta").write_text(json.dumps({"pack": {"description": "x"}}))
    assert (
        "declares formats it does not read"
        in _checks(tmp_path, release("26.2"))["pack files"].detail
    )
    shutil.rmtree(pack)
    check = _checks(tmp_path, release("26.2"))["pack files"]
    assert (check.status, check.detail) == ("skip", f"no data pack in {pack}")


def test_without_a_world_folder_both_are_skipped() -> None:
    checks = _checks(None, release("26.1"))
    assert {c.status for c in checks.values()} == {"skip"}


class _Replies:
    """A link whose replies are fixed by command (the rest: empty)."""

    def __init__(self, replies: dict[str, str]) -> None:
        self.replies = replies

    def send(self, command: str) -> str:
        return self.replies.get(command, "")


@pytest.mark.parametrize(
    ("enabled", "protocol", "status"),
    [(True, 3, "pass"), (True, 2, "fail"), (True, None, "fail"), (False, None, "skip")],
)
def test_gestures_need_the_pack_of_protocol_three(
    enabled: bool, protocol: int | None, status: str
) -> None:
    from types import SimpleNamespace

    from controller.runtime.admin.doctor import _check_data_pack

    fid = "pipes:version"
    replies = {"datapack list enabled": "[vanilla (built-in)], [file/pipesctl (world)]"}
    if not enabled:
        replies = {"datapack list enabled": "[vanilla (built-in)]"}
    if protocol is not None:
        replies["function pipes:version"] = (
            f"Running function {fid}Function {fid} returned {protocol}"
        )
    report = Report("lobby", "main")
    _check_data_pack(report, _Replies(replies), SimpleNamespace(detect="auto"))  # type: ignore[arg-type]
    (gestures,) = [c for c in report.checks if c.name == "gestures"]
    assert gestures.status == status
    assert (gestures.fix is None) == (status == "pass")


def _format_check(tmp_path: Path, built: int) -> Check:
    path = tmp_path / "lobby.json"
    RoomState("lobby", generate(5, 5, seed=1), world_format=built).save(path)
    report = Report("lobby", "main")
    check_world_format(report, path)
    (check,) = report.checks
    return check


def test_the_world_format_and_what_the_next_start_changes(tmp_path: Path) -> None:
    now = _format_check(tmp_path, WORLD_FORMAT)
    assert (now.name, now.status, now.detail) == ("world format", "pass", "format 7")
    older = _format_check(tmp_path, 6)
    assert older.status == "pass" and older.detail.startswith("format 6; the next start moves")
    assert "7: tiles on dry loops and in closed islands" in older.detail
    assert "6: players may lock" not in older.detail
    oldest = _format_check(tmp_path, 4)
    assert "5: the block map copied" in oldest.detail and "6: players may lock" in oldest.detail
    assert "8:" not in oldest.detail  # a tree room stays at 7


def test_a_sink_room_at_format_7_is_told_of_format_8(tmp_path: Path) -> None:
    path = tmp_path / "lobby.json"
    board = generate(7, 7, seed=1, params=GeneratorParams(mode="sink"))
    for built, detail in (
        (SINK_WORLD_FORMAT, "format 8"),
        (7, "format 7; the next start moves it to 8 (8: sink rooms may deal crosses and holes"),
    ):
        RoomState("lobby", board, world_format=built).save(path)
        report = Report("lobby", "main")
        check_world_format(report, path)
        (check,) = report.checks
        assert check.status == "pass" and check.detail.startswith(detail)


def test_no_state_no_world_format_check_and_a_broken_one_is_skipped(tmp_path: Path) -> None:
    report = Report("lobby", "main")
    check_world_format(report, tmp_path / "lobby.json")
    assert report.checks == []
    (tmp_path / "lobby.json").write_text("{not json")
    check_world_format(report, tmp_path / "lobby.json")
    assert [(c.name, c.status) for c in report.checks] == [("world format", "skip")]
    assert report.checks[0].detail.startswith("state unreadable: state file ")


@pytest.mark.parametrize(
    ("enabled", "protocol", "status"),
    [(True, 4, "pass"), (True, 3, "fail"), (True, None, "fail"), (False, None, "skip")],
)
def test_undo_needs_the_pack_of_protocol_four(
    enabled: bool, protocol: int | None, status: str
) -> None:
    from types import SimpleNamespace

    from controller.runtime.admin.doctor import _check_data_pack

    fid = "pipes:version"
    listed = "[file/pipesctl (world)]" if enabled else ""
    replies = {"datapack list enabled": f"[vanilla (built-in)], {listed}"}
    if protocol is not None:
        replies["function pipes:version"] = (
            f"Running function {fid}Function {fid} returned {protocol}"
        )
    report = Report("lobby", "main")
    _check_data_pack(report, _Replies(replies), SimpleNamespace(detect="auto"))  # type: ignore[arg-type]
    (undo,) = [c for c in report.checks if c.name == "undo"]
    assert undo.status == status
    assert (undo.fix is None) == (status == "pass")
    assert "pipes_undo" in undo.detail or status == "pass"
