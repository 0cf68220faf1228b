"""Reading the version probes' replies (controller/world/serverversion.py).

Every reply is built from the release's own en_us strings (tests/support/version_replies.py),
never typed in here.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.rcon.flavour import prefixed
from controller.versions import NEWEST, OLDEST, RELEASES, Release, UnsupportedVersion, release
from controller.world import serverversion as sv
from controller.world.serverversion import Detected, Step, UnrecognisedReply
from tests.support.grammar import assert_valid_commands
from tests.support.version_replies import FLOOR_OLDER, answer, context, language, number_of

FLAVOURS = ("vanilla", "paper")
GROUPS = {  # the releases the replies before 1.21.6 cannot tell apart
    "1.20.5": ("1.20.5", "1.20.6"),
    "1.20.6": ("1.20.5", "1.20.6"),
    "1.21": ("1.21", "1.21.1"),
    "1.21.1": ("1.21", "1.21.1"),
    "1.21.2": ("1.21.2", "1.21.3"),
    "1.21.3": ("1.21.2", "1.21.3"),
    "1.21.4": ("1.21.4",),
    "1.21.5": ("1.21.5",),
}


def as_link_returns(reply: str) -> str:
    """What `Link.send` hands on: Paper's newline between a parse error and its context gone."""
    return reply.replace("\n", "")


def walk(name: str, flavour: sv.Flavour) -> tuple[Detected, list[str]]:
    """Send the probes to a simulated release until the replies tell; the commands sent."""
    step, sent = sv.first_step(), []
    while True:
        command = sv.command_for(step, flavour)
        sent.append(command)
        reply = answer(name, flavour, command)
        assert reply is not None, command
        outcome = sv.read_reply(step, flavour, as_link_returns(reply))
        if outcome.found is not None:
            return outcome.found, sent
        assert outcome.next is not None
        step = outcome.next


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("r", RELEASES, ids=str)
def test_every_release_is_told_from_its_replies(r: Release, flavour: sv.Flavour) -> None:
    found, sent = walk(r.name, flavour)
    if r.has_version_command:
        assert found == Detected((r,), "version", r.name)
        assert sent == [sv.command_for(Step.VERSION, flavour)]
    else:
        assert [x.name for x in found.releases] == list(GROUPS[r.name])
        assert found.release == release(GROUPS[r.name][0])  # the oldest of the group
        assert found.source == "commands"
        # version and the attribute command; then the floor (1.20.x) or test (1.21.4 on)
        two = r.at_least((1, 21, 0)) and not r.at_least((1, 21, 4))
        assert len(sent) == (2 if two else 3)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_release_older_than_the_oldest_is_refused_naming_the_range(flavour: sv.Flavour) -> None:
    with pytest.raises(UnsupportedVersion, match=f"older than {OLDEST.name}.*{NEWEST.name}"):
        for step in (Step.VERSION, Step.TREE, Step.FLOOR):
            reply = answer(FLOOR_OLDER, flavour, sv.command_for(step, flavour))
            assert reply is not None
            sv.read_reply(step, flavour, as_link_returns(reply))


def version_reply(name: str, data: int, protocol: int = 999, stable: str = "yes") -> str:
    lang = language("26.1")
    return (
        lang["commands.version.header"]
        + lang["commands.version.id"].replace("%s", name)
        + lang["commands.version.name"].replace("%s", name)
        + lang["commands.version.data"].replace("%s", str(data))
        + lang["commands.version.series"].replace("%s", "main")
        + lang["commands.version.protocol"].replace("%s", str(protocol), 1).replace("%s", "0x3e7")
        + lang["commands.version.build_time"].replace("%s", "Thu Jan 01 00:00:00 UTC 2027")
        + lang["commands.version.pack.resource"].replace("%s", "90.0")
        + lang["commands.version.pack.data"].replace("%s", "120.0")
        + lang[f"commands.version.stable.{stable}"]
    )


@pytest.mark.parametrize(
    ("name", "data", "why"),
    [
        ("26.3", NEWEST.data_version + 200, "newer than the newest known"),
        ("26.2-snapshot-3", 4850, "not a release pipesctl knows"),
        ("1.21.9-rc1", 4553, "not a release pipesctl knows"),
    ],
)
def test_a_version_outside_the_table_is_refused_naming_the_range(
    name: str, data: int, why: str
) -> None:
    with pytest.raises(UnsupportedVersion) as refused:
        sv.read_reply(Step.VERSION, "vanilla", version_reply(name, data, stable="no"))
    assert f"Minecraft {name} (DataVersion {data}, {why})" in str(refused.value)
    assert f"{OLDEST.name} to {NEWEST.name}" in str(refused.value)


def test_the_version_reply_is_found_among_other_output() -> None:
    """Another RCON client's output before or after it (vanilla's shared buffer) is ignored."""
    r = release("1.21.8")
    own = answer(r.name, "vanilla", "version")
    assert own is not None
    for mixed in (f"There are 0 of a max of 20 players online: {own}", own + "Saved the game"):
        found = sv.read_reply(Step.VERSION, "vanilla", mixed).found
        assert found is not None and found.release == r


