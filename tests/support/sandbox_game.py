"""Shared helpers for the sandbox game tests: run rows of (command, expected reply, source)."""

from __future__ import annotations

from controller.sandbox.game import Game

__all__ = ["FRAME", "UUID1", "check_rows", "reply"]

UUID1 = "00000001-ffff-fffe-0000-000300000004"  # [I;1,-2,3,4]
FRAME = (
    "summon minecraft:item_frame {x} {y} {z} {{Facing:1b,Invulnerable:1b,Fixed:0b,Invisible:0b,"
    'ItemRotation:{rot}b,UUID:[I;{u0},{u1},{u2},{u3}],CustomName:"pipes:{room}:{i}:{j}",'
    'Tags:["pipes","pipes.{room}","pipes.r{rot}"{extra}],Item:{{id:"minecraft:filled_map",count:1,'
    'components:{{"minecraft:map_id":{map}}}}}}}'
)


def reply(game: Game, command: str) -> str:
    """The RCON reply body: messages joined with no separator (MC-7569)."""
    return "".join(game.execute(command))


def check_rows(game: Game, rows: list[tuple[str, str, str]]) -> None:
    """Run rows in order; report every mismatch with its source citation."""
    failures = []
    for command, expected, source in rows:
        got = reply(game, command)
        if got != expected:
            failures.append(
                f"{command!r}\n  expected {expected!r}\n  got      {got!r}\n  ({source})"
            )
    assert not failures, "\n".join(failures)
