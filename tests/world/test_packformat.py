"""Each release's reading of pack.mcmeta.

docs/datapack.md, "How each release reads pack.mcmeta".
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.sandbox.datapacks import pack_compatibility
from controller.versions import RELEASES, release
from controller.world.packformat import compatibility, declared

R1214 = release("1.21.4")  # format 61, the reader of 1.20.5–1.21.8
R1218 = release("1.21.8")  # format 81
R1219 = release("1.21.9")  # format 88.0, the reader of 1.21.9 and later
R261 = release("26.1")  # format 101.1 (unverified)


@pytest.mark.parametrize(
    ("pack", "verdict"),
    [
        ({"description": "", "pack_format": 61}, "compatible"),
        ({"description": "", "pack_format": 48}, "too_old"),
        ({"description": "", "pack_format": 71}, "too_new"),
        ({"pack_format": 61}, "invalid"),  # description is required
        ({"description": ""}, "invalid"),  # so is pack_format
        ({"description": "", "pack_format": "61"}, "invalid"),
        # supported_formats widens pack_format when it holds it ...
        ({"description": "", "pack_format": 48, "supported_formats": [48, 81]}, "compatible"),
        ({"description": "", "pack_format": 48,
          "supported_formats": {"min_inclusive": 41, "max_inclusive": 61}}, "compatible"),
        # ... and is replaced by it when it does not, or ignored when it does not parse
        ({"description": "", "pack_format": 48, "supported_formats": [57, 81]}, "too_old"),
        ({"description": "", "pack_format": 48, "supported_formats": [81, 48]}, "too_old"),
        ({"description": "", "pack_format": 61, "supported_formats": "x"}, "compatible"),
        # min_format/max_format mean nothing to this reader
        ({"description": "", "min_format": 61, "max_format": 61}, "invalid"),
    ],
)  # fmt: skip
def test_the_reader_up_to_1_21_8(pack: dict[str, Any], verdict: str) -> None:
    """PackMetadataSection.CODEC and Pack.getDeclaredPackVersions of 1.20.5–1.21.4."""
    assert compatibility(pack, R1214) == verdict


@pytest.mark.parametrize(
    ("pack", "verdict"),
    [
        ({"description": "", "pack_format": 101}, "invalid"),  # > 81 needs min/max_format
        ({"description": "", "min_format": 101}, "invalid"),  # both or neither
        ({"description": "", "min_format": [101, 2], "max_format": [101, 1]}, "invalid"),
        ({"description": "", "min_format": 88, "max_format": 88, "supported_formats": [88, 88]},
         "invalid"),  # supported_formats is deprecated above 81
        ({"description": "", "pack_format": 48}, "too_old"),
        ({"description": "", "min_format": [101, 2], "max_format": 101}, "too_new"),
        ({"description": "", "min_format": [101, 1], "max_format": 101}, "compatible"),
        ({"description": "", "min_format": 101, "max_format": [101, 1]}, "compatible"),
        ({"description": "", "min_format": [101, 1], "max_format": 101, "pack_format": 101},
         "compatible"),
        ({"description": "", "min_format": [101, 1], "max_format": 101, "pack_format": 99},
         "invalid"),  # the main format lies outside the range
        # a range reaching down to the old formats needs supported_formats and pack_format too
        ({"description": "", "min_format": 48, "max_format": 101}, "invalid"),
        ({"description": "", "min_format": 48, "max_format": 101,
          "supported_formats": [48, 81]}, "invalid"),
        ({"description": "", "min_format": 48, "max_format": 101,
          "supported_formats": [48, 81], "pack_format": 48}, "compatible"),
        ({"description": "", "min_format": 48, "max_format": 101,
          "supported_formats": [57, 81], "pack_format": 57}, "invalid"),
        ({"description": "", "min_format": 10, "max_format": 101,
          "supported_formats": [10, 81], "pack_format": 10}, "invalid"),  # below 15
        ({"description": "", "supported_formats": [48, 81], "pack_format": 48}, "too_old"),
        ({"description": "", "supported_formats": [48, 101], "pack_format": 48}, "invalid"),
    ],
)  # fmt: skip
def test_the_reader_from_1_21_9(pack: dict[str, Any], verdict: str) -> None:
    """PackVersion.Format.validate (1.21.11: `duollectis/minecraft-decompiled-1.21.11`
    `src/main/java/net/minecraft/resource/PackVersion.java`) as 26.1 reads it."""
    assert compatibility(pack, R261) == verdict


def test_formats_81_and_88_are_the_two_readers() -> None:
    pack = {"description": "", "pack_format": 81}
    assert compatibility(pack, R1218) == "compatible"
    assert compatibility(pack, R1219) == "too_old"
    assert declared({"description": "", "min_format": 88, "max_format": 88}, R1218) is None
    assert declared({"description": "", "min_format": 88, "max_format": 88}, R1219) == (
        (88, 0),
        (88, 2**31 - 1),
    )


def test_one_pack_could_declare_every_release() -> None:
    """docs/datapack.md "One pack per release": such a section passes both readers (the pack
    is still written per release, for the folders)."""
    pack = {
        "description": "",
        "pack_format": 41,
        "supported_formats": [41, 81],
        "min_format": 41,
        "max_format": 107,
    }
    assert {compatibility(pack, r) for r in RELEASES} == {"compatible"}


_NUMBERS = st.one_of(
    st.integers(0, 120),
    st.lists(st.integers(-1, 120), min_size=0, max_size=3),
    st.fixed_dictionaries(
        {"min_inclusive": st.integers(0, 120), "max_inclusive": st.integers(0, 120)}
    ),
    st.text(max_size=2),
    st.none(),
)
_PACKS = st.dictionaries(
    st.sampled_from(["pack_format", "supported_formats", "min_format", "max_format"]),
    _NUMBERS,
).map(lambda d: {"description": "", **d})


@given(_PACKS, st.sampled_from(RELEASES))
def test_any_pack_section_gets_a_verdict(pack: dict[str, Any], target: object) -> None:
    """No input makes the checker fail; a compatible verdict means the release's format lies
    in the declared range."""
    assert target in RELEASES
    verdict = compatibility(pack, target)  # type: ignore[arg-type]
    assert verdict in ("compatible", "too_old", "too_new", "invalid")
    found = declared(pack, target)  # type: ignore[arg-type]
    assert (found is None) == (verdict == "invalid")
    if found is not None:
        low, high = found
        current = (target.pack.major, target.pack.minor)  # type: ignore[attr-defined]
        assert (low <= current <= high) == (verdict == "compatible")


@given(_PACKS)
def test_the_sandbox_rules_agree_from_1_21_9(pack: dict[str, Any]) -> None:
    """The sandbox's port of the 26.1 rules (controller/sandbox/datapacks.py) gives the same
    verdict as this checker for the formats above 81, on the packs both read alike."""
    ours = compatibility(pack, R261)
    theirs = pack_compatibility(pack, (101, 1))
    if ours != "invalid" and theirs != "invalid":
        assert ours == theirs
