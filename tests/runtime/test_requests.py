"""Requests and answers between admin commands and the daemon survive their JSON files."""

from __future__ import annotations

import logging

from hypothesis import given
from hypothesis import strategies as st

from controller.runtime.repairs import Repairs
from controller.runtime.requests import (
    CanvasRead,
    HintGiven,
    HintRequest,
    RepairDone,
    RepairRequest,
    ResetDone,
    ResetRequest,
    Rotations,
    ShowRequest,
    request_from_json,
    request_to_json,
    response_from_json,
    response_to_json,
)

requests = st.one_of(
    st.builds(ResetRequest, st.none() | st.integers(-(2**40), 2**40)),
    st.just(RepairRequest()),
    st.just(HintRequest()),
    st.just(ShowRequest()),
)
small = st.integers(0, 10_000)
responses = st.one_of(
    st.builds(ResetDone, small),
    st.builds(
        RepairDone,
        st.builds(
            Repairs, small, small, small, small, small, st.booleans(), st.lists(st.text(max_size=9))
        ),
    ),
    st.builds(HintGiven, st.none() | st.tuples(small, small), st.integers(0, 3), st.integers(0, 3)),
    st.builds(
        HintGiven,
        st.tuples(small, small),
        st.just(0),
        st.just(1),
        st.booleans(),
        st.tuples(st.sampled_from(["row", "col"]), small),
    ),
    st.builds(Rotations, st.dictionaries(small, st.integers(0, 7))),
    st.builds(CanvasRead, st.lists(st.integers(0, 2**128 - 1), max_size=128).map(tuple)),
)


@given(requests)
def test_requests_round_trip(request: object) -> None:
    assert request_from_json(request_to_json(request)) == request  # type: ignore[arg-type]


@given(responses)
def test_responses_round_trip(response: object) -> None:
    assert response_from_json(response_to_json(response)) == response  # type: ignore[arg-type]


def test_malformed_or_unknown_files_are_refused_not_crashed() -> None:
    for data in ({}, {"action": "explode"}, {"action": None}, {"action": ["reset"]}):
        assert request_from_json(data) is None
    assert request_from_json({"action": "reset", "seed": "7"}) == ResetRequest(None)
    assert request_from_json({"action": "reset", "seed": True}) == ResetRequest(None)
    for data in ({}, {"kind": "reset"}, {"kind": "hint", "tile": [1]}, {"kind": "rotations"}):
        assert response_from_json(data) is None


def test_repairs_describe_counts_everything() -> None:
    rep = Repairs(adopted_moves=2, blocks_fixed=3, rebuilt=True, notes=["rotation tags rewritten"])
    assert rep.total == 6
    assert rep.describe() == (
        "6 repair(s): 2 turns adopted, 0 frames summoned, 0 frames fixed, "
        "0 preload frames rebuilt, 3 blocks fixed; room rebuilt (rotation tags rewritten)"
    )


def test_requests_and_repairs_read_as_words_in_log_lines() -> None:
    assert [str(r) for r in (ResetRequest(), ResetRequest(42), RepairRequest())] == [
        "reset",
        "reset with seed 42",
        "repair",
    ]
    assert (str(HintRequest()), str(ShowRequest())) == ("hint", "show")
    rep = Repairs(frames_fixed=1)
    record = logging.LogRecord("controller", logging.INFO, "", 0, "room %s: %s", ("a", rep), None)
    assert record.getMessage() == f"room a: {rep.describe()}"
