"""Property tests of the world algorithms against simple oracles (fill counting, chunk levels)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.sandbox.game import Game
from tests.support.sandbox_game import reply

BLOCKS = ["minecraft:air", "minecraft:melon", "minecraft:pumpkin", "minecraft:stone"]

fills = st.lists(
    st.tuples(
        st.tuples(st.integers(0, 5), st.integers(60, 63), st.integers(0, 5)),
        st.tuples(st.integers(0, 5), st.integers(60, 63), st.integers(0, 5)),
        st.sampled_from(BLOCKS),
        st.sampled_from(["", " keep", " hollow", " outline", " replace minecraft:melon"]),
    ),
    min_size=1,
    max_size=8,
)


def oracle_fill(
    world: dict[tuple[int, int, int], str],
    a: tuple[int, int, int],
    b: tuple[int, int, int],
    block: str,
    mode: str,
) -> int:
    lo = [min(a[i], b[i]) for i in range(3)]
    hi = [max(a[i], b[i]) for i in range(3)]
    changed = 0
    for x in range(lo[0], hi[0] + 1):
        for y in range(lo[1], hi[1] + 1):
            for z in range(lo[2], hi[2] + 1):
                edge = x in (lo[0], hi[0]) or y in (lo[1], hi[1]) or z in (lo[2], hi[2])
                cur = world.get((x, y, z), "minecraft:air")
                new = block
                if mode == " keep" and cur != "minecraft:air":
                    continue
                if mode == " outline" and not edge:
                    continue
                if mode == " hollow" and not edge:
                    new = "minecraft:air"
                if mode == " replace minecraft:melon" and cur != "minecraft:melon":
                    continue
                if new != cur:
                    world[(x, y, z)] = new
                    changed += 1
    return changed


@settings(max_examples=60, deadline=None)
@given(fills)
def test_fill_counts_only_changed_blocks(
    ops: list[tuple[tuple[int, int, int], tuple[int, int, int], str, str]],
) -> None:
    game = Game()
    game.execute("forceload add 0 0")
    world: dict[tuple[int, int, int], str] = {}
    for a, b, block, mode in ops:
        expected = oracle_fill(world, a, b, block, mode)
        got = reply(game, f"fill {a[0]} {a[1]} {a[2]} {b[0]} {b[1]} {b[2]} {block}{mode}")
        want = f"Successfully filled {expected} block(s)" if expected else "No blocks were filled"
        assert got == want
    for (x, y, z), state in world.items():
        assert game.block(x, y, z) == state


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), max_size=4),
    st.lists(st.tuples(st.integers(-200, 200), st.integers(-200, 200)), max_size=2),
    st.integers(2, 6),
)
def test_chunk_levels_match_the_ticket_oracle(
    forced: list[tuple[int, int]], players: list[tuple[int, int]], view: int
) -> None:
    game = Game()
    game.world.view_distance = view
    for cx, cz in forced:
        game.execute(f"forceload add {cx * 16} {cz * 16}")
    for k, (x, z) in enumerate(players):
        game.join(f"p{k}", (x + 0.5, 64.0, z + 0.5))
    game.tick()
    game.tick()

    def level(cx: int, cz: int) -> int:
        best = 99
        for fx, fz in forced:
            d = max(abs(cx - fx), abs(cz - fz))
            if d <= 2:
                best = min(best, 31 + d)
        for x, z in players:
            d = max(abs(cx - (x >> 4)), abs(cz - (z >> 4)))
            if d <= view + 2:
                best = min(best, 31 + max(0, d - view))
        return best

    for cx in range(-20, 21, 3):
        for cz in range(-20, 21, 3):
            lvl = level(cx, cz)
            assert game.world.is_block_loaded("minecraft:overworld", cx * 16, cz * 16) == (
                lvl <= 33
            )
            loaded = reply(game, f"execute if loaded {cx * 16} 64 {cz * 16}") == "Test passed"
            assert loaded == (lvl <= 31)
