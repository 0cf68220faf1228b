"""The grammar helper: every command form the runtime sends parses; malformed ones do not."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.command_forms import BAD, GOOD, PAPER_ONLY
from tests.support.grammar import CHECKER, assert_valid_commands, grammar_errors, mecha_python


def test_every_runtime_form_parses() -> None:
    assert_valid_commands(GOOD)


def test_forms_cover_each_command_family() -> None:
    roots = {c.split()[0] for c in GOOD}
    assert roots >= {
        "list", "forceload", "execute", "fill", "setblock", "summon", "tag", "data", "kill",
        "title", "tellraw", "playsound", "scoreboard", "say", "gamerule", "time",
    }  # fmt: skip


@pytest.fixture(scope="module")
def mixed_errors() -> list[dict[str, str]]:
    """One checker run over good and bad commands interleaved."""
    mixed = [c for pair in zip(GOOD, BAD + PAPER_ONLY, strict=False) for c in pair]
    return grammar_errors(mixed)


def test_every_malformed_command_is_reported_in_order(mixed_errors: list[dict[str, str]]) -> None:
    assert [e["command"] for e in mixed_errors] == BAD + PAPER_ONLY
    assert all(e["error"] for e in mixed_errors)


def test_error_names_the_problem(mixed_errors: list[dict[str, str]]) -> None:
    by_command = {e["command"]: e["error"] for e in mixed_errors}
    assert "coordinate" in by_command["summon minecraft:item_frame 10 64"].lower()
    assert "fly" in by_command["fly @a"]
    assert by_command["say one\nsay two"] == "a command is one line"


def test_assert_valid_commands_fails_with_the_list() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"2 of 3 commands are not valid") as info:
        assert_valid_commands(["list", "fly @a", "summon minecraft:item_frame 10 64"])
    assert "fly @a" in str(info.value)


def test_checker_protocol_exit_codes() -> None:
    python = mecha_python()
    if not python.exists():
        pytest.skip(f"no mecha interpreter at {python}")
    ok = subprocess.run(
        [str(python), str(CHECKER)], input="[]", capture_output=True, text=True, check=False
    )
    assert (ok.returncode, json.loads(ok.stdout)) == (0, [])
    bad = subprocess.run(
        [str(python), str(CHECKER)], input="not json", capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert "not JSON" in bad.stderr


def test_checker_serve_mode_answers_each_line_until_a_bad_one() -> None:
    """`--serve` (what `grammar_errors` keeps running): one line of failures per JSON list, each
    list on its own; a line that is not a list ends it with exit 2."""
    python = mecha_python()
    if not python.exists():
        pytest.skip(f"no mecha interpreter at {python}")
    lines = [json.dumps(["fly @a", "list"]), "[]", json.dumps(["say one\nsay two"]), "{}"]
    done = subprocess.run(
        [str(python), str(CHECKER), "--serve"],
        input="".join(f"{line}\n" for line in [*lines, "[]"]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "must be a JSON list" in done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [[e["command"] for e in answer] for answer in answers] == [
        ["fly @a"],
        [],
        ["say one\nsay two"],
    ]
    assert answers[2][0]["error"] == "a command is one line"


def test_missing_interpreter_skips_with_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PIPESCTL_MECHA_PYTHON", str(tmp_path / "nope" / "python"))
    with pytest.raises(pytest.skip.Exception, match="no mecha interpreter"):
        assert_valid_commands(["list"])


# Forms the sandbox implements beyond the runtime's own (tests/sandbox/test_clone.py and
# tests/sandbox/test_item_predicates.py): mecha must take the good ones and refuse the bad.
ITEMS = "execute if items entity @e[type=minecraft:item_frame,tag=pipes] contents "
SANDBOX_GOOD = [
    ITEMS + "minecraft:filled_map[minecraft:map_id=5|minecraft:map_id=6|minecraft:map_id=7]",
    ITEMS + "minecraft:filled_map[!minecraft:map_id=5]",
    ITEMS + "minecraft:filled_map[minecraft:map_id=6,!minecraft:map_id=5]",
    ITEMS + "minecraft:filled_map[minecraft:map_id=5|minecraft:map_id=6,!minecraft:map_id=7]",
    ITEMS + "*[minecraft:map_id]",
    ITEMS + "*[!minecraft:map_id]",
    "execute as 00000001-fffe-0003-0000-000400000005 unless items entity @s contents "
    "minecraft:filled_map[minecraft:map_id=5|minecraft:map_id=6] run say refill",
    "clone 0 60 0 14 62 14 0 70 0",
    "clone 0 60 0 14 62 14 0 70 0 strict",
    "clone 0 60 0 14 62 14 0 70 0 masked move",
    "clone 0 60 0 14 62 14 0 61 0 replace force",
    "clone 0 60 0 14 62 14 0 70 0 strict filtered minecraft:melon normal",
    "clone 0 60 0 14 62 14 to minecraft:the_nether 0 60 0",
    "clone from minecraft:the_nether 0 60 0 14 62 14 to minecraft:overworld 0 60 0 replace",
]
SANDBOX_BAD = [
    ITEMS + "minecraft:filled_map[minecraft:map_id=5|]",
    "clone 0 60 0 14 62 14 0 70 0 replace strict",
    "clone 0 60 0 14 62 14 0 70 0 force",
]


def test_sandbox_clone_and_item_predicate_forms() -> None:
    mixed = [c for pair in zip(SANDBOX_GOOD, SANDBOX_BAD, strict=False) for c in pair]
    mixed += SANDBOX_GOOD[len(SANDBOX_BAD) :]
    assert [e["command"] for e in grammar_errors(mixed)] == SANDBOX_BAD
