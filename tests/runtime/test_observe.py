"""What the runtime tells its observer: a room's moves and solves from its successive
statuses (against a replay of the room's history), repairs by kind, and the link's commands
and reconnects on a real RCON connection to the sandbox."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given
from hypothesis import strategies as st

from controller.rcon.client import RconClient
from controller.runtime.link import Link
from controller.runtime.observe import REPAIR_KINDS, LeaseState, RoomWatch, repair_counts
from controller.runtime.repairs import Repairs
from controller.runtime.room import RoomStatus
from controller.sandbox import Sandbox


@dataclass
class Heard:
    """Every fact an observer was told, in order."""

    facts: list[tuple[object, ...]] = field(default_factory=list)

    def command_sent(self, server: str, seconds: float) -> None:
        self.facts.append(("command", server, seconds))

    def reconnected(self, server: str) -> None:
        self.facts.append(("reconnect", server))

    def clicked(self, server: str, room: str) -> None:
        self.facts.append(("click", server, room))

    def moved(self, server: str, room: str, moves: int) -> None:
        self.facts.append(("moves", server, room, moves))

    def solved(self, server: str, room: str, seconds: float) -> None:
        self.facts.append(("solve", server, room, seconds))

    def repaired(self, server: str, room: str, kind: str, count: int) -> None:
        self.facts.append(("repair", server, room, kind, count))

    def progress(self, server: str, room: str, wet: int, total: int, solved: bool) -> None:
        self.facts.append(("progress", server, room, wet, total, solved))

    def detection(self, server: str, mode: str) -> None:
        self.facts.append(("detection", server, mode))

    def lease(self, server: str, room: str, state: LeaseState) -> None:
        self.facts.append(("lease", server, room, state))

    def of(self, kind: str) -> list[tuple[object, ...]]:
        return [f for f in self.facts if f[0] == kind]


# A room's history: each step adds moves to the current puzzle, solves it, or starts the next.
steps = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(1, 5)),
        st.tuples(st.just("solve"), st.just(0)),
        st.tuples(st.just("next"), st.just(0)),
    ),
    max_size=40,
)


@given(steps, st.integers(0, 3))
def test_moves_and_solves_follow_the_rooms_history(
    history: list[tuple[str, int]], first: int
) -> None:
    heard = Heard()
    watch = RoomWatch("main", "lobby", heard)
    puzzle, moves, started, solved_at, t = 1, first, 100.0, None, 100.0
    want_moves, want_solves = 0, []

    def status() -> RoomStatus:
        return RoomStatus(puzzle, moves, 49, moves, started, solved_at is not None, solved_at)

    watch.see(status(), t)  # the baseline: nothing counted for what was there before
    for kind, n in history:
        t += 7.0
        if kind == "move" and solved_at is None:
            moves += n
            want_moves += n
        elif kind == "solve" and solved_at is None:
            solved_at = t
            want_solves.append(t - started)
        elif kind == "next":
            puzzle, moves, started, solved_at = puzzle + 1, 0, t, None
        watch.see(status(), t)
        watch.see(status(), t + 1)  # seen again without a change: nothing more
    assert sum(f[3] for f in heard.of("moves")) == want_moves  # type: ignore[misc]
    assert [f[3] for f in heard.of("solve")] == want_solves
    assert heard.of("progress")[-1] == (
        "progress",
        "main",
        "lobby",
        moves,
        49,
        solved_at is not None,
    )


def test_a_room_seen_solved_at_first_is_no_new_solve() -> None:
    heard = Heard()
    watch = RoomWatch("main", "lobby", heard)
    watch.see(RoomStatus(3, 49, 49, 20, 10.0, True, 70.0), 80.0)
    watch.see(RoomStatus(3, 49, 49, 20, 10.0, True, 70.0), 81.0)
    assert heard.of("solve") == [] and heard.of("moves") == []
    watch.see(RoomStatus(4, 1, 49, 0, 90.0, False), 90.0)
    watch.see(RoomStatus(4, 49, 49, 2, 90.0, True, 95.5), 96.0)
    assert heard.of("solve") == [("solve", "main", "lobby", 5.5)]
    assert heard.of("moves") == [("moves", "main", "lobby", 2)]


def test_repair_counts_name_every_kind_that_is_not_zero() -> None:
    assert repair_counts(Repairs()) == {}
    full = Repairs(1, 2, 3, 4, 5, True)
    assert repair_counts(full) == dict(zip(REPAIR_KINDS, (1, 2, 3, 4, 5, 1), strict=True))


def test_the_link_reports_each_command_and_a_reconnect() -> None:
    heard = Heard()
    with Sandbox() as sb:
        client = RconClient("127.0.0.1", sb.port, sb.password, timeout=5.0)
        client.connect()
        link = Link(client, "main", observer=heard)
        link.send("list")
        link.send("time query gametime")
        assert [f[:2] for f in heard.of("command")] == [("command", "main")] * 2
        assert all(0 < f[2] < 5 for f in heard.of("command"))  # type: ignore[operator]
        assert heard.of("reconnect") == []
        sb.drop_connections()
        link.send("list")  # the dead connection is found before sending: opened again
        assert heard.of("reconnect") == [("reconnect", "main")]
        assert len(heard.of("command")) == 3 == link.sent
        client.close()
