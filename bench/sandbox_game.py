"""Benchmark of the sandbox game alone (no sockets): commands per second and server-side cost.

Run: `.venv/bin/python bench/sandbox_game.py` — prints markdown tables for docs/benchmarks.md.
"""

from __future__ import annotations

import time

from controller.sandbox.game import Game

__all__ = ["main"]

FRAME = (
    "summon minecraft:item_frame {x} 64 {z} {{Facing:1b,Invulnerable:1b,Fixed:0b,"
    'ItemRotation:{rot}b,UUID:[I;0,0,{x},{u}],CustomName:"pipes:R:{x}:{z}",'
    'Tags:["pipes","pipes.R","pipes.r{rot}"],Item:{{id:"minecraft:filled_map",count:1,'
    'components:{{"minecraft:map_id":{m}}}}}}}'
)
POLL = (
    "execute at @a as @e[type=minecraft:item_frame,tag=pipes,tag=pipes.r{r},distance=..6]"
    " unless entity @s[nbt={{ItemRotation:{r}b}}] run data get entity @s ItemRotation"
)


def room(n: int = 31) -> Game:
    """A forced n×n room of frames on melons."""
    game = Game()
    game.execute("forceload add -32 -32 47 47")
    game.execute(f"fill 0 63 0 {n - 1} 63 {n - 1} minecraft:melon")
    for x in range(n):
        for z in range(n):
            game.execute(FRAME.format(x=x, z=z, rot=(x + z) % 4, u=z + 1, m=1000000 + x))
    game.tick()
    return game


def rate(game: Game, command: str, seconds: float = 1.0) -> float:
    """Commands per second for one command string."""
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.execute(command)
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    """Print the tables."""
    game = room()
    uid = "00000000-0000-0000-0000-000f00000010"
    commands = [
        "list",
        "setblock 5 62 5 minecraft:pumpkin",
        f"data get entity {uid} ItemRotation",
        "execute if entity @e[type=minecraft:item_frame,tag=pipes.R]",
        "execute as @e[type=minecraft:item_frame,tag=pipes.R] run data get entity @s ItemRotation",
    ]
    print("| command (961 frames loaded) | commands/s | entities examined | NBT serializations |")
    print("|---|---:|---:|---:|")
    for c in commands:
        r = rate(game, c, 0.5)
        print(
            f"| `{c[:70]}` | {r:,.0f} | {game.last_cost['entities_examined']} |"
            f" {game.last_cost['nbt_serializations']} |"
        )
    print()
    print(
        "| players near the room | poll (4 commands) ms | entities examined | NBT serializations |"
    )
    print("|---:|---:|---:|---:|")
    spots = [
        (15.5, 15.5),
        (3.5, 3.5),
        (27.5, 3.5),
        (3.5, 27.5),
        (27.5, 27.5),
        (15.5, 3.5),
        (3.5, 15.5),
        (27.5, 15.5),
    ]
    joined = 0
    for players in (0, 1, 8):
        while joined < players:
            x, z = spots[joined]
            game.join(f"p{joined}", (x, 65.0, z))
            joined += 1
        game.tick()
        examined = serial = 0
        start = time.perf_counter()
        for r in range(4):
            game.execute(POLL.format(r=r))
            examined += game.last_cost["entities_examined"]
            serial += game.last_cost["nbt_serializations"]
        ms = (time.perf_counter() - start) * 1000
        print(f"| {players} | {ms:.1f} | {examined} | {serial} |")
    start = time.perf_counter()
    for _ in range(100):
        game.tick()
    print()
    print(f"tick with 961 frames and 8 players: {(time.perf_counter() - start) * 10:.2f} ms")


if __name__ == "__main__":
    main()
