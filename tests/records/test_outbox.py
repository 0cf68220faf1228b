"""The outbox on disk: what is appended survives a new reader, taken entries go, a torn last
line is dropped and any other unreadable line is set aside, never lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.records.outbox import Outbox


def _entry(key: str) -> dict[str, object]:
    return {"key": key, "type": "solve", "solve": {"n": key}}


def test_entries_survive_a_restart_and_taken_ones_go(tmp_path: Path) -> None:
    path = tmp_path / "out" / "lobby.jsonl"
    box = Outbox(path)
    box.append([_entry("a"), _entry("b")])
    box.append([_entry("c")])
    assert [e["key"] for e in Outbox(path).pending()] == ["a", "b", "c"]
    box.remove({"b"})
    assert [e["key"] for e in Outbox(path).pending()] == ["a", "c"]
    box.remove({"a", "c"})
    assert not path.exists() and len(Outbox(path)) == 0


def test_a_torn_last_line_is_dropped_and_garbage_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "lobby.jsonl"
    good = json.dumps(_entry("a"))
    path.write_text(f"{good}\nnot json\n[1, 2]\n{json.dumps(_entry('b'))}\n" + '{"key": "c", "ty')
    box = Outbox(path)
    assert [e["key"] for e in box.pending()] == ["a", "b"]
    assert (tmp_path / "lobby.rejected").read_text() == "not json\n[1, 2]\n"
    assert [e["key"] for e in Outbox(path).pending()] == ["a", "b"]  # the file was mended
    box.append([_entry("d")])
    assert [e["key"] for e in Outbox(path).pending()] == ["a", "b", "d"]


@settings(max_examples=30)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 9)), max_size=25))
def test_the_file_always_holds_what_is_pending(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[bool, int]]
) -> None:
    folder = tmp_path_factory.mktemp("box")
    box, model, n = Outbox(folder / "r.jsonl"), list[str](), 0
    for add, k in ops:
        if add:
            n += 1
            box.append([_entry(f"e{n}")])
            model.append(f"e{n}")
        elif model:
            gone = set(model[k % len(model) :: 2])
            box.remove(gone)
            model = [m for m in model if m not in gone]
        assert [e["key"] for e in Outbox(folder / "r.jsonl").pending()] == model
