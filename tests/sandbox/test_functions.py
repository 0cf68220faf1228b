"""Sandbox functions: `function` results, `return`, macros, `#minecraft:load` / `#minecraft:tick`.

Each test cites its section of docs/sandbox-datapacks.md (§4 functions, §4a return and results,
§4b macros, §4c load and tick).
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterator

import pytest

from controller.nbt.snbt import parse_tag_fully
from controller.sandbox import Sandbox
from controller.sandbox.game import Game
from controller.sandbox.packmanager import macro_value
from tests.support.sandbox_game import check_rows, reply

PACK_META = json.dumps({"pack": {"description": "test", "min_format": [101, 1],
                                 "max_format": 101}}).encode()  # fmt: skip

FUNCTIONS = {
    # returns 5; the line after `return` is discarded
    "ret5": "say hi\nscoreboard objectives add inside dummy\nreturn 5\n"
    "scoreboard objectives add after_ret5 dummy\n",
    "noret": "scoreboard players add #calls obj 1\n",
    "fail": "return fail\nscoreboard objectives add after_fail dummy\n",
    "run_ok": "return run scoreboard players add #a obj 3\n"
    "scoreboard objectives add after_run_ok dummy\n",
    "run_fail": "return run scoreboard players add #a missing 1\n"
    "scoreboard objectives add after_run_fail dummy\n",
    "run_nobody": "execute if entity @a[tag=nobody] run "
    "return run scoreboard players add #a obj 1\nreturn 7\n",
    "if_return": "execute if entity @a[tag=nobody] run return 0\nreturn 3\n",
    "return_run_empty": "return run execute if entity @a[tag=nobody] run say hi\n"
    "scoreboard objectives add after_empty dummy\n",
    "nested": "return run function t:ret5\nscoreboard objectives add after_nested dummy\n",
    "nested_noret": "return run function t:noret\n"
    "scoreboard objectives add after_nested_noret dummy\n",
    "plain_call": "function t:ret5\nreturn 9\n",
    "if_score": "execute if score #a obj matches 1.. run return 1\n"
    "execute unless score #a obj matches 1.. run return 2\n",
    "store_inside": "execute store result score #in obj run function t:ret5\nreturn 1\n",
    "each_noret": "return run execute as @a run function t:noret\n",
    "each_ret": "execute as @a run function t:ret5\nreturn 8\n",
    "macro": "$scoreboard players set #m obj $(v)\n$return $(r)\n",
    "ret0": "return 0\n",
    "macro_mixed": "scoreboard players add #mixed obj 1\n$scoreboard players set #m obj $(v)\n",
}


def write_pack(folder: pathlib.Path, files: dict[str, str | bytes]) -> None:
    """Write a pack's files under `folder`."""
    for rel, data in files.items():
        f = folder / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(data.encode() if isinstance(data, str) else data)


def write_t_pack(folder: pathlib.Path) -> None:
    """The `t` pack: FUNCTIONS, a tag of two, and a load function creating `obj`."""
    files: dict[str, str | bytes] = {"pack.mcmeta": PACK_META}
    for name, body in FUNCTIONS.items():
        files[f"data/t/function/{name}.mcfunction"] = body
    files["data/t/function/setup.mcfunction"] = "scoreboard objectives add obj dummy\n"
    files["data/t/tags/function/two.json"] = '{"values": ["t:ret5", "t:noret"]}'
    files["data/t/tags/function/noret_first.json"] = '{"values": ["t:noret", "t:fail", "t:ret5"]}'
    files["data/t/tags/function/empty.json"] = '{"values": []}'
    files["data/t/tags/function/macro_after.json"] = '{"values": ["t:noret", "t:macro", "t:ret5"]}'
    files["data/t/tags/function/macro_first.json"] = '{"values": ["t:macro", "t:ret5"]}'
    files["data/minecraft/tags/function/load.json"] = '{"values": ["t:setup"]}'
    write_pack(folder, files)


@pytest.fixture
def game(tmp_path: pathlib.Path) -> Game:
    """A started game with the `t` pack; the first tick ran `#minecraft:load`."""
    d = tmp_path / "datapacks"
    write_t_pack(d / "t")
    g = Game()
    g.configure_datapacks(d)
    g.tick()
    return g