@given(
    before=st.text(max_size=40),
    after=st.text(max_size=40),
    build=st.text(alphabet=st.characters(blacklist_characters="\n"), max_size=40),
    r=st.sampled_from([r for r in RELEASES if r.has_version_command]),
)
def test_any_build_time_and_surrounding_text_keep_the_data_version(
    before: str, after: str, build: str, r: Release
) -> None:
    reply = version_reply(r.name, r.data_version).replace(
        "Thu Jan 01 00:00:00 UTC 2027", build.replace("stable = ", "")
    )
    parsed = sv.parse_version_reply(before + reply + after)
    assert parsed is not None and parsed.data_version == r.data_version and parsed.name == r.name


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("step", list(Step), ids=lambda s: s.value)
@pytest.mark.parametrize(
    "reply",
    ["", "Saved the game", "No player was found", "Unknown or incomplete command"],
)
def test_a_reply_that_fits_no_release_is_unrecognised(
    step: Step, flavour: sv.Flavour, reply: str
) -> None:
    with pytest.raises(UnrecognisedReply) as bad:
        sv.read_reply(step, flavour, reply)
    assert sv.command_for(step, flavour) in str(bad.value)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_fingerprint_mixed_with_other_output_is_unrecognised(flavour: sv.Flavour) -> None:
    """A fingerprint is compared whole: extra text means the reply was spoiled, so it is asked
    again rather than guessed at."""
    command = sv.command_for(Step.TREE, flavour)
    own = answer("1.21.1", flavour, command)
    assert own is not None
    with pytest.raises(UnrecognisedReply):
        sv.read_reply(Step.TREE, flavour, as_link_returns(own) + "Saved the game")


def test_the_probe_strings_are_the_same_in_every_language_file() -> None:
    """The controller reads each probe with one set of strings: every release's file agrees."""
    for r in [*RELEASES, release("1.20.5")]:
        lang = language(r.name)
        assert lang["command.unknown.argument"] == sv.INCORRECT_ARGUMENT
        assert lang["command.context.here"] == sv.HERE
        assert lang["argument.entity.selector.unknown"].replace("%s", "{}") == sv.UNKNOWN_SELECTOR
        assert lang["argument.resource.not_found"].replace("%s", "{}") == sv.RESOURCE_NOT_FOUND
        assert lang["argument.entity.notfound.entity"] == sv.NO_ENTITY
        assert lang["commands.help.failed"] == sv.HELP_FAILED
        assert lang["command.unknown.command"] in sv.UNKNOWN_COMMAND
        if r.has_version_command:
            assert lang["commands.version.header"] == sv.VERSION_HEADER
            version_keys = {k: v for k, v in lang.items() if k.startswith("commands.version.")}
            assert version_keys == {
                k: v for k, v in language("26.1").items() if k.startswith("commands.version.")
            }


def test_the_unknown_command_wording_changes_in_1_21_9() -> None:
    comma, period = sv.UNKNOWN_COMMAND
    assert language("1.21.8")["command.unknown.command"] == comma
    assert language("1.21.9")["command.unknown.command"] == period


@pytest.mark.parametrize("step", list(Step), ids=lambda s: s.value)
def test_paper_probes_are_the_vanilla_ones_namespaced(step: Step) -> None:
    vanilla, paper = sv.command_for(step, "vanilla"), sv.command_for(step, "paper")
    if step is Step.TEST:  # the help target too: `minecraft:test`, never a plugin's `test`
        assert paper == "minecraft:help minecraft:test" and vanilla == "help test"
    else:
        assert paper == prefixed(vanilla, "paper")


def test_the_probes_are_valid_commands() -> None:
    assert_valid_commands([sv.command_for(step, "vanilla") for step in Step])


@given(
    command=st.text(alphabet="abcdefghij @[]:=.,", min_size=0, max_size=60),
    cursor=st.integers(min_value=-5, max_value=70),
)
def test_the_parse_error_context_is_the_one_vanilla_builds(command: str, cursor: int) -> None:
    expected = context(command, max(cursor, 0), sv.HERE)
    assert sv.parse_error_context(command, cursor) == expected


def test_groups_hold_consecutive_releases() -> None:
    assert [r.name for r in sv.group("1.21", "1.21.3")] == ["1.21", "1.21.1", "1.21.2", "1.21.3"]
    found = Detected(sv.group("1.21.2", "1.21.3"), "commands")
    assert found.span == "1.21.2 to 1.21.3" and found.fits(release("1.21.3"))
    assert not found.fits(release("1.21.4"))
    assert Detected((release("26.1"),), "version", "26.1").span == "26.1"


def test_the_language_copy_serves_the_releases_it_names() -> None:
    assert number_of("1.21") == (1, 21, 0)
    assert language("1.21.2") == language("1.21.3")  # 1.21.2 has no file of its own
