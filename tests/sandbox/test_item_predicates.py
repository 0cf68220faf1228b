"""`execute if items` item predicates: alternatives `|`, negation `!`, conditions `,`.

Sources: docs/server-behaviour.md, "Item predicates" (ComponentPredicateParser and
ItemPredicateArgument of 26.1, read from the code: derived, not run on a live server) and
"execute if items, scores and game time".
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.sandbox.game import Game
from tests.support.sandbox_game import check_rows

IF = "execute if items entity @e[type=minecraft:item_frame,tag=f] contents "
UNLESS = "execute unless items entity @e[type=minecraft:item_frame,tag=f] contents "
MAP = "minecraft:filled_map"


def frame(x: int, item: str) -> str:
    return f'summon minecraft:item_frame {x} 64 2 {{Facing:1b,Tags:["f"]{item}}}'


def map_item(map_id: str) -> str:
    return f',Item:{{id:"{MAP}",count:1,components:{{"minecraft:map_id":{map_id}}}}}'


def game_with(*items: str) -> Game:
    game = Game()
    game.execute("forceload add 0 0")
    game.tick()
    for x, item in enumerate(items):
        assert game.execute(frame(x, item)) == ["Summoned new Item Frame"]
    return game


def test_alternatives_negation_and_conditions() -> None:
    game = game_with(map_item("6"))
    rows = [
        (IF + f"{MAP}[minecraft:map_id=5|minecraft:map_id=6]", "Test passed. Count: 1", "|"),
        (IF + f"{MAP}[minecraft:map_id=5]", "Test failed", "exact value"),
        (IF + f"{MAP}[!minecraft:map_id=5]", "Test passed. Count: 1", "!"),
        (IF + f"{MAP}[!minecraft:map_id=6]", "Test failed", "!"),
        (IF + f"{MAP}[minecraft:map_id=6,minecraft:map_id=5]", "Test failed", ", is AND"),
        (IF + f"{MAP}[minecraft:map_id=6,!minecraft:map_id=5]", "Test passed. Count: 1", ","),
        (
            IF + f"{MAP}[minecraft:map_id=5|minecraft:map_id=6,"
            "minecraft:map_id=7|!minecraft:map_id=8]",
            "Test passed. Count: 1",
            ", of |",
        ),
        (
            IF + f"{MAP}[minecraft:map_id=5|minecraft:map_id=7,minecraft:map_id=6]",
            "Test failed",
            ", of |",
        ),
        (
            IF + f"{MAP}[minecraft:map_id=5|minecraft:map_id=6|minecraft:map_id=7]",
            "Test passed. Count: 1",
            "the form pipesctl sends",
        ),
        (UNLESS + f"{MAP}[minecraft:map_id=5|minecraft:map_id=7]", "Test passed", "unless"),
        (UNLESS + f"{MAP}[!minecraft:map_id=7]", "Test failed. Count: 1", "unless"),
        (IF + f"{MAP}[map_id=6]", "Test passed. Count: 1", "the namespace is optional"),
        (IF + f"{MAP}[]", "Test passed. Count: 1", "no conditions"),
    ]
    check_rows(game, rows)


def test_presence_and_several_frames() -> None:
    game = game_with(map_item("6"), map_item("7b"), "", ',Item:{id:"minecraft:map",count:1}')
    rows = [
        (IF + "*[minecraft:map_id]", "Test passed. Count: 2", "bare component: present"),
        (IF + "*[!minecraft:map_id]", "Test passed. Count: 1", "an empty frame adds nothing"),
        (IF + "*", "Test passed. Count: 3", "Item predicates"),
        (IF + f"{MAP}[minecraft:map_id=7]", "Test passed. Count: 1", "7b read with Codec.INT"),
        (IF + f"{MAP}[minecraft:map_id=6|minecraft:map_id=7]", "Test passed. Count: 2", "|"),
        (IF + f"{MAP}[!minecraft:map_id=6]", "Test passed. Count: 1", "!"),
        (IF + "*[!minecraft:map_id=6]", "Test passed. Count: 2", "! on another item"),
        (IF + "*[minecraft:count]", "Test passed. Count: 3", "the count pseudo component"),
    ]
    check_rows(game, rows)


def test_whitespace_and_number_forms() -> None:
    """Every terminal, id and value skips whitespace; values are SNBT numbers (derived)."""
    game = game_with(map_item("6"))
    rows = [
        (
            IF + f"{MAP}[ minecraft:map_id = 5 | ! minecraft:map_id=7 ]",
            "Test passed. Count: 1",
            "whitespace",
        ),
        (IF + f"{MAP} [minecraft:map_id=6]", "Test passed. Count: 1", "whitespace before ["),
        (IF + f"{MAP}[minecraft:map_id=6b]", "Test passed. Count: 1", "a byte"),
        (IF + f"{MAP}[minecraft:map_id=6.9]", "Test passed. Count: 1", "(int) 6.9 is 6"),
        (IF + f"{MAP}[minecraft:map_id=0x6]", "Test passed. Count: 1", "hexadecimal SNBT"),
    ]
    check_rows(game, rows)


def test_errors() -> None:
    game = game_with(map_item("6"))
    rows = [
        (
            IF + f"{MAP}[minecraft:map_id=5|]",
            "Invalid ID...:map_id=5|]<--[HERE]",
            "nothing after |",
        ),
        (
            IF + f"{MAP}[minecraft:map_id=5,]",
            "Invalid ID...:map_id=5,]<--[HERE]",
            "nothing after ,",
        ),
        (IF + f"{MAP}[!]", "Invalid ID...lled_map[!]<--[HERE]", "nothing after !"),
        (
            IF + f"{MAP}[minecraft:map_id=6",
            "Expected literal |...t:map_id=6<--[HERE]",
            "unclosed",
        ),
        (
            IF + f"{MAP}[minecraft:nope=5]",
            "Unknown item component 'minecraft:nope'...craft:nope=5]<--[HERE]",
            "lang arguments.item.component.unknown",
        ),
        (
            IF + "minecraft:nope",
            "Unknown item 'minecraft:nope'...craft:nope<--[HERE]",
            "lang argument.item.id.invalid",
        ),
        (
            IF + f'{MAP}[minecraft:map_id="6"]',
            "Malformed 'minecraft:map_id' component: 'Not a number'...map_id=\"6\"]<--[HERE]",
            "lang arguments.item.component.malformed",
        ),
        (
            IF + f"{MAP}[minecraft:creative_slot_lock]",
            "Expected literal ~..._slot_lock]<--[HERE]",
            "a component without codec",
        ),
        (
            IF + f"{MAP}[minecraft:map_id=6]x",
            "Expected whitespace to end one argument, but found trailing data"
            "...:map_id=6]x<--[HERE]",
            "Feedback: general strings (command.expected.separator)",
        ),
    ]
    check_rows(game, rows)


def test_what_the_sandbox_does_not_model_is_refused() -> None:
    """Refusals of the sandbox, not vanilla messages (vanilla accepts these: unverified)."""
    game = game_with(map_item("6"))
    rows = [
        (
            IF + f"{MAP}[minecraft:custom_name=5]",
            "Sandbox: the component test 'minecraft:custom_name=…' in an item predicate is not"
            " modelled (unverified)...illed_map[minecraft:custom_name=5]<--[HERE]",
            "unmodelled component",
        ),
        (
            IF + f"{MAP}[minecraft:map_id=6|minecraft:damage]",
            "Sandbox: the component test 'minecraft:damage' in an item predicate is not"
            " modelled (unverified)...:map_id=6|minecraft:damage]<--[HERE]",
            "unmodelled presence test",
        ),
        (
            IF + f"{MAP}[minecraft:damage~{{}}]",
            "Sandbox: the predicate test 'minecraft:damage~…' in an item predicate is not"
            " modelled (unverified)...illed_map[minecraft:damage~{}]<--[HERE]",
            "unmodelled ~ test",
        ),
        (
            IF + "#minecraft:boats",
            "Sandbox: the item tag '#minecraft:boats' in an item predicate is not modelled"
            " (unverified)... contents #minecraft:boats<--[HERE]",
            "unmodelled item tag",
        ),
    ]
    check_rows(game, rows)


@given(st.integers(-(2**31), 2**31 - 1), st.sampled_from(["", "]", "|", ",", " ]"]))
def test_the_plain_int_fast_path_reads_what_the_snbt_parser_reads(value: int, after: str) -> None:
    from controller.nbt import snbt
    from controller.sandbox import itempredicate
    from controller.sandbox.reader import StringReader

    text = f"{value}{after}"
    match = itempredicate._PLAIN_INT.match(text)
    reader = StringReader(text, 0)
    parsed = snbt.parse_tag(reader)
    assert match is not None and match.end() == reader.cursor
    assert int(match.group()) == int(parsed) and type(parsed).__name__ == "Int"


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.sampled_from(["5", "6", "7", "empty", "merge 7", "kill"])),
        max_size=12,
    )
)
def test_a_count_follows_every_change_of_the_frames_pictures(
    changes: list[tuple[int, str]],
) -> None:
    """A frame's count is remembered while it holds the same stack (`count_held`): every way a
    picture changes (a new item, an emptied frame, a merge, a frame gone) shows in the next
    count, each predicate counted on its own."""
    game = game_with()
    for x in range(4):
        summon = frame(x, map_item("5")).replace('["f"]', f'["f","f{x}"]')
        assert game.execute(summon) == ["Summoned new Item Frame"]
    shown: list[str | None] = ["5"] * 4
    wanted = {"5 or 7": {"5", "7"}, "6": {"6"}}
    predicates = {
        "5 or 7": IF + f"{MAP}[minecraft:map_id=5|minecraft:map_id=7]",
        "6": IF + f"{MAP}[minecraft:map_id=6]",
    }

    def check() -> None:
        for name, command in predicates.items():
            n = sum(1 for shows in shown if shows in wanted[name])
            assert game.execute(command) == [f"Test passed. Count: {n}" if n else "Test failed"]

    check()
    for x, change in changes:
        target = f"@e[type=minecraft:item_frame,tag=f{x},limit=1]"
        if change == "kill":
            game.execute(f"kill {target}")
            shown[x] = None
        elif change == "empty":
            game.execute(f"data remove entity {target} Item")
            shown[x] = None if shown[x] is None else "empty"
        elif change == "merge 7":
            stack = map_item("7").removeprefix(",Item:")
            if shown[x] is not None:
                game.execute(f"data merge entity {target} {{Item:{stack}}}")
                shown[x] = "7"
        else:
            stack = map_item(change).removeprefix(",Item:")
            if shown[x] is not None:
                game.execute(f"data modify entity {target} Item set value {stack}")
                shown[x] = change
        check()