def score(game: Game, holder: str, objective: str = "obj") -> int | None:
    """A holder's score, None when unset."""
    return game.world.scores.get(holder, {}).get(objective)


def objectives(game: Game) -> set[str]:
    """The objective names."""
    return set(game.world.objectives)


# ---------------------------------------------------------------------------- §4a results
def test_function_results_byte_for_byte(game: Game) -> None:
    """§4a: `Running function`, then `Function X returned N` only when the function returns."""
    rows = [
        (
            "function t:if_score",
            "Running function t:if_scoreFunction t:if_score returned 2",
            "§4a `if score` fails and `unless score` passes on an unset score",
        ),
        ("function t:ret5", "Running function t:ret5Function t:ret5 returned 5", "§4a return"),
        ("function t:noret", "Running function t:noret", "§4a no return, no result"),
        ("function t:fail", "Running function t:failFunction t:fail returned 0", "§4a fail"),
        (
            "function t:run_ok",
            "Running function t:run_okFunction t:run_ok returned 3",
            "§4a return run: the command's result",
        ),
        (
            "function t:run_fail",
            "Running function t:run_failFunction t:run_fail returned 0",
            "§4a return run of a failing command returns 0",
        ),
        (
            "function t:run_nobody",
            "Running function t:run_nobodyFunction t:run_nobody returned 7",
            "§4a no source reaches `return run`: the function goes on",
        ),
        (
            "function t:if_return",
            "Running function t:if_returnFunction t:if_return returned 3",
            "§4a `execute if … run return 0` with a failing condition",
        ),
        (
            "function t:return_run_empty",
            "Running function t:return_run_emptyFunction t:return_run_empty returned 0",
            "§4a `return run` whose command runs for nobody: FallthroughTask",
        ),
        (
            "function t:nested",
            "Running function t:nestedFunction t:nested returned 5",
            "§4a return run function: the callee's value, its messages silent",
        ),
        (
            "function t:nested_noret",
            "Running function t:nested_noretFunction t:nested_noret returned 0",
            "§4a return run function without return: failure",
        ),
        (
            "function t:plain_call",
            "Running function t:plain_callFunction t:plain_call returned 9",
            "§4a a plain call's return ends only the callee",
        ),
        (
            "function #t:two",
            "Running functions t:ret5, t:noretFunction t:ret5 returned 5",
            "§4a a tag: one result per returning function",
        ),
        ("return 1", "", "§4a top-level return prints nothing"),
        ("return fail", "", "§4a"),
    ]
    check_rows(game, rows)
    # the rest of each function after its return was discarded, the lines before it ran
    assert "inside" in objectives(game)
    for name in ("after_ret5", "after_fail", "after_run_ok", "after_run_fail", "after_empty",
                 "after_nested", "after_nested_noret"):  # fmt: skip
        assert name not in objectives(game), name
    assert score(game, "#a") == 3  # run_ok added 3; run_fail and run_nobody added nothing
    assert score(game, "#calls") == 3  # the direct call, nested_noret and the tag
    assert reply(game, "function t:if_score") == (
        "Running function t:if_scoreFunction t:if_score returned 1"  # #a is 3 now
    )


def test_store_result_of_function(game: Game) -> None:
    """§4a: `execute store` gets the return value; a function without return stores nothing."""
    rows = [
        ("scoreboard players set #s obj 42", "Set [obj] for #s to 42", "scoreboard"),
        (
            "execute store result score #s obj run function t:noret",
            "Running function t:noret",
            "§4a",
        ),
        (
            "execute store result score #r obj run function t:ret5",
            "Running function t:ret5Function t:ret5 returned 5",
            "§4a",
        ),
        ("execute store result score #t obj run return 4", "", "§4a return feeds the callback"),
        ("execute store success score #f obj run return fail", "", "§4a"),
        (
            "execute store result score #in2 obj run function t:store_inside",
            "Running function t:store_insideFunction t:store_inside returned 1",
            "§4a a call inside a function stores silently",
        ),
    ]
    check_rows(game, rows)
    assert score(game, "#s") == 42
    assert score(game, "#r") == 5
    assert score(game, "#t") == 4
    assert score(game, "#f") == 0
    assert score(game, "#in") == 5
    assert score(game, "#in2") == 1


