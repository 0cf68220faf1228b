"""What players of a room do themselves: ask for the controls, a hint or their records with
`/trigger` (every room kind: `RoomTriggers`), and in a pipes room undo, restart or (when listed
in `reset_by`) a new puzzle (`InGame`); and what a win gives: the per-player records, the records
store's solves, the optional `on_win.command`, and in a pipes room the win waves.

Players are never identified by a name read from display text: the server reports the UUIDs of
the players a selector matches (`data get entity @s UUID`), and account names come from
`list uuids` only, checked against the account-name rule (docs/server-behaviour.md, "Player
display names"; docs/in-game.md, "Player names"). Commands reach one player by UUID.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from controller.config import EVERYONE, SERVER_NAME, WorldConfig
from controller.puzzle.model import CROSS, HOLE, Board, TileClass, map_id
from controller.records.model import SolveRecord, solve_id
from controller.records.writer import RoomRecords
from controller.runtime.clock import Clock
from controller.runtime.daily import utc_date
from controller.runtime.feedback import BEST, DAILY, NETWORK, RESET, Feedback, duration
from controller.runtime.link import Link
from controller.runtime.records import PlayerRecord
from controller.world import commands as cmd
from controller.world import turns
from controller.world.names import is_player_name, is_unquoted_name
from controller.world.replies import parse_entity_uuids, parse_player_list

if TYPE_CHECKING:
    from controller.runtime.pipes.room import PipesRoom

__all__ = [
    "HINT",
    "HELP",
    "STATS",
    "RESTART",
    "UNDO",
    "RESTART_REFUSED",
    "UNDO_NEEDS_PACK",
    "UNDO_SOLVED",
    "UNDO_NOTHING",
    "RESTART_UNKNOWN",
    "controls_text",
    "paint_controls_text",
    "player_score",
    "MAX_WAVES",
    "MAX_NAMES",
    "InGame",
    "PlayerHint",
    "PlayerState",
    "RoomTriggers",
    "TriggerRoom",
    "wave_levels",
    "wave_batches",
    "render_win_command",
]

log = logging.getLogger("controller.runtime")

HINT = "pipes_hint"
HELP = "pipes_help"
STATS = "pipes_stats"
RESTART = "pipes_restart"
UNDO = "pipes_undo"
RESTART_REFUSED = "Only the players this room lists may restart its puzzle"
UNDO_NEEDS_PACK = (
    "Undo needs the pipesctl data pack on this server (an admin runs pipesctl install): "
    "without it nobody knows who turned a tile"
)
UNDO_SOLVED = "The puzzle is solved: nothing to undo"
UNDO_NOTHING = "Nothing of yours to undo in this puzzle"
RESTART_UNKNOWN = (
    "This puzzle was dealt before pipesctl kept how: it cannot be restarted; the next one can"
)
TOLD_TAG = "pipes.told."  # + the room's name: a player shown the room's controls
MAX_VISITORS = 4  # players read for a first visit per check
CHECK_INTERVAL_S = 1.0  # how often trigger uses are read while players are near
ARM_INTERVAL_S = 30.0  # the triggers enabled again for everyone near: a safety net, as a
# newcomer (no score yet) is armed the second the triggers' question notices them
MAX_ASKERS = 4  # trigger uses answered per objective and check
MAX_WAVES = 20  # win waves at most (one batch of commands each)
MAX_NAMES = 20  # names substituted into on_win.command at most
DAILY_DAYS_KEPT = 7
SIDEBAR_LINES = 10  # players on the network sidebar


def wave_levels(board: Board) -> list[list[int]]:
    """The tiles the water reaches from the source, breadth-first, one list per distance."""
    seen = {board.source_index}
    level = [board.source_index]
    levels = []
    while level:
        levels.append(level)
        nxt = []
        for t in level:
            for d in range(4):
                n = board.neighbour(t, d)
                if n >= 0 and n not in seen and board.connected(t, d):
                    seen.add(n)
                    nxt.append(n)
        level = nxt
    return levels


def wave_batches(levels: Sequence[Sequence[int]], waves: int = MAX_WAVES) -> list[list[int]]:
    """Consecutive distance levels grouped into at most `waves` batches, in order."""
    count = min(waves, len(levels))
    out: list[list[int]] = [[] for _ in range(count)]
    for k, level in enumerate(levels):
        out[k * count // len(levels)].extend(level)
    return out


def controls_text(
    gestures: bool, hints: bool, *, undo: bool = False, restart: str | None = None
) -> str:
    """The controls of a pipes room in one chat line: what a click does, the gestures when
    the server's data pack makes them (docs/in-game.md, "Gestures"), undo when it notes who
    clicked, and restart for `restart` ("everyone", "listed" or None: off)."""
    text = "Pipes: click a tile to turn it a quarter clockwise"
    if gestures:
        text += (
            "; click it holding a stick to turn it back a quarter; sneak and click to lock it "
            "(again to unlock)"
        )
    if undo:
        text += "; /trigger pipes_undo undoes your last turn"
    if restart is not None:
        who = " (listed players)" if restart == "listed" else ""
        text += f"; /trigger pipes_restart restarts the puzzle{who}"
    if hints:
        text += "; /trigger pipes_hint for a hint"
    return text + "; /trigger pipes_help shows this again"


def player_score(uid: uuid.UUID, name: str, objective: str, value: int) -> str:
    """Set a player's score under its account name; a name that cannot stand as a bare word
    (`*Bob`) through the player's UUID (`execute as <uuid> run … @s …`), since the grammar
    check reads a leading `*` as the wildcard."""
    if is_unquoted_name(name):
        return cmd.score_set(name, objective, value)
    return f"execute as {uid} run {cmd.score_set('@s', objective, value)}"


def paint_controls_text(hints: bool) -> str:
    """The controls of a paint room in one chat line (docs/paint.md, "Player features")."""
    text = (
        "Paint: click the brush at the end of a row to paint the row, at the end of a column "
        "to clear the column; the clear brush blanks the canvas and starts the attempt over; "
        "copy the target in as few strokes as you can"
    )
    if hints:
        text += "; /trigger pipes_hint for a hint"
    return text + "; /trigger pipes_help shows this again"


def render_win_command(
    template: str, *, room: str, names: Sequence[str], time: str, moves: int
) -> list[str]:
    """The commands of `on_win.command` for one win: one, or one per player when it uses
    {player}. Only account names that may stand unquoted are substituted (at most MAX_NAMES);
    a template that names players gives nothing when no such name is left."""
    valid = [n for n in names if is_unquoted_name(n)][:MAX_NAMES]
    uses_names = "{player}" in template or "{players}" in template
    if uses_names and not valid:
        return []
    values = {"room": room, "players": ", ".join(valid), "time": time, "moves": str(moves)}
    if "{player}" in template:
        return [template.format(player=name, **values) for name in valid]
    return [template.format(player="", **values)]


class PlayerState(Protocol):
    """What the shared player features keep in a room's state (pipes `RoomState`, paint
    `PaintState`)."""

    puzzle_number: int
    moves: int
    started_at: float
    solved_at: float | None
    players: dict[str, PlayerRecord]  # by account name
    daily: dict[str, dict[str, PlayerRecord]]  # by ISO date, then account name
    told: set[str]  # UUIDs of players shown the controls


class TriggerRoom(Protocol):
    """What the shared player features need of a room (pipes or paint)."""

    @property
    def name(self) -> str: ...
    @property
    def cfg(self) -> WorldConfig: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def feedback(self) -> Feedback: ...
    @property
    def records(self) -> RoomRecords | None: ...
    @property
    def current_state(self) -> PlayerState: ...
    def send(self, link: Link, command: str) -> str: ...
    def send_all(self, link: Link, commands: list[str]) -> list[str]: ...
    def save(self) -> None: ...


R = TypeVar("R", bound=TriggerRoom)


@dataclass(frozen=True)
class PlayerHint:
    """A hint for one player: what to tell them and the frame that glows."""

    text: str
    frame: uuid.UUID


class RoomTriggers(Generic[R]):
    """What players of any room kind do themselves (help, hint and stats triggers, the first
    visit's controls) and what a win records for them (per-player records, the records store,
    `on_win.command`). A room kind says how its hints, controls and records read."""

    title = "Pipes"  # how chat names the room kind
    nothing_to_hint = "Nothing to do: the puzzle is solved"

    def __init__(self, room: R) -> None:
        self.room = room
        self.cfg = room.cfg
        self.near = room.feedback.near
        self.last_hint: dict[uuid.UUID, float] = {}  # by player UUID, on the room's clock
        self.glowing: dict[uuid.UUID, float] = {}  # frame UUID -> when its glow ends
        self.last_check = 0.0
        self.last_arm = -ARM_INTERVAL_S
        self.network_version = -1  # the network figures the sidebar shows
        self.network_shown: dict[str, int] = {}  # name -> score on the network sidebar

    # -- what a room kind says ------------------------------------------------------------
    def player_hint(self) -> PlayerHint | None:
        """The hint to give now; None when there is nothing left to do."""
        raise NotImplementedError

    def controls(self) -> str:
        """The room's controls in one chat line."""
        raise NotImplementedError

    def record_kind(self) -> str:
        """The `kind` of the room's solves in the records store."""
        raise NotImplementedError

    def puzzle_seed(self) -> int | None:
        """The current puzzle's seed."""
        raise NotImplementedError

    def puzzle_par(self) -> int | None:
        """The current puzzle's par, when the room knows it exactly."""
        raise NotImplementedError

    def centre(self) -> tuple[float, float, float]:
        """Where `on_win.command` runs."""
        raise NotImplementedError

    # -- objectives -----------------------------------------------------------------------
    def trigger_objectives(self) -> list[tuple[str, str]]:
        """The objectives players use with `/trigger` and their display names."""
        out = [(HELP, "Pipes controls")]
        if self.cfg.hint.enabled:
            out.append((HINT, "Pipes hint"))
        if self.cfg.stats:
            out.append((STATS, "Pipes records"))
        return out

    def triggers(self) -> list[str]:
        """The commands that create the objectives players use with `/trigger`."""
        return [cmd.objective_add(o, "trigger", shown) for o, shown in self.trigger_objectives()]

    def _objectives(self) -> list[str]:
        return [objective for objective, _ in self.trigger_objectives()]

    # -- timers ---------------------------------------------------------------------------
    def periodic(self, link: Link, now: float, players_near: bool) -> None:
        """What is due (glow ends, waves); the triggers once a second while players are
        near."""
        self.run_due(link, now)
        self.sync_network_sidebar(link)
        if not players_near or not self._objectives():
            return
        if now - self.last_arm >= ARM_INTERVAL_S:
            self.arm(link, now)
        if now - self.last_check >= CHECK_INTERVAL_S:
            self.last_check = now
            if not self.anyone_triggered(link):
                return
            if now - self.last_arm >= CHECK_INTERVAL_S:  # a newcomer (no score yet) among them?
                self.arm(link, now)
            self.check_help(link)
            if self.cfg.hint.enabled:
                self.check_hints(link, now)
            if self.cfg.stats:
                self.check_stats(link)
            self.check_more(link)

    def check_more(self, link: Link) -> None:
        """The room kind's own triggers, read after the shared ones."""

    def arm(self, link: Link, now: float) -> None:
        """Enable every trigger for the players near the room (one command each; `Nothing
        changed` for those armed already) and greet those who never visited."""
        self.last_arm = now
        for objective in self._objectives():
            self.room.send(link, cmd.trigger_enable(self.near, objective))
        self.greet_visitors(link)

    def run_due(self, link: Link, now: float) -> None:
        """End the glows whose time has come."""
        for frame, until in list(self.glowing.items()):
            if until <= now:
                del self.glowing[frame]
                self.room.send(link, cmd.set_glowing(frame, False))

    def clear(self, link: Link) -> None:
        """Before a new puzzle: end every glow (and whatever else is pending) at once."""
        self.run_due(link, float("inf"))

    # -- triggers -------------------------------------------------------------------------
    def anyone_triggered(self, link: Link) -> bool:
        """Whether a player near the room used one of its triggers (or is not armed yet): one
        command for all of them, so the reads of each trigger run only then (docs/in-game.md,
        "Triggers"). A reply spoiled by another RCON connection reads as yes."""
        reply = self.room.send(link, cmd.triggered_any(self.near, self._objectives()))
        return bool(reply.strip())

    def _askers(self, link: Link, objective: str) -> list[uuid.UUID]:
        """Players near the room who used `/trigger <objective>`, one at a time (each is
        re-armed before the next is read), at most MAX_ASKERS."""
        askers: list[uuid.UUID] = []
        selector = cmd.with_scores(self.near, f"{objective}=1..")[:-1] + ",limit=1]"
        for _ in range(MAX_ASKERS):
            found = parse_entity_uuids(self.room.send(link, cmd.read_player_uuids(selector)))
            if not found:
                break
            uid = found[-1]  # the UUID is the end of the message, after the display name
            rearm = [cmd.score_set(str(uid), objective, 0), cmd.trigger_enable(str(uid), objective)]
            self.room.send_all(link, rearm)
            if uid in askers:
                break
            askers.append(uid)
        return askers

    def check_hints(self, link: Link, now: float) -> list[uuid.UUID]:
        """Answer every `/trigger pipes_hint` near the room; returns the askers answered."""
        askers = self._askers(link, HINT)
        for uid in askers:
            self.hint_for(link, uid, now)
        return askers

    def hint_for(self, link: Link, uid: uuid.UUID, now: float) -> None:
        """One player's hint: the frame glows and only that player is told what to do."""
        room = self.room
        wait = self.last_hint.get(uid, -1e18) + self.cfg.hint.cooldown_s - now
        if wait > 0:
            room.send(link, cmd.tell_player(uid, f"Next hint in {math.ceil(wait)} s"))
            return
        found = None if room.current_state.solved_at is not None else self.player_hint()
        if found is None:
            room.send(link, cmd.tell_player(uid, self.nothing_to_hint))
            return
        self.last_hint[uid] = now
        commands = [cmd.tell_player(uid, found.text)]
        if self.cfg.hint.glow_s > 0 and found.frame not in self.glowing:
            commands.append(cmd.set_glowing(found.frame, True))
        if self.cfg.hint.glow_s > 0:
            self.glowing[found.frame] = now + self.cfg.hint.glow_s
        room.send_all(link, commands)

    def check_help(self, link: Link) -> list[uuid.UUID]:
        """Answer every `/trigger pipes_help` near the room with the controls, to the asker."""
        askers = self._askers(link, HELP)
        for uid in askers:
            self.room.send(link, cmd.tell_player(uid, self.controls()))
        return askers

    def greet_visitors(self, link: Link) -> list[uuid.UUID]:
        """Show the controls once to each player on a first visit: a player near the room
        without the room's told tag, one at a time (`limit=1`, so the UUID that ends the
        message is the player's, whatever its display name says), at most MAX_VISITORS a
        check; nobody new: one command with an empty reply, nothing serialized. Who was told is
        kept by UUID in the room's state; the tag only spares the read."""
        state = self.room.current_state
        tag = TOLD_TAG + self.room.name
        greeted: list[uuid.UUID] = []
        for _ in range(MAX_VISITORS):
            found = parse_entity_uuids(self.room.send(link, cmd.untold_players(self.near, tag, 1)))
            if not found or found[-1] in greeted:
                break
            uid = found[-1]
            if str(uid) not in state.told:
                self.room.send(link, cmd.tell_player(uid, self.controls()))
                state.told.add(str(uid))
            greeted.append(uid)
            self.room.send(link, cmd.tag_player(uid, tag))
        if greeted:
            self.room.save()
        return greeted

    def check_stats(self, link: Link) -> list[uuid.UUID]:
        """Answer every `/trigger pipes_stats` near the room in chat, to the asker only."""
        askers = self._askers(link, STATS)
        if not askers:
            return askers
        names = parse_player_list(self.room.send(link, cmd.list_players()))
        for uid in askers:
            self.room.send(link, cmd.tell_player(uid, self.stats_text(uid, names.get(uid))))
        return askers

    def stats_text(self, uid: uuid.UUID, name: str | None) -> str:
        """A player's records in this room (and on today's daily puzzle), then, with a shared
        records store, the network's figures."""
        return self.room_stats_text(name) + self.network_text(uid, name)

    def room_stats_text(self, name: str | None) -> str:
        """A player's records in this room (and on today's daily puzzle)."""
        state = self.room.current_state
        record = state.players.get(name) if name is not None else None
        if record is None or record.best is None:
            return f"{self.title} {self.room.name}: no solves yet"
        mean = record.mean_recent
        text = (
            f"{self.title} {self.room.name}: {record.solves} solve(s), "
            f"best {duration(record.best)}, "
            f"mean of the last {len(record.recent)} {duration(mean or 0)}"
        )
        if self.cfg.seed == "daily" and name is not None:
            today = state.daily.get(self.today().isoformat(), {}).get(name)
            if today is not None and today.best is not None:
                text += f"; today's puzzle: best {duration(today.best)}"
        return text

    def network_text(self, uid: uuid.UUID, name: str | None = None) -> str:
        """The player's rank among all players of the network and today's daily best across
        servers, from the figures the records writer last read (never waiting on the store);
        "" without a shared store. Names and servers read from the store are shown only when
        they are an account name and a server name."""
        records = self.room.records
        if records is None or not records.shared:
            return ""
        figures = records.figures()
        if figures is None:
            return "; network figures not available yet"
        mine = figures.solves_of(str(uid), name)
        if mine is None:
            text = "; network: no solves recorded yet"
        else:
            text = f"; network: #{mine.rank} of {figures.players} by solves ({mine.solves})"
            best = figures.best_of(str(uid), name)
            if best is not None and best.best_s is not None:
                text += f", best {duration(best.best_s)} (rank {best.rank})"
        if self.cfg.seed == "daily" and figures.daily:
            top = figures.daily[0]
            who = top.player_name if is_player_name(top.player_name) else "a player"
            where = f" on {top.server}" if top.server and SERVER_NAME.fullmatch(top.server) else ""
            text += f"; today's network best {duration(top.best_s or 0)} by {who}{where}"
        return text

    def sync_network_sidebar(self, link: Link) -> None:
        """With a shared records store and `on_win.sidebar`, show the network's leaders (at
        most SIDEBAR_LINES) whenever the writer has read new figures: only the scores that
        changed are sent; the first time, the objective is cleared of earlier runs' names."""
        records = self.room.records
        if records is None or not records.shared or not self.cfg.on_win.sidebar:
            return
        figures = records.figures()
        if figures is None or figures.version == self.network_version:
            return
        board = self.room.feedback.network_board()
        objective = NETWORK[board]
        lines = {"daily": figures.daily, "best_time": figures.by_best}.get(board, figures.by_solves)
        want: dict[str, int] = {}
        for line in lines:
            if len(want) >= SIDEBAR_LINES:
                break
            if is_unquoted_name(line.player_name) and line.player_name not in want:
                score = line.solves if board == "solves" else int(line.best_s or 0)
                want[line.player_name] = score
        first = self.network_version < 0
        commands = [cmd.score_reset("*", objective)] if first else []
        commands += [cmd.score_reset(n, objective) for n in self.network_shown if n not in want]
        commands += [
            cmd.score_set(n, objective, v)
            for n, v in want.items()
            if first or self.network_shown.get(n) != v
        ]
        self.network_version = figures.version
        self.network_shown = want
        self.room.send_all(link, commands)

    def today(self) -> dt.date:
        """The UTC date on the room's clock."""
        return utc_date(self.room.clock.time())

    # -- winning --------------------------------------------------------------------------
    def solvers(self, link: Link) -> list[tuple[uuid.UUID, str]]:
        """The UUIDs and account names of the players near the room (two commands)."""
        uids = parse_entity_uuids(self.room.send(link, cmd.read_player_uuids(self.near)))
        if not uids:
            return []
        names = parse_player_list(self.room.send(link, cmd.list_players()))
        return [(u, names[u]) for u in uids if u in names]

    def solve_records(
        self, solvers: Sequence[tuple[uuid.UUID, str]], seconds: float, now: float
    ) -> list[SolveRecord]:
        """One `SolveRecord` per player of this win; its id comes from the room, the puzzle
        and the player, so recording the same win again gives the same ids."""
        records = self.room.records
        if records is None:
            return []
        state = self.room.current_state
        daily = self.today().isoformat() if self.cfg.seed == "daily" else None
        return [
            SolveRecord(
                solve_id(
                    records.server, self.room.name, state.puzzle_number, state.started_at, str(uid)
                ),
                records.server,
                self.room.name,
                self.record_kind(),
                self.puzzle_seed(),
                daily,
                str(uid),
                name,
                round(seconds, 3),
                state.moves,
                self.puzzle_par(),
                now,
            )  # fmt: skip
            for uid, name in solvers
        ]

    def record(self, solvers: Sequence[tuple[uuid.UUID, str]], seconds: float) -> list[str]:
        """Count the solve for each player; the leaderboard scores to set (under the account
        name; a name that cannot stand as a bare word, `*Bob`, through the player's UUID)."""
        state = self.room.current_state
        out = []
        day = self.today().isoformat()
        for uid, name in solvers:
            record = state.players.setdefault(name, PlayerRecord())
            record.add(seconds)
            out.append(player_score(uid, name, BEST, int(record.best or 0)))
            if self.cfg.seed == "daily":
                daily = state.daily.setdefault(day, {}).setdefault(name, PlayerRecord())
                daily.add(seconds)
                out.append(player_score(uid, name, DAILY, int(daily.best or 0)))
        for old in sorted(state.daily)[:-DAILY_DAYS_KEPT]:
            del state.daily[old]
        return out

    def win_commands(self, names: Sequence[str], seconds: float, moves: int) -> list[str]:
        """`on_win.command` for this win, run at the centre of the room."""
        template = self.cfg.on_win.command
        if template is None:
            return []
        commands = render_win_command(
            template, room=self.room.name, names=names, time=duration(seconds), moves=moves
        )
        if not commands:
            log.info("room %s: on_win.command skipped: no player to name", self.room.name)
        return [cmd.positioned(self.centre(), c) for c in commands]


