"""Requests and answers between admin commands and the daemon survive their JSON files."""

from __future__ import annotations

import json
import logging
import os
import re
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.runtime.control import (
    Health,
    health_path,
    health_record,
    read_health,
    take_request,
    withdraw_request,
    write_json,
    write_request,
)
from controller.runtime.repairs import Repairs
from controller.runtime.requests import (
    REQUEST_TIMEOUT_S,
    CanvasRead,
    HintGiven,
    HintRequest,
    RepairDone,
    RepairRequest,
    ResetDone,
    ResetRequest,
    Rotations,
    ShowRequest,
    request_expiry,
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


# -- expiry -------------------------------------------------------------------------------------
def test_a_request_carries_its_expiry_and_a_file_without_one_lives_15_s_from_its_writing() -> None:
    data = request_to_json(ResetRequest(77), expires=1000.5)
    assert data == {"action": "reset", "seed": 77, "expires": 1000.5}
    assert request_from_json(data) == ResetRequest(77)
    assert request_expiry(data, written=0.0) == 1000.5
    assert "expires" not in request_to_json(HintRequest())
    for legacy in ({"action": "hint"}, {"action": "hint", "expires": "soon"}, {"expires": True}):
        assert request_expiry(legacy, written=500.0) == 500.0 + REQUEST_TIMEOUT_S


def test_the_daemon_drops_an_expired_request_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write_request(tmp_path, "lobby", ResetRequest(77), expires=time.time() - 1)
    with caplog.at_level(logging.WARNING, logger="controller.runtime"):
        assert take_request(tmp_path, "lobby") is None
    assert list(tmp_path.iterdir()) == []  # neither the request nor its working copy is left
    (message,) = caplog.messages
    assert re.fullmatch(
        r"room lobby: request reset with seed 77 expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ "
        r"\(the admin command gave up\); dropped",
        message,
    ), message


def test_a_request_still_waited_for_is_taken(tmp_path: Path) -> None:
    write_request(tmp_path, "lobby", RepairRequest(), expires=time.time() + 10)
    assert take_request(tmp_path, "lobby") == RepairRequest()
    assert (tmp_path / "lobby.request.working").exists()  # until finish_request


def test_a_request_of_an_older_pipesctl_expires_15_s_after_its_file_was_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "lobby.request.json"
    path.write_text(json.dumps({"action": "hint"}))
    assert take_request(tmp_path, "lobby") == HintRequest()
    path.write_text(json.dumps({"action": "hint"}))
    old = time.time() - REQUEST_TIMEOUT_S - 1
    os.utime(path, (old, old))
    assert take_request(tmp_path, "lobby") is None
    assert not path.exists() and not (tmp_path / "lobby.request.working").exists()


def test_a_withdrawn_request_is_never_taken_and_a_taken_one_is_never_withdrawn(
    tmp_path: Path,
) -> None:
    path = write_request(tmp_path, "lobby", HintRequest(), expires=time.time() + 10)
    assert withdraw_request(path) is True
    assert take_request(tmp_path, "lobby") is None
    path = write_request(tmp_path, "lobby", HintRequest(), expires=time.time() + 10)
    assert take_request(tmp_path, "lobby") == HintRequest()
    assert withdraw_request(path) is False
    assert (tmp_path / "lobby.request.working").exists()  # the daemon's copy is left alone


# -- health file ---------------------------------------------------------------------------------
def test_health_since_stays_while_the_same_daemon_reports_the_same_thing(tmp_path: Path) -> None:
    def report(at: float, reachable: bool, owner: int = 7) -> Health:
        write_json(
            health_path(tmp_path, "lobby"),
            health_record(
                read_health(tmp_path, "lobby"),
                at=at,
                server="main",
                reachable=reachable,
                owner=owner,
            ),
        )
        health = read_health(tmp_path, "lobby")
        assert health is not None and health.at == at
        return health

    assert report(100.0, True).since == 100.0
    assert report(101.0, False).since == 101.0  # went down
    assert report(102.0, False).since == 101.0
    assert report(130.0, False).since == 101.0
    assert report(131.0, True).since == 131.0  # back
    assert report(132.0, True, owner=8).since == 132.0  # another daemon's report starts anew


def test_a_health_file_of_an_older_pipesctl_or_a_broken_one_reads_sensibly(tmp_path: Path) -> None:
    path = health_path(tmp_path, "lobby")
    path.write_text(json.dumps({"at": 5, "server": "main", "reachable": False}))
    assert read_health(tmp_path, "lobby") == Health(5.0, "main", False, None, None)
    for broken in ("{}", "[]", '{"at": "x", "reachable": true}', '{"at": 1, "reachable": 1}', "{"):
        path.write_text(broken)
        assert read_health(tmp_path, "lobby") is None


class _StopWhen:
    """A stop asked for once `trip` is set, seen at the next command."""

    def __init__(self) -> None:
        self.trip = False

    def is_set(self) -> bool:
        return self.trip

    def wait(self, timeout: float | None = None) -> bool:
        return self.trip


@pytest.mark.parametrize("kind", ["hint", "reset"])
def test_a_request_cut_short_by_a_stop_is_carried_out_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """A hint stopped half-way is put back and the next daemon gives it. A reset stopped once
    its new puzzle is in the state is done: answered, and not carried out again."""
    from controller.runtime.connect import connect_server
    from controller.runtime.control import read_response
    from controller.runtime.daemon import Daemon
    from controller.runtime.state import RoomState, state_path
    from controller.sandbox import Sandbox
    from controller.stopping import Stopping
    from tests.support.harness import make_config, world_mismatches

    with Sandbox() as sb:
        monkeypatch.setenv("SANDBOX_PW", sb.password)
        state_dir = tmp_path / "state"
        stop = _StopWhen()
        daemon = Daemon(make_config(sb, state_dir), ["lobby"], connect=connect_server, stop=stop)
        daemon.start()
        request = HintRequest() if kind == "hint" else ResetRequest(5)
        write_request(state_dir, "lobby", request, expires=time.time() + 60)
        room = daemon.rooms["lobby"]
        real_handle, real_adopt = room.handle_request, room.adopt_state  # type: ignore[attr-defined]

        def handle(link: object, request: object) -> object:
            stop.trip = kind == "hint"  # the stop comes as the hint begins …
            return real_handle(link, request)  # type: ignore[arg-type]

        def adopt(state: object) -> None:
            real_adopt(state)
            stop.trip = True  # … or once the reset's puzzle is adopted, its writes to come

        monkeypatch.setattr(room, "handle_request", handle)
        monkeypatch.setattr(room, "adopt_state", adopt)
        with pytest.raises(Stopping):
            daemon.step_server("main")
        daemon.close()
        assert not (state_dir / "lobby.request.working").exists()
        assert (state_dir / "lobby.request.json").exists() == (kind == "hint")
        if kind == "reset":
            assert read_response(state_dir, "lobby") == ResetDone(2)
        daemon = Daemon(make_config(sb, state_dir), ["lobby"], connect=connect_server)
        daemon.start()
        daemon.step_server("main")
        room = daemon.rooms["lobby"]
        daemon.close()
        assert not (state_dir / "lobby.request.json").exists()
        state = RoomState.load(state_path(state_dir, "lobby"))
        assert state is not None
        assert state.puzzle_number == (2 if kind == "reset" else 1)  # one reset, not two
        if kind == "hint":
            assert isinstance(read_response(state_dir, "lobby"), HintGiven)
        assert world_mismatches(sb, room) == []  # type: ignore[arg-type]