def test_feedback_inside_functions_stays_suppressed(game: Game) -> None:
    """§4: nothing a function's lines print reaches RCON, nested calls included."""
    assert reply(game, "function t:plain_call") == (
        "Running function t:plain_callFunction t:plain_call returned 9"
    )
    # `say hi` and the nested "Running function t:ret5" went nowhere; the objective exists
    assert "inside" in objectives(game)
    assert reply(game, "scoreboard objectives add inside dummy") == (
        "An objective already exists by that name"
    )


def test_execute_as_several_sources_queues_calls(game: Game) -> None:
    """§4a: every source's `Running function` comes first, then the calls and their results."""
    game.join("Alex", (0.5, 64.0, 0.5))
    game.join("Steve", (2.5, 64.0, 0.5))
    assert reply(game, "execute as @a run function t:ret5") == (
        "Running function t:ret5Running function t:ret5"
        "Function t:ret5 returned 5Function t:ret5 returned 5"
    )
    # plain calls: each callee's return ends only itself
    assert (
        reply(game, "function t:each_ret")
        == "Running function t:each_retFunction t:each_ret returned 8"
    )
    # inside `return run` the first callee's fallthrough ends the caller: the second call is
    # dropped from the queue
    assert reply(game, "function t:each_noret") == (
        "Running function t:each_noretFunction t:each_noret returned 0"
    )
    assert score(game, "#calls") == 1


# ---------------------------------------------------------------------------- §4b macros
def test_macro_calls_and_errors(game: Game) -> None:
    """§4b: arguments substituted; missing arguments and parse errors after substitution."""
    rows = [
        (
            "function t:macro {v:17,r:2}",
            "Running function t:macroFunction t:macro returned 2",
            "§4b",
        ),
        (
            "function t:macro",
            "Running function t:macroFailed to instantiate function t:macro: "
            "Missing arguments to function t:macro",
            "§4b missing_arguments",
        ),
        (
            "function t:macro {v:1}",
            "Running function t:macroFailed to instantiate function t:macro: "
            "Missing argument r to function t:macro",
            "§4b missing_argument (%2$s is the key)",
        ),
        (
            "function t:macro {r:1}",
            "Running function t:macroFailed to instantiate function t:macro: "
            "Missing argument v to function t:macro",
            "§4b the first variable in order of use is reported",
        ),
        (
            "function t:macro {v:abc,r:1}",
            "Running function t:macroFailed to instantiate function t:macro: "
            "While instantiating macro t:macro: Command 'scoreboard players set #m obj abc' "
            "caused error: Expected integer at position 30: ...et #m obj <--[HERE]",
            "§4b parse error after substitution (Brigadier getMessage)",
        ),
        (
            "function t:noret {unused:1}",
            "Running function t:noret",
            "§4b a plain function ignores arguments",
        ),
    ]
    check_rows(game, rows)
    assert score(game, "#m") == 17


def test_macro_plain_lines_do_not_run_when_instantiation_fails(game: Game) -> None:
    """§4b: instantiation fails before any line runs."""
    assert reply(game, "function t:macro_mixed") == (
        "Running function t:macro_mixedFailed to instantiate function t:macro_mixed: "
        "Missing arguments to function t:macro_mixed"
    )
    assert score(game, "#mixed") is None
    assert reply(game, "function t:macro_mixed {v:3b}") == "Running function t:macro_mixed"
    assert (score(game, "#mixed"), score(game, "#m")) == (1, 3)


@pytest.mark.parametrize(
    ("snbt", "text"),
    [
        ("5b", "5"),
        ("-7s", "-7"),
        ("12", "12"),
        ("9000000000L", "9000000000"),
        ("2.0d", "2"),
        ("0.5d", ".5"),
        ("-0.25d", "-.25"),
        ("0.1f", ".100000001490116"),
        ("1.0e20d", "100000000000000000000"),
        ("1.0e-16d", "0"),
        ('"raw text"', "raw text"),
        ("[1,2]", "[1,2]"),
        ("{b:1b,a:'x'}", '{a:"x",b:1b}'),
    ],
)
def test_macro_values_are_stringified_like_vanilla(snbt: str, text: str) -> None:
    """§4b: MacroFunction.stringify (DecimalFormat "#", 15 fraction digits, SNBT otherwise)."""
    assert macro_value(parse_tag_fully(snbt)) == text


