"""Which turn an undo takes back (`controller.runtime.pipes.undo`), against an oracle that knows who
made every turn: the pack's note on each frame (its last clicker and how many marks in a row
that clicker gave it) is modelled as the data pack writes it (docs/datapack.md, "Who clicked")."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given
from hypothesis import strategies as st

from controller.runtime.pipes.undo import Kind, Turn, TurnHistory, undone_rotation

TILES = 4
PLAYERS = (1, 2, 3)


@dataclass
class Room:
    """The board, the pack's notes on the frames, the room's history, and the truth."""

    history: TurnHistory = field(default_factory=TurnHistory)
    rotations: list[int] = field(default_factory=lambda: [0] * TILES)
    locks: set[int] = field(default_factory=set)
    who: dict[int, int] = field(default_factory=dict)  # frame -> its last clicker
    run: dict[int, int] = field(default_factory=dict)  # frame -> marks in a row by it
    owner: dict[int, int] = field(default_factory=dict)  # turn seq -> who made it (the truth)
    tile_of: dict[int, int] = field(default_factory=dict)  # turn seq -> its tile

    def click(self, player: int, tile: int, kind: Kind, times: int = 1) -> None:
        """`times` clicks of one player on one tile within one poll: one mark, one read."""
        run = self.run.get(tile, 0) if self.who.get(tile) == player else 0
        self.who[tile], self.run[tile] = player, run + 1
        kinds: list[Kind] = [kind] * times if kind == "cw" else [kind]
        for k in kinds:
            self.turn(tile, k)
        before = len(self.history)
        self.history.record(tile, kinds)
        assert len(self.history) == before + len(kinds)
        newest = self.history.last_of({tile: 1})
        assert newest is not None
        for back in range(len(kinds)):
            self.owner[newest.seq - back] = player
            self.tile_of[newest.seq - back] = tile

    def turn(self, tile: int, kind: Kind) -> None:
        if kind == "lock":
            self.locks ^= {tile}
        else:
            self.rotations[tile] = (self.rotations[tile] + (1 if kind == "cw" else 3)) % 4

    def owned(self, player: int) -> dict[int, int]:
        return {t: self.run[t] for t, p in self.who.items() if p == player}

    def undo(self, player: int) -> Turn | None:
        turn = self.history.last_of(self.owned(player))
        if turn is None:
            return None
        if turn.kind == "lock":
            self.locks ^= {turn.tile}
        else:
            self.rotations[turn.tile] = undone_rotation(turn.kind, self.rotations[turn.tile])
        self.history.take(turn)
        return turn


clicks = st.lists(
    st.tuples(
        st.sampled_from(PLAYERS),
        st.integers(0, TILES - 1),
        st.sampled_from(["cw", "cw", "ccw", "lock"]),
        st.integers(1, 3),
    ),
    max_size=16,  # within GROUPS_PER_TILE reads of any one tile
)


@given(clicks, st.lists(st.sampled_from(PLAYERS), max_size=40))
def test_an_undo_takes_back_only_the_askers_own_newest_turn(
    moves: list[tuple[int, int, Kind, int]], undos: list[int]
) -> None:
    room = Room()
    for player, tile, kind, times in moves:
        room.click(player, tile, kind, times)
    for player in undos:
        mine = [t for t in _left(room) if room.owner[t.seq] == player]
        newest = max(mine, key=lambda t: t.seq, default=None)
        turn = room.undo(player)
        if turn is not None:
            assert room.owner[turn.seq] == player  # never another player's turn
        if newest is not None and not _turned_over(room, newest):
            assert turn == newest  # the asker's newest turn, when nobody turned its tile since
        if turn is None:
            assert all(_turned_over(room, t) for t in mine)


@given(clicks)
def test_one_players_clicks_then_as_many_undos_give_the_board_back(
    moves: list[tuple[int, int, Kind, int]],
) -> None:
    room = Room()
    for _, tile, kind, times in moves:
        room.click(1, tile, kind, times)
    taken = [room.undo(1) for _ in range(len(room.history))]
    assert None not in taken
    assert [t.seq for t in taken if t is not None] == sorted(room.owner, reverse=True)
    assert room.rotations == [0] * TILES and room.locks == set()
    assert room.undo(1) is None  # nothing left


@given(clicks)
def test_players_on_their_own_tiles_each_undo_everything(
    moves: list[tuple[int, int, Kind, int]],
) -> None:
    """Each player clicks only its own tile; after every player undid all its turns, in any
    order between players, the board is as dealt."""
    room = Room()
    for player, _, kind, times in moves:
        room.click(player, player % TILES, kind, times)
    for player in PLAYERS:
        while room.undo(player) is not None:
            pass
    assert room.rotations == [0] * TILES and room.locks == set()


def test_a_tile_turned_by_another_player_since_is_theirs() -> None:
    room = Room()
    room.click(1, 0, "cw")
    room.click(1, 1, "cw")
    room.click(2, 1, "cw")  # player 2 turned player 1's last tile
    turn = room.undo(1)
    assert turn is not None and turn.tile == 0  # player 1's newest turn nobody turned over
    assert room.undo(1) is None
    assert room.undo(2) is not None and room.rotations == [0, 1, 0, 0]


def test_history_is_bounded_per_tile_and_cleared() -> None:
    history = TurnHistory(groups_per_tile=3)
    for _ in range(5):
        history.record(0, ["cw"])
    assert len(history) == 3
    history.clear()
    assert len(history) == 0 and history.last_of({0: 5}) is None


def _turned_over(room: Room, turn: Turn) -> bool:
    """Whether another player clicked the turn's tile after it (an undone click included)."""
    return any(
        seq > turn.seq
        and room.tile_of[seq] == turn.tile
        and room.owner[seq] != room.owner[turn.seq]
        for seq in room.owner
    )


def _left(room: Room) -> list[Turn]:
    """Every turn the history still holds (white box: the groups of every tile)."""
    return [t for groups in room.history._tiles.values() for g in groups for t in g]
