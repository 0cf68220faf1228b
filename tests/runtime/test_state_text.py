"""A state saved after every move is the text `json.dumps` gives for its document, whatever
changed since the last save: only the rows a move changed are encoded again
(`RoomState.to_json`, `puzzle.serialize.board_text`)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.puzzle.generators import GeneratorParams, generate
from controller.runtime.state import RoomState, Solve

Change = tuple[str, int, int]

changes: st.SearchStrategy[list[Change]] = st.lists(
    st.tuples(
        st.sampled_from(["turn", "moves", "lock", "solve", "start", "meta", "seed"]),
        st.integers(0, 10_000),
        st.integers(0, 3),
    ),
    max_size=25,
)


def plain(state: RoomState) -> str:
    return json.dumps(state.to_dict(), separators=(",", ":"))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 12),
    st.integers(3, 12),
    st.sampled_from(["tree", "sink"]),
    st.integers(0, 999),
    changes,
)
def test_the_saved_text_is_the_document_after_every_change(
    width: int, height: int, mode: str, seed: int, program: list[Change]
) -> None:
    board = generate(width, height, seed=seed, params=GeneratorParams(mode=mode))
    state = RoomState("lobby", board, started_at=1.5)
    assert state.to_json() == plain(state)
    for what, k, value in program:
        idx = k % board.size
        if what == "turn":
            board.rotations[idx] = value
        elif what == "moves":
            state.moves += k
        elif what == "lock":
            state.locks ^= {idx}
        elif what == "solve":
            state.solves.append(Solve(seed, k / 7, k, 1000.0 + k))
        elif what == "start":
            state.start = None if value == 0 else [value] * board.size
        elif what == "meta":
            board.meta["par"] = k
        else:
            board.seed = k
        assert state.to_json() == plain(state), what


def test_a_save_reads_back_as_it_was(tmp_path: Path) -> None:
    state = RoomState("lobby", generate(9, 7, seed=4), started_at=2.0)
    path = tmp_path / "lobby.json"
    for idx in (0, 5, 62, 5):
        state.board.rotations[idx] = (state.board.rotations[idx] + 1) % 4
        state.moves += 1
        state.save(path)
        again = RoomState.load(path)
        assert again is not None and again.to_dict() == state.to_dict()
        assert path.read_text(encoding="utf-8") == plain(state)