def test_function_with_storage_arguments(game: Game) -> None:
    """§4b: `function … with storage|entity … [<path>]`; the path must name a compound."""
    rows = [
        ("data merge storage t:a {args:{v:8,r:4},n:1}", "Modified storage t:a", "data"),
        (
            "function t:macro with storage t:a args",
            "Running function t:macroFunction t:macro returned 4",
            "§4b",
        ),
        (
            "function t:macro with storage t:a n",
            "Invalid argument type: INT. Expected Compound",
            "§4b argument_not_compound (type name unverified)",
        ),
        (
            "function t:macro with storage t:a",
            "Running function t:macroFailed to instantiate function t:macro: "
            "Missing argument v to function t:macro",
            "§4b",
        ),
    ]
    check_rows(game, rows)
    assert score(game, "#m") == 8
    game.join("Alex", (0.5, 64.0, 0.5))
    game.tick()
    reply(game, "summon minecraft:marker 0 64 0 {Tags:[args],data:{v:6,r:3}}")
    assert reply(game, "function t:macro with entity @e[tag=args,limit=1] data") == (
        "Running function t:macroFunction t:macro returned 3"
    )
    assert score(game, "#m") == 6


# ---------------------------------------------------------------------------- §4c load, tick
def test_load_runs_after_start_and_after_reload(tmp_path: pathlib.Path) -> None:
    """§4c: `#minecraft:load` runs at the first tick after start and after each reload."""
    d = tmp_path / "datapacks"
    write_t_pack(d / "t")
    g = Game()
    g.configure_datapacks(d)
    assert "obj" not in objectives(g)  # not before the first tick
    g.tick()
    assert "obj" in objectives(g)
    assert reply(g, "scoreboard objectives remove obj") == "Removed objective [obj]"
    g.tick()
    assert "obj" not in objectives(g)  # once per load only
    assert reply(g, "reload") == "Reloading!"
    g.tick()
    assert "obj" in objectives(g)


def test_a_function_parsed_once_at_load_runs_alike_at_every_call(tmp_path: pathlib.Path) -> None:
    """§4: a plain line is parsed when the function loads and that parse serves every call
    (`CommandFunction.fromLines`): what a call's entities get from it is theirs (a picture
    changed on one frame is not the next call's), and a reload with new text runs the new
    text."""
    d = tmp_path / "datapacks"
    frame = (
        'summon minecraft:item_frame ~ ~ ~ {Facing:1b,Tags:["made"],'
        'Item:{id:"minecraft:filled_map",count:1,components:{"minecraft:map_id":5}}}\n'
    )
    write_pack(d / "p", {"pack.mcmeta": PACK_META, "data/p/function/put.mcfunction": frame})
    g = Game()
    g.configure_datapacks(d)
    g.tick()
    g.execute("forceload add 0 0")
    g.tick()
    assert g.execute("execute positioned 1 64 1 run function p:put") == ["Running function p:put"]
    first = "@e[type=minecraft:item_frame,tag=made,limit=1]"
    picture = 'Item.components."minecraft:map_id"'
    changed = g.execute(f"data modify entity {first} {picture} set value 9")
    assert changed == ["Modified entity data of Item Frame"]
    g.execute("tag @e[tag=made] add old")
    g.execute("execute positioned 3 64 1 run function p:put")
    new = "@e[type=minecraft:item_frame,tag=made,tag=!old]"
    pictured = f"execute if items entity {new} contents minecraft:filled_map[minecraft:map_id=5]"
    assert g.execute(pictured) == ["Test passed. Count: 1"]
    (d / "p/data/p/function/put.mcfunction").write_text("scoreboard objectives add put dummy\n")
    assert g.execute("reload") == ["Reloading!"]
    g.tick()
    g.execute("function p:put")
    assert "put" in objectives(g)


