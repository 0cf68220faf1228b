"""No split brain: every room write is fenced on its lease (controller/runtime/lease.py, `Fence`),
a spoiled renewal is read back instead of taken as a refusal, a pause is noticed from the
monotonic clock, and a room given up sends nothing more (docs/reliability.md, "One owner per
room")."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.errors import RoomError
from controller.runtime.connect import connect_server
from controller.runtime.daemon import Daemon
from controller.runtime.lease import Fence, Lease, LeaseLost
from controller.runtime.link import Link
from controller.runtime.pipes.room import PipesRoom
from controller.sandbox import Sandbox
from controller.world import commands as cmd
from tests.support.fence import fence_owner, unfenced
from tests.support.grammar import assert_valid_commands
from tests.support.harness import make_config
from tests.support.tamper import StepClock

ME, OTHER = 1_234_567, 7_654_321
U = "00000001-fffe-0003-0000-000400000005"
NETHER = "minecraft:the_nether"

WRITES = [
    "fill 0 60 0 14 62 14 minecraft:melon",
    "setblock 3 62 7 minecraft:melon",
    "summon minecraft:item_frame 3 63 0 {Facing:1b}",
    "kill @e[type=minecraft:item_frame,tag=pipes.lobby]",
    f"data merge entity {U} {{Silent:1b}}",
    f'data modify entity {U} Item.components."minecraft:map_id" set value 7',
    f"item replace entity {U} contents with minecraft:filled_map",
    'tellraw @a[x=0,y=60,z=0,distance=..20] "hi"',
    'title @a[x=0,y=60,z=0,distance=..20] actionbar "3/9"',
    "playsound minecraft:block.note_block.bell master @a 0 60 0",
    "particle minecraft:splash 1 2 3 0.5 0.5 0.5 0 10 force",
    "scoreboard players set #lobby pipes_best 12",
    "scoreboard players add @a[tag=pipes.won] pipes_solves 1",
    "scoreboard players reset * pipes_daily",
    "scoreboard players enable @a pipes_hint",
    "scoreboard objectives add pipes_solves dummy",
    "forceload add 0 0 15 15",
    "forceload remove 0 0 15 15",
    "tag @e[type=minecraft:item_frame] add pipes.own",
    "gamerule block_drops false",
    f"execute as {U} if entity @s[nbt={{ItemRotation:3b}}] run data merge entity @s {{Silent:1b}}",
    f"execute unless entity {U} run summon minecraft:item_frame 3 63 0",
    "execute as @a at @s run playsound minecraft:block.note_block.bell master @s",
    f'execute as {U} run tellraw @s "hi"',
    "execute positioned 2.5 100 2.5 run setblock ~ ~-5 ~ minecraft:redstone_block",
    "execute store result score #x pipes_lease run data get entity @s Pos[0]",
]
READS = [
    f"data get entity {U} ItemRotation",
    "execute as @e[type=minecraft:item_frame,tag=pipes.lobby] run data get entity @s ItemRotation",
    "execute if entity @e[type=minecraft:item_frame,tag=pipes.lobby]",
    "execute if loaded 10 64 10",
    "execute if block 5 69 -3 minecraft:white_concrete if block 6 69 -3 minecraft:stone",
    "scoreboard players get #pipes.lobby.owner pipes_lease",
    "forceload query 0 0",
    "gamerule max_block_modifications",
    "time query gametime",
    "list",
    "list uuids",
]


def test_every_write_kind_is_fenced_and_no_read_is() -> None:
    assert [c for c in WRITES if not cmd.writes(c)] == []
    assert [c for c in READS if cmd.writes(c)] == []


@pytest.mark.parametrize("dimension", ["minecraft:overworld", NETHER])
def test_a_fence_is_one_execute_chain_with_the_dimension(dimension: str) -> None:
    for command in WRITES:
        out = cmd.fenced(command, "lobby", ME, dimension)
        assert out.startswith(f"execute if score #pipes.lobby.owner pipes_lease matches {ME} ")
        assert out.count("execute") == 1 + command.count("execute") - command.startswith("execute")
        assert (f" in {dimension} " in out) == (dimension == NETHER)
        assert fence_owner(out) == ME
        plain = unfenced(out)
        if command.startswith("execute "):
            assert plain.endswith(command.removeprefix("execute "))
        else:
            assert plain == (
                command if dimension != NETHER else f"execute in {NETHER} run {command}"
            )


def test_fenced_commands_are_vanilla_grammar() -> None:
    longest = "a" * 32
    dimensions = ("minecraft:overworld", NETHER)
    assert_valid_commands(
        [cmd.fenced(c, longest, 2**31 - 2, d) for c in WRITES for d in dimensions]
    )


class FakeLink(Link):
    """A link whose replies come from a function of the command; records what it was sent."""

    def __init__(self, answer: Callable[[str], str]) -> None:
        super().__init__(client=self, name="main", record=True)  # type: ignore[arg-type]
        self.answer = answer

    def command(self, command: str, *, prefix: bool = False) -> str:
        return self.answer(command)


def _world(owner: int, renew_reply: Iterator[str] | None = None) -> Callable[[str], str]:
    """Replies of a world where `owner` holds room lobby's lease; renewal replies from
    `renew_reply` (spoiled ones) while it lasts."""

    def answer(command: str) -> str:
        if command.startswith("execute if score #pipes.lobby.owner pipes_lease matches "):
            matches = fence_owner(command) == owner
            if "store result score #pipes.lobby.renewed" in command:
                spoiled = next(renew_reply, None) if renew_reply is not None else None
                if spoiled is not None:
                    return spoiled
                return "The game time is 500 ticks" if matches else ""
            return "Changed the block at 3, 62, 7" if matches else ""
        if command == cmd.lease_owner("lobby"):
            return f"#pipes.lobby.owner has {owner} [pipes_lease]"
        if command.startswith("scoreboard players get #pipes.lobby.renewed"):
            return "#pipes.lobby.renewed has 480 [pipes_lease]"
        if command == "time query gametime":
            return "The game time is 500 ticks"
        return ""

    return answer


@pytest.mark.parametrize(
    "spoiled", ["", "Set [Solves] for Alex to 3", "Added tag 'pipes.near' to 4 entities"]
)
def test_a_spoiled_renewal_is_read_back_not_taken_as_a_refusal(spoiled: str) -> None:
    link = FakeLink(_world(ME, iter([spoiled])))
    lease = Lease("lobby", ME, clock=StepClock())
    assert lease.renew(link)
    assert lease.held and lease.lost_to is None
    assert link.record is not None and link.record[-1] == cmd.lease_owner("lobby")


def test_a_spoiled_owner_read_is_read_again_and_a_lease_never_read_changes_nothing() -> None:
    owner_replies = iter(["", f"#pipes.lobby.owner has {ME} [pipes_lease]"])

    def answer(command: str) -> str:
        if command == cmd.lease_owner("lobby"):
            return next(owner_replies, "")
        return ""

    lease = Lease("lobby", ME, clock=StepClock())
    lease.held = True
    assert lease.renew(FakeLink(answer))  # renewal and the first read spoiled, the second read
    assert lease.renew(FakeLink(lambda _: ""))  # nothing readable at all: nothing learnt
    assert lease.held and lease.lost_to is None


def test_acquire_with_a_spoiled_renewal_takes_the_lease_and_never_names_itself() -> None:
    lease = Lease("lobby", ME, clock=StepClock())
    lease.acquire(FakeLink(_world(ME, iter(["", "Unknown or incomplete command"]))))
    assert lease.held


def test_a_refusal_names_the_other_owner() -> None:
    lease = Lease("lobby", ME, clock=StepClock())
    with pytest.raises(RoomError) as caught:
        lease.acquire(FakeLink(_world(OTHER, iter([""]))))
    assert f"owner id {OTHER}" in str(caught.value)
    assert str(ME) not in str(caught.value)
    assert "expires at game tick 880" in str(caught.value)


def test_a_refused_write_is_noticed_and_nothing_more_is_sent() -> None:
    clock = StepClock()
    lease = Lease("lobby", ME, clock=clock)
    lease.acquire(FakeLink(_world(ME)))
    fence = Fence(lease)
    taken = FakeLink(_world(OTHER))  # another daemon took the lease meanwhile
    # Within a second of a renewal an empty reply is not read back (a failing write answers ""
    # fenced too); later it is.
    fence.send(taken, "setblock 3 62 7 minecraft:melon", "minecraft:overworld")
    assert taken.record is not None and len(taken.record) == 1
    taken.record.clear()
    clock.now += 2.0
    with pytest.raises(LeaseLost) as caught:
        fence.send(taken, "setblock 3 62 7 minecraft:melon", "minecraft:overworld")
    assert caught.value.owner == OTHER
    assert taken.record is not None
    assert [fence_owner(c) for c in taken.record[:1]] == [ME]  # the fenced write, refused
    sent = len(taken.record)
    for command in ("setblock 3 62 7 minecraft:melon", f"data get entity {U} ItemRotation"):
        with pytest.raises(LeaseLost):
            fence.send(taken, command, "minecraft:overworld")
    assert len(taken.record) == sent  # neither a write nor a read goes out once lost


def test_with_nobody_near_a_refused_write_waits_for_the_regular_renewal() -> None:
    """An idle fence sends no renewal for an empty reply (the guard's fills change nothing as a
    rule); the pause check still renews before a write, and a lost lease still stops it."""
    clock = StepClock()
    lease = Lease("lobby", ME, ticks=400, clock=clock)
    lease.acquire(FakeLink(_world(ME)))
    fence = Fence(lease)
    fence.idle = True
    taken = FakeLink(_world(OTHER))
    clock.now += 5.0
    assert fence.send(taken, "fill 0 62 0 4 62 4 minecraft:melon keep", "minecraft:overworld") == ""
    assert taken.record is not None and len(taken.record) == 1  # the write alone
    clock.now += 11.0  # past 3/4 of the 20 s lease: checked before the next write
    with pytest.raises(LeaseLost):
        fence.send(taken, "fill 0 62 0 4 62 4 minecraft:melon keep", "minecraft:overworld")
    assert "store result score #pipes.lobby.renewed" in taken.record[1]  # before any fill


def test_a_write_that_may_answer_nothing_is_not_read_back() -> None:
    lease = Lease("lobby", ME, clock=StepClock())
    lease.acquire(FakeLink(_world(ME)))
    link = FakeLink(lambda command: "")
    Fence(lease).send(link, 'tellraw @a "hi"', "minecraft:overworld")
    assert link.record is not None and len(link.record) == 1


def test_a_pause_longer_than_most_of_the_lease_renews_before_the_next_write() -> None:
    clock = StepClock()
    lease = Lease("lobby", ME, ticks=400, clock=clock)
    lease.acquire(FakeLink(_world(ME)))
    fence = Fence(lease)
    link = FakeLink(_world(ME))
    clock.now += 14.0  # under 3/4 of the 20 s lease: the write goes out alone
    fence.send(link, "setblock 3 62 7 minecraft:melon", "minecraft:overworld")
    assert link.record is not None and len(link.record) == 1
    clock.now += 16.0  # 30 s since the last renewal: renewed first
    fence.send(link, "setblock 3 62 7 minecraft:melon", "minecraft:overworld")
    assert [unfenced(c).split()[0] for c in link.record[1:]] == ["execute", "setblock"]
    assert "store result score #pipes.lobby.renewed" in link.record[1]
    # Paused past the lease while another daemon took the room: the write is never sent.
    taken = FakeLink(_world(OTHER))
    clock.now += 60.0
    with pytest.raises(LeaseLost):
        fence.send(taken, "setblock 3 62 7 minecraft:melon", "minecraft:overworld")
    assert taken.record is not None
    assert not any("setblock" in c for c in taken.record)


# -- the daemon on the sandbox --------------------------------------------------------------
@pytest.fixture
def sb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        monkeypatch.setenv("SANDBOX_PW", sandbox.password)
        yield sandbox


def _blank_renewals(daemon: Daemon, count: int) -> None:
    """The next `count` renewal replies come back empty (wiped by another RCON connection)."""
    link = daemon.links["main"]
    inner = link.client
    left = [count]

    class Wipes:
        def command(self, command: str, *, prefix: bool = False) -> str:
            reply = inner.command(command, prefix=prefix)
            if "store result score #pipes.lobby.renewed" in command and left[0] > 0:
                left[0] -= 1
                return ""
            return reply

        def close(self) -> None:
            inner.close()  # type: ignore[attr-defined]

    link.client = Wipes()


def test_a_daemon_whose_renewal_reply_is_wiped_keeps_its_room_quietly(
    sb: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    daemon = Daemon(make_config(sb, tmp_path / "a", size=3), ["lobby"], connect=connect_server)
    _blank_renewals(daemon, 1)  # the renewal of the start itself
    daemon.start()
    try:
        _blank_renewals(daemon, 1)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="controller.runtime"):
            daemon.last_renew.clear()
            daemon.step()
        assert daemon.lost == set()
        assert daemon.leases["lobby"].held
        text = caplog.text
        assert "taken again" not in text and "another pipesctl" not in text
        assert "lease lost" not in text
    finally:
        daemon.close()


def test_a_daemon_noticing_a_pause_gives_the_room_up_before_writing(
    sb: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = StepClock()
    first = Daemon(
        make_config(sb, tmp_path / "a", size=3), ["lobby"], connect=connect_server, clock=clock
    )
    first.start()
    sb.call(lambda g: setattr(g.world, "tick_count", g.world.tick_count + 500))  # expired
    second = Daemon(make_config(sb, tmp_path / "b", size=3), ["lobby"], connect=connect_server)
    second.start()
    try:
        clock.now += 60.0  # `first` was paused for a minute
        room = first.rooms["lobby"]
        assert isinstance(room, PipesRoom)
        link = first.links["main"]
        mine = _conn(sb, first)
        before = len(sb.log_entries())
        turned = (room.board.rotations[0] + 1) % 4
        with caplog.at_level(logging.ERROR, logger="controller.runtime"):
            first._guarded(room, "turn", room.handle_turn, link, 0, 0, turned)
            first.step()
            first.step()
        sent = [e.command for e in sb.log_entries()[before:] if e.connection == mine]
        assert sent  # the renewal and the read of the owner
        writes = [c for c in sent if fence_owner(c) is not None and "store result" not in c]
        assert writes == []  # the pause was noticed before the turn's first write
        lines = [r.getMessage() for r in caplog.records if "lease lost" in r.getMessage()]
        assert len(lines) == 1
        assert lines[0].startswith(f"room lobby: lease lost to owner {second.owner} at ")
        assert lines[0].endswith("; stopping this room")
        assert first.lost == {"lobby"}
        count = len(sb.log_entries())
        first.step()
        first.poll("main")
        assert [e for e in sb.log_entries()[count:] if e.connection == mine] == []
    finally:
        first.close()
        second.close()


def _conn(sb: Sandbox, daemon: Daemon) -> int:
    """The sandbox's connection number of a daemon (the one that sent its last renewal)."""
    renewal = f"matches {daemon.owner} store result score"
    return next(e.connection for e in reversed(sb.log_entries()) if renewal in e.command)
