"""What the players of a room see and hear: titles, sounds, chat, the action bar, the
leaderboard objectives, hints and in-game reset requests.

Everything here composes commands from `controller.world.commands`; the room sends them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from controller.config import WorldConfig
from controller.puzzle.sink import RouteProgress
from controller.world import commands as cmd
from controller.world.geometry import Pos
from controller.world.replies import parse_count

__all__ = [
    "SOLVES",
    "BEST",
    "DAILY",
    "NETWORK",
    "RESET",
    "Feedback",
    "duration",
    "route_text",
    "win_objective",
]

SOLVES = "pipes_solves"
BEST = "pipes_best_s"
DAILY = "pipes_daily_s"  # best time on the current daily puzzle (rooms with `seed: daily`)
# The sidebars of a shared records store, the network's leaders: by solves, by best time, on
# today's daily puzzle (one objective each, so rooms of either setting share a server).
NETWORK = {
    "solves": "pipes_net_solves",
    "best_time": "pipes_net_best_s",
    "daily": "pipes_net_daily_s",
}
RESET = "pipes_reset"
WIN_PREFIX = "pipes_w."  # per room: -1 = a win to pay, 0/1 = nothing owed


def win_objective(room: str) -> str:
    """The per-room objective marking players owed a solve (`pipes_w.<room>`)."""
    return WIN_PREFIX + room


def duration(seconds: float) -> str:
    """`m:ss`, or `h:mm:ss` from an hour on."""
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s < 3600 else f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def route_text(route: RouteProgress) -> str:
    """`7/20` (route steps with water of all), `20/20 + sink` once the sink is reached, and the
    connectivity (the share plus one for the sink, docs/puzzle.md, "Route progress")."""
    sink = " + sink" if route.sink else ""
    return f"{route.reached}/{route.length}{sink} ({route.connectivity:.2f})"


class Geometry(Protocol):
    """What feedback needs of a room's placement (pipes or paint)."""

    def frame_pos(self, i: int, j: int) -> Pos:
        """The block the frame (i, j) hangs in."""
        ...

    def near_selector(self, margin: int = 8) -> str:
        """A player selector for everyone in or near the room."""
        ...