def test_tick_functions_run_every_tick(tmp_path: pathlib.Path) -> None:
    """§4c: `#minecraft:tick` functions run every tick, after load, silently; macros skipped."""
    d = tmp_path / "datapacks"
    write_t_pack(d / "t")
    write_pack(d / "ticker", {
        "pack.mcmeta": PACK_META,
        "data/k/function/tick.mcfunction": "scoreboard players add #ticks obj 1\nsay tick\n",
        "data/k/function/macro.mcfunction": "$scoreboard players set #never obj $(v)\n",
        "data/minecraft/tags/function/tick.json": '{"values": ["k:tick", "k:macro"]}',
    })  # fmt: skip
    g = Game()
    g.configure_datapacks(d)
    for _ in range(3):
        g.tick()
    assert score(g, "#ticks") == 3  # load created obj before the first tick function ran
    assert score(g, "#never") is None
    assert reply(g, "scoreboard players get #ticks obj") == "#ticks has 3 [obj]"


def test_load_over_rcon_after_installing(tmp_path: pathlib.Path) -> None:
    """§4c through RCON: a pack written into datapack_dir, `reload`, load ran at the next tick."""
    from mcrcon import MCRcon

    with Sandbox(world_dir=tmp_path / "world") as sb:
        assert sb.datapack_dir is not None
        write_t_pack(sb.datapack_dir / "t")
        with MCRcon(sb.host, sb.password, sb.port) as rcon:
            assert rcon.command("reload") == "Reloading!"
            sb.tick(1)
            assert rcon.command("scoreboard objectives add obj dummy") == (
                "An objective already exists by that name"
            )
            assert rcon.command("function t:macro {v:17,r:1}") == (
                "Running function t:macroFunction t:macro returned 1"
            )


# ---------------------------------------------------------------------------- pipes:done
PIPES_DONE = """# pipes:done
execute store result score #near pipes.clicks if entity @e[tag=pipes,tag=pipes.near]
$execute unless score #clicks pipes.clicks matches $(clicks) run return 0
$execute unless score #near pipes.clicks matches $(frames) run scoreboard players add #clicks pipes.clicks 1
$execute unless score #near pipes.clicks matches $(frames) run return 0
tag @e[tag=pipes,tag=pipes.near] remove pipes.near
tag @a[tag=pipes.clicked] remove pipes.clicked
return 1
"""  # noqa: E501


@pytest.fixture
def pipes(tmp_path: pathlib.Path) -> Iterator[Sandbox]:
    """A sandbox whose world holds a pack with pipes:done and a load function."""
    world = tmp_path / "world"
    write_pack(world / "datapacks" / "done", {
        "pack.mcmeta": PACK_META,
        "data/pipes/function/done.mcfunction": PIPES_DONE,
        "data/pipes/function/load.mcfunction": "scoreboard objectives add pipes.clicks dummy\n",
        "data/minecraft/tags/function/load.json": '{"values": ["pipes:load"]}',
    })  # fmt: skip
    with Sandbox(world_dir=world) as sb:
        sb.join("Alex", (0.5, 64.0, 0.5))  # keeps the chunk at the origin loaded
        sb.tick(2)
        yield sb


def _marker(tags: str) -> str:
    return f"summon minecraft:marker 0 64 0 {{Tags:[{tags}]}}"