class InGame(RoomTriggers["PipesRoom"]):
    """The player features of a pipes room: the shared ones, undo and restart, the win waves,
    in-game reset requests."""

    nothing_to_hint = "Nothing to turn: the water already flows"

    def __init__(self, room: PipesRoom) -> None:
        super().__init__(room)
        self.waves: list[tuple[float, list[str]]] = []  # (when, commands), in order
        self.after_waves: list[str] = []  # the celebration, sent after the last wave

    def trigger_objectives(self) -> list[tuple[str, str]]:
        """The shared triggers, then undo and restart when the room allows them."""
        out = super().trigger_objectives()
        if self.cfg.undo:
            out.append((UNDO, "Pipes undo"))
        if self.cfg.restart_by:
            out.append((RESTART, "Restart pipes puzzle"))
        return out

    def check_more(self, link: Link) -> None:
        """Undo and restart requests."""
        if self.cfg.undo:
            self.check_undo(link)
        if self.cfg.restart_by:
            self.check_restart(link)

    def run_due(self, link: Link, now: float) -> None:
        """Send the waves and glow ends whose time has come; the celebration after the last
        wave."""
        while self.waves and self.waves[0][0] <= now:
            _, commands = self.waves.pop(0)
            self.room.send_all(link, commands)
            if not self.waves:
                self.room.send_all(link, self.after_waves)
                self.after_waves = []
        super().run_due(link, now)

    def player_hint(self) -> PlayerHint | None:
        """A tile to turn and how often (the room's rules decide)."""
        room = self.room
        found = room.rules.hint(room.board)
        if found is None:
            return None
        idx, rotation = found
        board = room.board
        i, j = idx % board.width, idx // board.width
        clicks = (rotation - board.rotations[idx]) % 4
        times = {1: "once", 2: "twice"}.get(clicks, f"{clicks} times")
        text = (
            f"Hint: click the glowing tile {times} (column {i + 1}, row {j + 1}); "
            "each click turns it a quarter clockwise"
        )
        return PlayerHint(text, room.uuids[idx])

    def controls(self) -> str:
        """The room's controls as the server's data pack allows them."""
        restart = None
        if self.cfg.restart_by:
            restart = "everyone" if self.cfg.restart_by == [EVERYONE] else "listed"
        return controls_text(
            self.room.gestures,
            self.cfg.hint.enabled,
            undo=self.cfg.undo and self.room.clickers,
            restart=restart,
        )

    def record_kind(self) -> str:
        """The room's mode (`tree` or `sink`)."""
        return self.cfg.mode

    def puzzle_seed(self) -> int | None:
        """The board's seed."""
        return self.room.board.seed

    def puzzle_par(self) -> int | None:
        """The board's par when it is known exactly."""
        return self.room.par

    def centre(self) -> tuple[float, float, float]:
        """The middle of the frame floor."""
        geom = self.room.geom
        x, y, z = geom.frame_pos(0, 0)
        return (x + geom.width / 2, float(y), z + geom.height / 2)

    def check_undo(self, link: Link) -> list[uuid.UUID]:
        """Answer every `/trigger pipes_undo` near the room: the asker's own newest turn goes
        back (docs/in-game.md, "Undo"), or the asker alone is told why not."""
        askers = self._askers(link, UNDO)
        room = self.room
        for uid in askers:
            if not room.clickers:
                answer = UNDO_NEEDS_PACK
            elif room.current_state.solved_at is not None:
                answer = UNDO_SOLVED
            else:
                number = turns.parse_player_number(room.send(link, turns.player_number(uid)))
                answer = UNDO_NOTHING if number is None else room.undo(link, number)
            room.send(link, cmd.tell_player(uid, answer))
        return askers

    def check_restart(self, link: Link) -> str | None:
        """Answer every `/trigger pipes_restart` near the room: the first asker `restart_by`
        allows (by account name, or everyone for `["*"]`) starts the puzzle over and everyone
        near is told who; every other asker alone is told why not. Returns who restarted."""
        askers = self._askers(link, RESTART)
        if not askers:
            return None
        room, everyone = self.room, self.cfg.restart_by == [EVERYONE]
        names = parse_player_list(room.send(link, cmd.list_players()))
        by: str | None = None
        for uid in askers:
            name = names.get(uid)
            if not everyone and name not in self.cfg.restart_by:
                room.send(link, cmd.tell_player(uid, RESTART_REFUSED))
            elif room.current_state.solved_at is not None:
                room.send(link, cmd.tell_player(uid, "The puzzle is solved: the next one comes"))
            elif by is not None:
                room.send(link, cmd.tell_player(uid, f"{by} restarted it just now"))
            elif not room.restart(link):
                room.send(link, cmd.tell_player(uid, RESTART_UNKNOWN))
            else:
                by = name if name is not None else "A player"
                log.info("room %s: %s restarted the puzzle", room.name, by)
                room.send_feedback(link, [room.feedback.restart_announcement(by)])
        return by

    def reset_asker(self, link: Link) -> str | None:
        """The first player near the room who used `/trigger pipes_reset` and is listed in
        `reset_by` (by account name); every asker is re-armed."""
        askers = self._askers(link, RESET)
        if not askers:
            return None
        names = parse_player_list(self.room.send(link, cmd.list_players()))
        allowed = [names[u] for u in askers if names.get(u) in self.cfg.reset_by]
        return allowed[0] if allowed else None

    def schedule_waves(self, now: float, celebration: list[str]) -> float:
        """Queue the win waves (one batch of commands each, spread over `on_win.waves_s`) and
        the celebration after them; returns when the celebration is sent."""
        room, board = self.room, self.room.board
        duration_s = self.cfg.on_win.waves_s
        batches = wave_batches(wave_levels(board)) if duration_s > 0 else []
        if not batches:
            self.waves = [(now, [])]
            self.after_waves = celebration
            return now
        self.waves = []
        step = duration_s / len(batches)
        w = board.width
        for k, batch in enumerate(batches):
            commands = []
            for idx in batch:
                cross = board.shapes[idx] == CROSS
                if board.shapes[idx] == HOLE:
                    continue  # no frame
                if room.shown_class[idx] != TileClass.SOURCE and (idx not in board.fixed or cross):
                    mid = (
                        room.map_id(idx, TileClass.SOURCE)
                        if cross
                        else map_id(self.cfg.map_id_base, board.shapes[idx], TileClass.SOURCE)
                    )
                    commands.append(cmd.set_map_id(room.uuids[idx], mid))
                    room.shown_class[idx] = TileClass.SOURCE
            sound = self.cfg.sounds.water
            if sound is not None and batch:
                x, y, z = room.geom.frame_pos(batch[0] % w, batch[0] // w)
                at = (x + 0.5, y + 0.1, z + 0.5)
                commands.append(cmd.playsound_at(sound, "block", at, self.cfg.sounds.hear_distance))
            self.waves.append((now + k * step, commands))
        self.after_waves = celebration
        return now + (len(batches) - 1) * step