class Feedback:
    """The feedback commands of one room."""

    def __init__(self, name: str, geom: Geometry, cfg: WorldConfig) -> None:
        self.name = name
        self.cfg = cfg
        self.geom = geom
        self.near = geom.near_selector()
        self.network = False  # a shared records store: the sidebar shows the network's figures

    def objectives(self) -> list[str]:
        """The leaderboard objectives, the sidebar, and the reset trigger for `reset_by`."""
        out = [
            cmd.objective_add(SOLVES, "dummy", "Pipes solves"),
            cmd.objective_add(BEST, "dummy", "Pipes best time (s)"),
            cmd.objective_add(win_objective(self.name), "dummy", "Pipes solves owed"),
        ]
        daily = self.cfg.seed == "daily"
        if daily:
            out.append(cmd.objective_add(DAILY, "dummy", "Daily pipes best (s)"))
        if self.cfg.on_win.sidebar and self.network:
            out.append(cmd.objective_add(self.leaderboard(), "dummy", self.network_title()))
        if self.cfg.on_win.sidebar:
            out.append(cmd.objective_display("sidebar", self.leaderboard()))
        if self.cfg.reset_by:
            out.append(cmd.objective_add(RESET, "trigger", "New pipes puzzle"))
            out += [cmd.trigger_enable(name, RESET) for name in self.cfg.reset_by]
        return out

    def mark_winners(self) -> str:
        """Mark the players near the room as owed one solve (-1). Players already owed keep
        their mark, so running this twice owes nothing twice."""
        w = win_objective(self.name)
        return (
            f"execute as {self.near} unless score @s {w} matches ..-1 "
            f"run {cmd.score_set('@s', w, -1)}"
        )

    def pay_winners(self) -> str:
        """Pay every owed solve: per player, in one command, `pipes_solves` +1 and the mark
        cleared (`store success` sets it to 1), so a repeat pays nobody twice."""
        w = win_objective(self.name)
        return (
            f"execute as @a[scores={{{w}=..-1}}] store success score @s {w} "
            f"run {cmd.score_add('@s', SOLVES, 1)}"
        )

    def best_time(self, best: float) -> str:
        """The room's best time on the leaderboard (idempotent)."""
        return cmd.score_set(f"#{self.name}", BEST, int(best))

    def leaderboard(self) -> str:
        """The objective the sidebar shows: today's best times on a daily room, else solves or
        best times (`leaderboard`)."""
        if self.network:
            return NETWORK[self.network_board()]
        if self.cfg.seed == "daily":
            return DAILY
        return BEST if self.cfg.leaderboard == "best_time" else SOLVES

    def network_board(self) -> str:
        """Which network leaderboard the sidebar shows: `daily` for a daily room, else the
        room's `leaderboard` (`solves` or `best_time`)."""
        return "daily" if self.cfg.seed == "daily" else self.cfg.leaderboard

    def network_title(self) -> str:
        """The title of the network sidebar."""
        return {
            "daily": "Network: today's best (s)",
            "best_time": "Network: best time (s)",
        }.get(self.network_board(), "Network: solves")

    def celebration(
        self,
        seconds: float,
        moves: int,
        best: float,
        *,
        message: str | None = None,
        subtitle: str | None = None,
        fields: Mapping[str, object] | None = None,
        scores: bool = True,
    ) -> list[str]:
        """Title, sound and chat when the board is solved (`message`, `subtitle` and extra
        `fields` for the message: a room kind's own wording). `scores`: the solve and best time
        too, in the same breath; a room that pays them durably (`mark_winners`, `pay_winners`)
        passes False."""
        near = self.near
        message = (message or self.cfg.on_win.message).format(
            time=duration(seconds), moves=moves, room=self.name, **(fields or {})
        )
        return [
            cmd.title_times(near, 10, 70, 20),
            cmd.title(near, "subtitle", subtitle or f"{duration(seconds)} · {moves} moves"),
            cmd.title(near, "title", "Solved!"),
            cmd.playsound_each(near, self.cfg.on_win.sound),
            cmd.tellraw(near, message),
            *([cmd.score_add(near, SOLVES, 1), self.best_time(best)] if scores else []),
        ]

    def action_bar(
        self,
        wet: int,
        total: int,
        seconds: float,
        moves: int,
        par: int | None = None,
        *,
        route: RouteProgress | None = None,
    ) -> str:
        """Above the hotbar: the water count (a sink room: how far the water got along its
        route), the puzzle's clock and its moves (clicks), with par when the room knows it
        exactly (docs/in-game.md, "The action bar")."""
        against = "" if par is None else f" (par {par})"
        water = f"Water: {wet}/{total}" if route is None else f"Route: {route_text(route)}"
        text = f"{water} · {duration(seconds)} · {moves} moves{against}"
        return cmd.title(self.near, "actionbar", text)

    def hint(self, i: int, j: int, clicks: int) -> list[str]:
        """Tell the players which tile to turn and make it sparkle."""
        x, y, z = self.geom.frame_pos(i, j)
        return [
            cmd.tellraw(
                self.near,
                f"Hint: turn the glowing tile {clicks} time(s) (column {i + 1}, row {j + 1})",
            ),
            cmd.particle(
                "minecraft:happy_villager", (x + 0.5, y + 0.3, z + 0.5), (0.3, 0.2, 0.3), 0, 20
            ),
        ]

    def turn_sounds(self, turned: tuple[int, int], wetted: list[tuple[int, int]]) -> list[str]:
        """The frame-rotate sound at the turned frame, and a soft water sound at the first tile
        the water reached (the frames are Silent: docs/turn-detection.md, quiet writes).

        The rotate sound is the frame kind's and plays in the `neutral` source, as a player's
        turn of a frame that is not Silent does on vanilla (docs/server-behaviour.md, "Item
        frames: sounds"); the water sound is a block sound.
        """
        sounds = self.cfg.sounds
        out = []
        turn = self.cfg.turn_sound()
        if turn is not None:
            out.append(self._sound_at(turn, "neutral", *turned))
        if sounds.water is not None and wetted:
            out.append(self._sound_at(sounds.water, "block", *wetted[0]))
        return out

    def _sound_at(self, sound: str, source: str, i: int, j: int) -> str:
        x, y, z = self.geom.frame_pos(i, j)
        hear = self.cfg.sounds.hear_distance
        return cmd.playsound_at(sound, source, (x + 0.5, y + 0.1, z + 0.5), hear)

    @property
    def askers(self) -> str:
        """Players near the room who used `/trigger pipes_reset` (a selector, evaluated by the
        server: no name is ever read back from a reply)."""
        return cmd.with_scores(self.near, f"{RESET}=1..")

    def any_reset_request(self) -> str:
        """One command whose `Test passed. Count: N` says whether anyone near asked."""
        return cmd.count_entities(self.askers)

    def allowed_asker(self, name: str) -> str:
        """Whether the configured player `name` (exactly that account) is among the askers."""
        return cmd.count_entities(cmd.with_name(self.askers, name))

    def rearm(self) -> list[str]:
        """Re-enable the askers' triggers and clear exactly their scores (by selector)."""
        return [
            cmd.trigger_enable(self.askers, RESET),
            cmd.score_set(self.askers, RESET, 0),
        ]

    def reset_asker(self, send: Callable[[str], str]) -> str | None:
        """Ask the server (through `send`) who near the room used the trigger: the first name of
        `reset_by` among them, or None; every asker's trigger is re-armed either way."""
        if not parse_count(send(self.any_reset_request())):
            return None
        asker = next(
            (n for n in self.cfg.reset_by if parse_count(send(self.allowed_asker(n)))), None
        )
        for command in self.rearm():
            send(command)
        return asker

    def reset_announcement(self, player: str) -> str:
        """Tell the room who started a new puzzle."""
        return cmd.tellraw(self.near, f"{player} started a new puzzle")

    def restart_announcement(self, player: str) -> str:
        """Tell the room who started the puzzle over (an account name, or "A player")."""
        return cmd.tellraw(
            self.near, f"{player} restarted this puzzle: the clock and the moves start again"
        )
