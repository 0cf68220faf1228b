"""What the players of a room see and hear: titles, sounds, chat, the action bar, the
leaderboard objectives, hints and in-game reset requests.

Everything here composes commands from `controller.world.commands`; the room sends them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from controller.config import WorldConfig
from controller.world import commands as cmd
from controller.world.geometry import Pos
from controller.world.replies import parse_score_holders

__all__ = ["SOLVES", "BEST", "DAILY", "RESET", "Feedback", "duration"]

SOLVES = "pipes_solves"
BEST = "pipes_best_s"
DAILY = "pipes_daily_s"  # best time on the current daily puzzle (rooms with `seed: daily`)
RESET = "pipes_reset"


def duration(seconds: float) -> str:
    """`m:ss`, or `h:mm:ss` from an hour on."""
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s < 3600 else f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


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

    def objectives(self) -> list[str]:
        """The leaderboard objectives, the sidebar, and the reset trigger for `reset_by`."""
        out = [
            cmd.objective_add(SOLVES, "dummy", "Pipes solves"),
            cmd.objective_add(BEST, "dummy", "Pipes best time (s)"),
        ]
        daily = self.cfg.seed == "daily"
        if daily:
            out.append(cmd.objective_add(DAILY, "dummy", "Daily pipes best (s)"))
        if self.cfg.on_win.sidebar:
            out.append(cmd.objective_display("sidebar", self.leaderboard()))
        if self.cfg.reset_by:
            out.append(cmd.objective_add(RESET, "trigger", "New pipes puzzle"))
            out += [cmd.trigger_enable(name, RESET) for name in self.cfg.reset_by]
        return out

    def leaderboard(self) -> str:
        """The objective the sidebar shows: today's best times on a daily room, else solves or
        best times (`leaderboard`)."""
        if self.cfg.seed == "daily":
            return DAILY
        return BEST if self.cfg.leaderboard == "best_time" else SOLVES

    def celebration(
        self,
        seconds: float,
        moves: int,
        best: float,
        *,
        message: str | None = None,
        subtitle: str | None = None,
        fields: Mapping[str, object] | None = None,
    ) -> list[str]:
        """Title, sound, chat and scores when the board is solved (`message`, `subtitle` and
        extra `fields` for the message: a room kind's own wording)."""
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
            cmd.score_add(near, SOLVES, 1),
            cmd.score_set(f"#{self.name}", BEST, int(best)),
        ]

    def action_bar(self, wet: int, total: int) -> str:
        """The water count shown above the hotbar."""
        return cmd.title(self.near, "actionbar", f"Water: {wet}/{total}")

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
        the water reached (the frames are Silent: docs/turn-detection.md, quiet writes)."""
        sounds = self.cfg.sounds
        out = []
        if sounds.turn is not None:
            out.append(self._sound_at(sounds.turn, *turned))
        if sounds.water is not None and wetted:
            out.append(self._sound_at(sounds.water, *wetted[0]))
        return out

    def _sound_at(self, sound: str, i: int, j: int) -> str:
        x, y, z = self.geom.frame_pos(i, j)
        hear = self.cfg.sounds.hear_distance
        return cmd.playsound_at(sound, "block", (x + 0.5, y + 0.1, z + 0.5), hear)

    def read_reset_requests(self) -> str:
        """The command whose reply names the players near the room who used the trigger."""
        return cmd.read_scores(cmd.with_scores(self.near, f"{RESET}=1.."), RESET)

    def answer_reset_requests(self, reply: str) -> tuple[list[str], str | None]:
        """Commands that re-arm the askers' triggers, and the first asker allowed to reset."""
        askers = parse_score_holders(reply)
        commands: list[str] = []
        for name in askers:
            commands += [cmd.score_set(name, RESET, 0), cmd.trigger_enable(name, RESET)]
        allowed = [name for name in askers if name in self.cfg.reset_by]
        return commands, allowed[0] if allowed else None

    def reset_announcement(self, player: str) -> str:
        """Tell the room who started a new puzzle."""
        return cmd.tellraw(self.near, f"{player} started a new puzzle")
