"""The sandbox answers the daemon's version probes as each release does (docs/server-behaviour.md,
"Versions: detecting the version").

Each reply is compared with what controller/world/serverversion.py reads from it and with the
reply built independently from the release's own en_us strings
(tests/support/version_replies.py, `answer`).
"""

from __future__ import annotations

import pytest

from controller.sandbox.game import Game
from controller.versions import RELEASES, Release, release
from controller.world import serverversion as sv
from controller.world.serverversion import Step
from tests.support.sandbox_game import reply
from tests.support.version_replies import answer, language

FLAVOURS = ("vanilla", "paper")
# the oldest release of each group the probes tell apart, and what the attribute probe leads to
GROUPS = ("1.20.5", "1.20.6", "1.21", "1.21.1", "1.21.2", "1.21.3", "1.21.4", "1.21.5")
OLDER = [r for r in RELEASES if not r.has_version_command]
NEWER = [r for r in RELEASES if r.has_version_command]


def link_text(text: str) -> str:
    """What the link hands on: Paper's newline between a parse error and its context gone."""
    return text.replace("\n", "")


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("r", OLDER, ids=str)
@pytest.mark.parametrize("step", [Step.VERSION, Step.TREE, Step.TEST, Step.FLOOR], ids=str)
def test_a_probe_before_1_21_6_gets_the_release_s_own_reply(
    step: Step, r: Release, flavour: sv.Flavour
) -> None:
    command = sv.command_for(step, flavour)
    got = reply(Game(flavour, r), command)
    assert got == answer(r.name, flavour, command)


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("r", NEWER, ids=str)
def test_version_names_the_release_from_its_own_strings(r: Release, flavour: sv.Flavour) -> None:
    command = sv.command_for(Step.VERSION, flavour)
    got = reply(Game(flavour, r), command)
    own = answer(r.name, flavour, command)
    assert own is not None
    assert got.startswith(language(r.name)["commands.version.header"])
    assert sv.parse_version_reply(got) == sv.parse_version_reply(own)
    outcome = sv.read_reply(Step.VERSION, flavour, link_text(got))
    assert outcome.found == sv.Detected((r,), "version", r.name)


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("r", NEWER, ids=str)
@pytest.mark.parametrize("step", [Step.TREE, Step.TEST, Step.FLOOR], ids=str)
def test_the_older_probes_on_a_newer_release(step: Step, r: Release, flavour: sv.Flavour) -> None:
    """Not sent there, but answered as the release would: the same replies as 1.21.5's."""
    command = sv.command_for(step, flavour)
    assert reply(Game(flavour, r), command) == answer(r.name, flavour, command)


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("name", GROUPS)
def test_the_replies_lead_where_the_reader_expects(name: str, flavour: sv.Flavour) -> None:
    """Walking the probes on the sandbox ends at the release's group."""
    game = Game(flavour, name)
    step: Step | None = sv.first_step()
    sent = []
    found = None
    while step is not None:
        command = sv.command_for(step, flavour)
        sent.append(command)
        outcome = sv.read_reply(step, flavour, link_text(reply(game, command)))
        found, step = outcome.found, outcome.next
    assert found is not None and found.fits(release(name))
    assert found.source == "commands" and len(sent) <= 3


def test_the_tree_probe_fails_where_each_group_s_parser_stops() -> None:
    """The cursor of each group's parse error (the docs' table)."""
    command = sv.command_for(Step.TREE, "vanilla")
    assert reply(Game(version="1.20.5"), command).startswith("Unknown selector type '@n'")
    assert reply(Game(version="1.21.1"), command).startswith(
        "Can't find element 'minecraft:max_health' of type 'minecraft:attribute'"
    )
    tail = reply(Game(version="1.21.3"), command)
    assert tail == "Incorrect argument for command" + sv.parse_error_context(
        command, command.index("reset")
    )
    assert reply(Game(version="1.21.4"), command) == "No entity was found"


def test_paper_keeps_its_own_version_and_the_vanilla_one_under_minecraft() -> None:
    game = Game("paper", "1.21.6")
    assert reply(game, "version") == game.profile.paper_version_text
    assert sv.parse_version_reply(reply(game, "minecraft:version")) is not None
    older = Game("paper", "1.21.5")
    assert reply(older, "version") == older.profile.paper_version_text
    assert reply(older, "minecraft:version").startswith("Unknown or incomplete command")
