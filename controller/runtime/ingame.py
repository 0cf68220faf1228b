"""What players of a pipes room do themselves: ask for a hint, their records or (when listed in
`reset_by`) a new puzzle with `/trigger`; and the win waves, the per-player records and the
optional `on_win.command` of a win.

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
from typing import TYPE_CHECKING

from controller.config import EVERYONE, SERVER_NAME
from controller.puzzle.model import CROSS, HOLE, Board, TileClass, map_id
from controller.records.model import SolveRecord, solve_id
from controller.runtime.daily import utc_date
from controller.runtime.feedback import BEST, DAILY, NETWORK, RESET, duration
from controller.runtime.link import Link
from controller.runtime.records import PlayerRecord
from controller.world import commands as cmd
from controller.world import turns
from controller.world.names import is_player_name, is_unquoted_name
from controller.world.replies import parse_entity_uuids, parse_player_list

if TYPE_CHECKING:
    from controller.runtime.pipes_room import PipesRoom

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
    "MAX_WAVES",
    "MAX_NAMES",
    "InGame",
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


class InGame:
    """Hint and stats triggers, win waves and player records of one pipes room."""

    def __init__(self, room: PipesRoom) -> None:
        self.room = room
        self.cfg = room.cfg
        self.near = room.geom.near_selector()
        self.last_hint: dict[uuid.UUID, float] = {}  # by player UUID, on the room's clock
        self.glowing: dict[int, float] = {}  # tile -> when its glow ends
        self.waves: list[tuple[float, list[str]]] = []  # (when, commands), in order
        self.after_waves: list[str] = []  # the celebration, sent after the last wave
        self.last_check = 0.0
        self.last_arm = -ARM_INTERVAL_S
        self.network_version = -1  # the network figures the sidebar shows
        self.network_shown: dict[str, int] = {}  # name -> score on the network sidebar

    # -- objectives -----------------------------------------------------------------------
    def triggers(self) -> list[str]:
        """The objectives players use with `/trigger`."""
        out = [cmd.objective_add(HELP, "trigger", "Pipes controls")]
        if self.cfg.hint.enabled:
            out.append(cmd.objective_add(HINT, "trigger", "Pipes hint"))
        if self.cfg.stats:
            out.append(cmd.objective_add(STATS, "trigger", "Pipes records"))
        if self.cfg.undo:
            out.append(cmd.objective_add(UNDO, "trigger", "Pipes undo"))
        if self.cfg.restart_by:
            out.append(cmd.objective_add(RESTART, "trigger", "Restart pipes puzzle"))
        return out

    def _objectives(self) -> list[str]:
        hint = [HINT] if self.cfg.hint.enabled else []
        undo = [UNDO] if self.cfg.undo else []
        restart = [RESTART] if self.cfg.restart_by else []
        return [HELP, *hint] + ([STATS] if self.cfg.stats else []) + undo + restart

    # -- timers ---------------------------------------------------------------------------
    def periodic(self, link: Link, now: float, players_near: bool) -> None:
        """Waves and glows that are due; the triggers once a second while players are near."""
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
            if self.cfg.undo:
                self.check_undo(link)
            if self.cfg.restart_by:
                self.check_restart(link)

    def arm(self, link: Link, now: float) -> None:
        """Enable every trigger for the players near the room (one command each; `Nothing
        changed` for those armed already) and greet those who never visited."""
        self.last_arm = now
        for objective in self._objectives():
            self.room.send(link, cmd.trigger_enable(self.near, objective))
        self.greet_visitors(link)

    def run_due(self, link: Link, now: float) -> None:
        """Send the waves and glow ends whose time has come; the celebration after the last
        wave."""
        while self.waves and self.waves[0][0] <= now:
            _, commands = self.waves.pop(0)
            self.room.send_all(link, commands)
            if not self.waves:
                self.room.send_all(link, self.after_waves)
                self.after_waves = []
        for idx, until in list(self.glowing.items()):
            if until <= now:
                del self.glowing[idx]
                self.room.send(link, cmd.set_glowing(self.room.uuids[idx], False))

    def clear(self, link: Link) -> None:
        """Before a new puzzle: finish pending waves at once and end every glow."""
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
        """One player's hint: the tile glows and only that player is told how to turn it."""
        room = self.room
        wait = self.last_hint.get(uid, -1e18) + self.cfg.hint.cooldown_s - now
        if wait > 0:
            room.send(link, cmd.tell_player(uid, f"Next hint in {math.ceil(wait)} s"))
            return
        state = room.current_state
        found = None if state.solved_at is not None else room.rules.hint(room.board)
        if found is None:
            room.send(link, cmd.tell_player(uid, "Nothing to turn: the water already flows"))
            return
        self.last_hint[uid] = now
        idx, rotation = found
        board = room.board
        i, j = idx % board.width, idx // board.width
        clicks = (rotation - board.rotations[idx]) % 4
        times = {1: "once", 2: "twice"}.get(clicks, f"{clicks} times")
        commands = [
            cmd.tell_player(
                uid,
                f"Hint: click the glowing tile {times} (column {i + 1}, row {j + 1}); "
                "each click turns it a quarter clockwise",
            )
        ]
        if self.cfg.hint.glow_s > 0 and idx not in self.glowing:
            commands.append(cmd.set_glowing(room.uuids[idx], True))
        if self.cfg.hint.glow_s > 0:
            self.glowing[idx] = now + self.cfg.hint.glow_s
        room.send_all(link, commands)

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
            return f"Pipes {self.room.name}: no solves yet"
        mean = record.mean_recent
        text = (
            f"Pipes {self.room.name}: {record.solves} solve(s), best {duration(record.best)}, "
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
        state, board = self.room.current_state, self.room.board
        daily = self.today().isoformat() if self.cfg.seed == "daily" else None
        return [
            SolveRecord(
                solve_id(
                    records.server, self.room.name, state.puzzle_number, state.started_at, str(uid)
                ),
                records.server,
                self.room.name,
                self.cfg.mode,
                board.seed,
                daily,
                str(uid),
                name,
                round(seconds, 3),
                state.moves,
                self.room.par,
                now,
            )  # fmt: skip
            for uid, name in solvers
        ]

    def record(self, names: Sequence[str], seconds: float) -> list[str]:
        """Count the solve for each player; the leaderboard scores to set."""
        state = self.room.current_state
        out = []
        day = self.today().isoformat()
        for name in names:
            record = state.players.setdefault(name, PlayerRecord())
            record.add(seconds)
            out.append(cmd.score_set(name, BEST, int(record.best or 0)))
            if self.cfg.seed == "daily":
                daily = state.daily.setdefault(day, {}).setdefault(name, PlayerRecord())
                daily.add(seconds)
                out.append(cmd.score_set(name, DAILY, int(daily.best or 0)))
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

    def centre(self) -> tuple[float, float, float]:
        """The middle of the frame floor."""
        geom = self.room.geom
        x, y, z = geom.frame_pos(0, 0)
        return (x + geom.width / 2, float(y), z + geom.height / 2)

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
