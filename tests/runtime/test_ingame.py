"""The pure parts of in-game play: wave order, the win command's substitution, records, the
daily seed."""

from __future__ import annotations

import datetime as dt
import string
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.config import check_win_command
from controller.puzzle.generators import generate
from controller.runtime.daily import daily_seed, utc_date
from controller.runtime.ingame import MAX_NAMES, render_win_command, wave_batches, wave_levels
from controller.runtime.records import PlayerRecord, records_from_json, records_to_json
from controller.world.names import is_player_name, is_unquoted_name


def _bfs_distances(board: object) -> dict[int, int]:
    """Oracle: plain BFS over the board's connected edges."""
    from controller.puzzle.model import Board

    assert isinstance(board, Board)
    dist = {board.source_index: 0}
    queue = deque([board.source_index])
    while queue:
        t = queue.popleft()
        for d in range(4):
            n = board.neighbour(t, d)
            if n >= 0 and n not in dist and board.connected(t, d):
                dist[n] = dist[t] + 1
                queue.append(n)
    return dist


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 9), st.integers(3, 9), st.integers(0, 10_000))
def test_wave_levels_are_the_breadth_first_distances(w: int, h: int, seed: int) -> None:
    board = generate(w, h, seed=seed)
    board.rotations = list(board.solution)
    levels = wave_levels(board)
    got = {idx: d for d, level in enumerate(levels) for idx in level}
    assert got == _bfs_distances(board)
    assert len(got) == board.size  # a solved board: the water reaches every tile


@given(st.lists(st.lists(st.integers(), min_size=1, max_size=5), min_size=1, max_size=60),
       st.integers(1, 30))  # fmt: skip
def test_wave_batches_keep_the_order_and_respect_the_count(
    levels: list[list[int]], waves: int
) -> None:
    batches = wave_batches(levels, waves)
    assert len(batches) == min(waves, len(levels))
    assert [x for b in batches for x in b] == [x for level in levels for x in level]
    assert all(batches)


NAME_CHARS = string.ascii_letters + string.digits + "_. \"'\\\n\r;/@[]{}§$~^\t-*"


@settings(max_examples=300)
@given(st.lists(st.text(NAME_CHARS, min_size=0, max_size=20), max_size=30))
def test_no_name_can_add_a_command_or_break_out(names: list[str]) -> None:
    template = check_win_command(
        '/tellraw @a {"text":"{players} won {room}"}'.replace('{"', '{{"').replace('"}', '"}}')
    )
    for command in render_win_command(template, room="lobby", names=names, time="1:00", moves=3):
        assert "\n" not in command and "\r" not in command
        head, tail = command.split("won lobby")
        substituted = head.removeprefix('tellraw @a {"text":"').removesuffix(" ")
        for name in substituted.split(", "):
            assert is_unquoted_name(name) and name in names
        assert tail == '"}'
    per_player = render_win_command("give {player} minecraft:cookie", room="r", names=names,
                                    time="0:01", moves=1)  # fmt: skip
    valid = [n for n in names if is_unquoted_name(n)][:MAX_NAMES]
    assert per_player == [f"give {n} minecraft:cookie" for n in valid]
    for command in per_player:
        assert len(command.split(" ")) == 3  # the name is one argument, nothing more


def test_a_star_name_is_a_player_but_never_stands_bare_in_on_win_command() -> None:
    assert is_player_name("*Bob") and not is_unquoted_name("*Bob")
    assert render_win_command("give {player} minecraft:cookie", room="r", names=["*Bob", "Ann"],
                              time="0:01", moves=1) == ["give Ann minecraft:cookie"]  # fmt: skip


def test_win_command_without_names_runs_once_and_with_no_valid_name_not_at_all() -> None:
    door = "setblock 1 2 3 minecraft:redstone_block"
    assert render_win_command(door, room="r", names=[], time="0:01", moves=1) == [door]
    assert render_win_command("say {players}", room="r", names=["bad name", "x;y"], time="",
                              moves=0) == []  # fmt: skip


def test_player_names() -> None:
    for good in ("Steve", ".Steve", "*Bob", "+Steve", "-Steve", "a_b_c", "x" * 16, "." + "y" * 15):
        assert is_player_name(good), good
    for bad in (
        "",
        ".",
        "x" * 17,
        "." + "y" * 16,
        "St eve",
        "Steve\n",
        "a;b",
        '"',
        "§aBob",
        "..x",
        "!Bob",
    ):
        assert not is_player_name(bad), bad


def test_records_keep_best_and_the_last_five() -> None:
    rec = PlayerRecord()
    for t in (50.0, 40.0, 60.0, 70.0, 80.0, 90.0, 100.0):
        rec.add(t)
    assert rec.solves == 7 and rec.best == 40.0
    assert rec.recent == [60.0, 70.0, 80.0, 90.0, 100.0] and rec.mean_recent == 80.0
    data = records_to_json({".Steve": rec})
    assert records_from_json(data) == {".Steve": rec}


def test_records_refuse_names_that_are_not_account_names() -> None:
    import pytest

    with pytest.raises(ValueError, match="not an account name"):
        records_from_json({"a b": {"solves": 1}})
    with pytest.raises(ValueError, match="solves"):
        records_from_json({"Alex": {"solves": -1}})


def test_daily_seed_is_the_documented_derivation() -> None:
    import hashlib

    day = dt.date(2026, 12, 1)
    digest = hashlib.sha256(b"pipesctl-daily:2026-12-01:15x15").digest()
    assert daily_seed(day, 15, 15) == int.from_bytes(digest[:8], "big") % 2**31
    assert daily_seed(day, 15, 15) == daily_seed(dt.date(2026, 12, 1), 15, 15)
    assert daily_seed(day, 15, 15) != daily_seed(dt.date(2026, 12, 2), 15, 15)
    assert daily_seed(day, 15, 15) != daily_seed(day, 15, 16)
    assert 0 <= daily_seed(day, 128, 128) < 2**31


def test_the_daily_paint_seed_is_the_documented_derivation() -> None:
    import hashlib

    day = dt.date(2026, 12, 1)
    digest = hashlib.sha256(b"pipesctl-daily:2026-12-01:8x6:paint").digest()
    assert daily_seed(day, 8, 6, "paint") == int.from_bytes(digest[:8], "big") % 2**31
    assert daily_seed(day, 8, 6, "paint") != daily_seed(day, 8, 6)  # not the pipes room's


def test_the_daily_date_is_utc() -> None:
    late = dt.datetime(2026, 12, 1, 23, 59, 59, tzinfo=dt.UTC).timestamp()
    assert utc_date(late) == dt.date(2026, 12, 1)
    assert utc_date(late + 1) == dt.date(2026, 12, 2)