def test_pipes_done(pipes: Sandbox) -> None:
    """The companion pack's pipes:done over RCON: every path byte for byte."""
    from mcrcon import MCRcon

    def scores() -> dict[str, int]:
        return pipes.call(lambda g: dict(g.world.scores.get("#clicks", {})))

    def tagged(tag: str) -> int:
        return pipes.call(lambda g: sum(tag in e.tags for e in g.world.entities.values()))

    with MCRcon(pipes.host, pipes.password, pipes.port) as rcon:
        # #clicks has no score: `unless score … matches 0` passes, the function returns 0
        assert rcon.command("function pipes:done {clicks:0,frames:0}") == (
            "Running function pipes:doneFunction pipes:done returned 0"
        )
        assert scores() == {}
        for _ in range(2):
            rcon.command(_marker('"pipes","pipes.near"'))
        rcon.command(_marker('"pipes"'))
        rcon.command("tag Alex add pipes.clicked")
        rcon.command("scoreboard players set #clicks pipes.clicks 17")
        # clicks differ: returns 0, nothing removed, #clicks unchanged
        assert rcon.command("function pipes:done {clicks:16,frames:2}") == (
            "Running function pipes:doneFunction pipes:done returned 0"
        )
        assert (scores(), tagged("pipes.near"), tagged("pipes.clicked")) == (
            {"pipes.clicks": 17},
            2,
            1,
        )
        # frames differ: #clicks incremented, returns 0, nothing removed
        assert rcon.command("function pipes:done {clicks:17,frames:5}") == (
            "Running function pipes:doneFunction pipes:done returned 0"
        )
        assert (scores(), tagged("pipes.near")) == ({"pipes.clicks": 18}, 2)
        assert rcon.command("scoreboard players get #near pipes.clicks") == (
            "#near has 2 [pipes.clicks]"
        )
        # both match: tags removed, returns 1
        assert rcon.command("function pipes:done {clicks:18,frames:2}") == (
            "Running function pipes:doneFunction pipes:done returned 1"
        )
        assert (scores(), tagged("pipes.near"), tagged("pipes")) == ({"pipes.clicks": 18}, 0, 3)
        assert tagged("pipes.clicked") == 0
        # nothing near now: the stored count is 0, not left at 2
        assert rcon.command("function pipes:done {clicks:18,frames:0}") == (
            "Running function pipes:doneFunction pipes:done returned 1"
        )
        assert rcon.command("scoreboard players get #near pipes.clicks") == (
            "#near has 0 [pipes.clicks]"
        )
        assert rcon.command("function pipes:done") == (
            "Running function pipes:doneFailed to instantiate function pipes:done: "
            "Missing arguments to function pipes:done"
        )
        assert rcon.command("function pipes:done {frames:1}") == (
            "Running function pipes:doneFailed to instantiate function pipes:done: "
            "Missing argument clicks to function pipes:done"
        )


def test_store_result_if_entity_counts(game: Game) -> None:
    """§4 (execute): `store result score … if entity` stores the count, 0 when none match."""
    game.join("Alex", (0.5, 64.0, 0.5))
    rows = [
        ("execute store result score #n obj if entity @a", "Test passed. Count: 1", "execute"),
        ("execute store result score #z obj if entity @a[tag=none]", "Test failed", "execute"),
    ]
    check_rows(game, rows)
    assert (score(game, "#n"), score(game, "#z")) == (1, 0)


# ------------------------------------------------------------------ §4d execute if function


def test_execute_if_function_tests_the_result_silently(game: Game) -> None:
    """§4d: the function runs silently; `if` goes on for a non-zero result, `unless` for zero or
    no `return`; an unknown function, or an error after the fork, prints nothing; the node is
    never the last one."""
    rows = [
        ("execute if function t:ret5 run scoreboard players set #p obj 1", "Set [obj] for #p to 1",
         "§4d returned 5"),
        ("execute unless function t:ret5 run scoreboard players set #q obj 1", "", "§4d"),
        ("execute if function t:fail run scoreboard players set #q obj 1", "", "§4d return fail"),
        ("execute unless function t:noret run scoreboard players set #u obj 2",
         "Set [obj] for #u to 2", "§4d no return: failure"),
        ("execute if function t:nothing run scoreboard players set #q obj 1", "",
         "§4d unknown: forked, silent"),
        ("execute if function #t:two run scoreboard players set #w obj 3", "Set [obj] for #w to 3",
         "§4d the tag's first return"),
        ("execute if function t:ret5 run scoreboard players get #none obj", "",
         "§4d an error after the fork is silent"),
        ("execute if function t:ret5", "Unknown or incomplete command. See below for error"
         "...ion t:ret5<--[HERE]", "§4d a fork only"),
    ]  # fmt: skip
    check_rows(game, rows)
    assert score(game, "#p") == 1 and score(game, "#q") is None
    assert score(game, "#calls") == 1  # t:noret ran for `unless`; the tag stopped at t:ret5
    assert "inside" in objectives(game)


