"""Entity selectors: parse errors (cursor and message) and matching against a brute-force oracle.

Row sources are sections of docs/server-behaviour.md.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.sandbox.game import Game
from tests.support.sandbox_game import check_rows, reply

PARSE_ROWS = [
    (
        "kill @x",
        "Unknown selector type '@x'kill @x<--[HERE]",
        "lang argument.entity.selector.unknown; EntitySelectorParser cursor reset",
    ),
    ("kill @", "Missing selector typekill @<--[HERE]", "lang argument.entity.selector.missing"),
    ("kill @e[foo=1]", "Unknown option 'foo'kill @e[foo=1]<--[HERE]", "EntitySelectorOptions.get"),
    (
        "kill @e[type=minecraft:nope]",
        "Invalid or unknown entity type 'minecraft:nope'...l @e[type=minecraft:nope]<--[HERE]",
        "Feedback: general strings",
    ),
    (
        "kill @e[type=item_frame,type=marker]",
        "Option 'type' isn't applicable here...tem_frame,type=marker]<--[HERE]",
        "EntitySelectorOptions type applicability",
    ),
    (
        "kill @e[limit=0]",
        "Limit must be at least 1... @e[limit=0]<--[HERE]",
        "lang argument.entity.options.limit.toosmall",
    ),
    (
        "kill @e[distance=-1]",
        "Distance cannot be negative...[distance=-1]<--[HERE]",
        "lang argument.entity.options.distance.negative",
    ),
    ("kill @e[tag=a", "Expected end of options...l @e[tag=a<--[HERE]", "parseOptions"),
    ("kill @e[tag]", "Expected value for option 'tag'kill @e[tag]<--[HERE]", "parseOptions"),
    (
        "kill @s[limit=2]",
        "Option 'limit' isn't applicable herekill @s[limit=2]<--[HERE]",
        "limit not for @s",
    ),
    (
        "data get entity @e[type=minecraft:marker] data",
        "Only one entity is allowed, but the provided selector allows more than one"
        "data get entity @e[type=minecraft:marker] data<--[HERE]",
        "Single-entity arguments (cursor reset to 0)",
    ),
    (
        "execute as @e run data get entity @e foo",
        "Only one entity is allowed, but the provided selector allows more than one"
        "execute as @e run data get entity @e foo<--[HERE]",
        "Single-entity arguments (whole command)",
    ),
    (
        'title @e title "x"',
        "Only players may be affected by this command, but the provided selector includes entities"
        'title @e title "x"<--[HERE]',
        "lang argument.player.entities",
    ),
    ("kill", "An entity is required to run this command here", "The RCON command source"),
    ("kill @s", "No entity was found", "The RCON command source (@s matches nothing)"),
    ("kill nobody", "No entity was found", "Feedback: kill"),
    (
        "kill averyveryverylongname",
        "Invalid name or UUIDkill averyveryverylongname<--[HERE]",
        "lang argument.entity.invalid",
    ),
]


def test_selector_parse_and_run_errors() -> None:
    game = Game()
    check_rows(game, PARSE_ROWS)


def marker_world() -> Game:
    game = Game()
    game.execute("forceload add -40 -40 40 40")
    return game


def test_selector_options_against_rows() -> None:
    game = marker_world()
    game.execute('summon minecraft:marker 1 64 1 {UUID:[I;0,0,0,1],Tags:["a","b"],CustomName:"m1"}')
    game.execute('summon minecraft:marker 5 64 1 {UUID:[I;0,0,0,2],Tags:["a"]}')
    game.execute("summon minecraft:armor_stand 9 64 1 {UUID:[I;0,0,0,3]}")
    game.execute("scoreboard objectives add s dummy")
    game.execute("scoreboard players set 00000000-0000-0000-0000-000000000002 s 5")
    rows = [
        ("execute if entity @e[tag=a]", "Test passed. Count: 2", "Feedback: execute"),
        ("execute if entity @e[tag=a,tag=!b]", "Test passed. Count: 1", "tag negation"),
        ("execute if entity @e[tag=]", "Test passed. Count: 1", "tag= empty: no tags"),
        ("execute if entity @e[tag=!]", "Test passed. Count: 2", "tag=! : has tags"),
        ("execute if entity @e[type=!marker]", "Test passed. Count: 1", "type negation"),
        ("execute if entity @e[type=minecraft:marker]", "Test passed. Count: 2", "namespaced"),
        ('execute if entity @e[name="m1"]', "Test passed. Count: 1", "name"),
        ("execute if entity @e[name=!m1]", "Test passed. Count: 2", "name negation"),
        ("execute if entity @e[scores={s=5}]", "Test passed. Count: 1", "scores"),
        ("execute if entity @e[scores={s=6..}]", "Test failed", "scores range"),
        ("execute if entity @e[x=1,y=64,z=1,distance=..4.6]", "Test passed. Count: 2", "distance"),
        ("execute if entity @e[x=1,y=64,z=1,distance=4.5..]", "Test passed. Count: 2", "distance"),
        ("execute if entity @e[x=0,y=63,z=0,dx=5,dy=2,dz=2]", "Test passed. Count: 2", "dx box"),
        ("execute if entity @e[limit=2]", "Test passed. Count: 2", "limit"),
        (
            "execute as @e[x=10,y=64,z=1,sort=nearest,limit=1,type=marker] run"
            " data get entity @s UUID",
            "Marker has the following entity data: [I; 0, 0, 0, 2]",
            "sort=nearest",
        ),
        (
            "execute as @e[x=10,y=64,z=1,sort=furthest,limit=1] run data get entity @s UUID",
            "m1 has the following entity data: [I; 0, 0, 0, 1]",
            "sort=furthest",
        ),
        (
            'execute as @e[nbt={Tags:["b"]}] run data get entity @s CustomName',
            'm1 has the following entity data: "m1"',
            "nbt= with partial list",
        ),
        (
            "execute if entity @e[nbt={UUID:[I;0,0,0,2]}]",
            "Test passed. Count: 1",
            "nbt= with an int array (Tag.equals)",
        ),
        ("execute if entity @e[nbt={Tags:[]}]", "Test failed", "empty Tags are not saved"),
        (
            "scoreboard players get @e[tag=a,tag=!b,limit=1] s",
            "Marker has 5 [s]",
            "Feedback: scoreboard (score holder by entity)",
        ),
    ]
    check_rows(game, rows)


positions = st.lists(
    st.tuples(
        st.integers(-30, 30), st.integers(60, 70), st.integers(-30, 30), st.sampled_from("abc")
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(
    positions,
    st.tuples(st.integers(-30, 30), st.integers(60, 70), st.integers(-30, 30)),
    st.floats(0.0, 20.0).map(lambda f: round(f, 1)),
    st.sampled_from("abc"),
)
def test_distance_and_tag_selection_matches_an_oracle(
    ents: list[tuple[int, int, int, str]], centre: tuple[int, int, int], radius: float, tag: str
) -> None:
    game = marker_world()
    for k, (x, y, z, t) in enumerate(ents):
        game.execute(f'summon minecraft:marker {x} {y} {z} {{UUID:[I;0,0,0,{k + 1}],Tags:["{t}"]}}')
    cx, cy, cz = centre
    expected = sum(
        1
        for x, y, z, t in ents
        if t == tag and math.dist((x + 0.5, y, z + 0.5), (cx, cy, cz)) <= radius
    )
    got = reply(game, f"execute if entity @e[x={cx},y={cy},z={cz},distance=..{radius},tag={tag}]")
    assert got == (f"Test passed. Count: {expected}" if expected else "Test failed")


@settings(max_examples=40, deadline=None)
@given(
    positions,
    st.tuples(st.integers(-30, 30), st.integers(60, 70), st.integers(-30, 30)),
    st.tuples(st.integers(-10, 10), st.integers(-5, 5), st.integers(-10, 10)),
)
def test_volume_selection_matches_an_oracle(
    ents: list[tuple[int, int, int, str]],
    corner: tuple[int, int, int],
    delta: tuple[int, int, int],
) -> None:
    game = marker_world()
    for k, (x, y, z, _t) in enumerate(ents):
        game.execute(f"summon minecraft:marker {x} {y} {z} {{UUID:[I;0,0,0,{k + 1}]}}")
    lo = [corner[i] + min(delta[i], 0) for i in range(3)]
    hi = [corner[i] + max(delta[i], 0) + 1 for i in range(3)]
    # a marker has a zero-size box at its position: strictly inside the volume (AABB.intersects)
    expected = sum(
        1
        for x, y, z, _t in ents
        if lo[0] < x + 0.5 < hi[0] and lo[1] < y < hi[1] and lo[2] < z + 0.5 < hi[2]
    )
    cx, cy, cz = corner
    dx, dy, dz = delta
    got = reply(game, f"execute if entity @e[x={cx},y={cy},z={cz},dx={dx},dy={dy},dz={dz}]")
    assert got == (f"Test passed. Count: {expected}" if expected else "Test failed")