# ---------------------------------------------------------------------------- execute if function
def test_execute_if_function(game: Game) -> None:
    """docs/server-behaviour.md, "execute if function": the functions run silently for each
    source; the first `return` decides (not 0 passes `if`), no `return` is 0; the node forks,
    so errors are silent; the command needs a `run` (or more conditions) after it."""
    set_p = "Set [obj] for #p to 1"
    rows = [
        ("execute if function t:ret5 run scoreboard players set #p obj 1", set_p, "return 5"),
        ("execute unless function t:ret5 run scoreboard players set #p obj 1", "", "return 5"),
        ("execute if function t:ret0 run scoreboard players set #p obj 1", "", "return 0"),
        ("execute unless function t:ret0 run scoreboard players set #p obj 1", set_p, "return 0"),
        ("execute if function t:fail run scoreboard players set #p obj 1", "", "return fail"),
        ("execute unless function t:fail run scoreboard players set #p obj 1", set_p, "fail"),
        ("execute if function t:noret run scoreboard players set #p obj 1", "", "Fallthrough"),
        ("execute unless function t:noret run scoreboard players set #p obj 1", set_p, "no return"),
        ("execute if function t:run_ok run scoreboard players set #p obj 1", set_p, "return run"),
        ("execute if function #t:two run scoreboard players set #p obj 1", set_p, "first return"),
        ("execute if function #t:empty run scoreboard players set #p obj 1", "", "no functions"),
        ("execute if function t:nope run scoreboard players set #p obj 1", "", "forked: silent"),
        ("execute if function #t:nope run scoreboard players set #p obj 1", "", "forked: silent"),
        (
            "execute if function t:ret5 if function t:ret5 run scoreboard players set #p obj 1",
            set_p,
            "conditions chain",
        ),  # fmt: skip
        (
            "execute if function t:ret5",
            "Unknown or incomplete command. See below for error...ion t:ret5<--[HERE]",
            "no command after the condition",
        ),
    ]
    check_rows(game, rows)
    # the functions ran (their side effects stay), their own feedback did not reach the reply
    assert "inside" in objectives(game)
    assert "after_ret5" not in objectives(game)


def test_execute_if_function_stops_at_the_first_return(game: Game) -> None:
    """A `return` in one function of a tag ends the others (the calls share the isolated
    frame); a function without `return` lets the next one run."""
    before = score(game, "#calls") or 0
    assert reply(game, "execute if function #t:two run scoreboard players set #p obj 1")
    assert (score(game, "#calls") or 0) == before  # t:noret came after t:ret5's return
    # noret runs, then fail returns 0: `unless` passes and t:ret5 never runs
    game.execute("scoreboard objectives remove inside")
    got = reply(game, "execute unless function #t:noret_first run scoreboard players set #p obj 1")
    assert got == "Set [obj] for #p to 1"
    assert score(game, "#calls") == before + 1
    assert "inside" not in objectives(game)


def test_execute_if_function_runs_once_per_source(game: Game) -> None:
    game.join("Alex", (0.5, 64.0, 0.5))
    game.join("Steve", (2.5, 64.0, 0.5))
    before = score(game, "#calls") or 0
    reply(game, "execute as @a unless function t:noret run scoreboard players add #q obj 1")
    assert score(game, "#calls") == before + 2
    assert score(game, "#q") == 2


def test_execute_if_function_runs_what_instantiated_before_a_failure(game: Game) -> None:
    """A macro function without arguments fails to instantiate: silently, the loop stops there,
    and the functions before it still run for the source (docs/server-behaviour.md, "execute if
    function"). None before it: the value is 0, so `unless` passes."""
    before = score(game, "#calls") or 0
    got = reply(game, "execute unless function #t:macro_after run scoreboard players set #p obj 1")
    assert got == "Set [obj] for #p to 1"  # t:noret ran (no return: 0), t:ret5 never did
    assert score(game, "#calls") == before + 1
    got = reply(game, "execute if function #t:macro_first run scoreboard players set #p obj 2")
    assert got == ""  # nothing ran: the value is 0
    got = reply(game, "execute unless function #t:macro_first run scoreboard players set #p obj 3")
    assert got == "Set [obj] for #p to 3"
    assert score(game, "#calls") == before + 1
