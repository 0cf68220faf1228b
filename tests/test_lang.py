"""Tests for the 26.1 language table and vanilla's template formatting (controller.lang)."""

from __future__ import annotations

import pytest

from controller.lang import format_template, lang_table, tr, translate
from controller.sandbox.registry import registry


def test_table_is_the_bundled_26_1_en_us() -> None:
    assert lang_table()["snbt.parser.empty_key"] == "Key cannot be empty"
    assert tr("parsing.int.invalid", "1x") == "Invalid integer '1x'"


def test_missing_key_renders_as_itself() -> None:
    assert tr("snbt.parser.underscore_not_allowed") == "snbt.parser.underscore_not_allowed"
    assert translate({}, "no.such.key", "arg") == "no.such.key"


# The translation.test.* strings ship in en_us for exactly these cases.
@pytest.mark.parametrize(
    ("key", "args", "expected"),
    [
        ("translation.test.none", (), "Hello, world!"),
        ("translation.test.args", ("a", "b"), "a b"),
        (
            "translation.test.complex",
            ("a", "b", "c"),
            "Prefix, ab again b and a lastly c and also a again!",
        ),
        ("translation.test.escape", ("a", "b"), "%s %a %%s %%b"),
        ("translation.test.invalid", ("a",), "hi %"),
        ("translation.test.invalid2", ("a",), "hi %  s"),
    ],
)
def test_vanilla_translation_test_strings(key: str, args: tuple[str, ...], expected: str) -> None:
    assert tr(key, *args) == expected


@pytest.mark.parametrize(
    ("template", "args", "expected"),
    [
        ("%s and %s", (1, 2.5), "1 and 2.5"),
        ("%2$s, %1$s", ("x", "y"), "y, x"),
        ("100%%", (), "100%"),
        # TranslatableFormatException: vanilla shows the template as it is
        ("%s and %s", ("only",), "%s and %s"),
        ("%0$s", ("x",), "%0$s"),
        ("%d items", (3,), "%d items"),
        ("%1$%", (), "%1$%"),
        ("50% off", (), "50% off"),
        ("ends with %", ("x",), "ends with %"),
    ],
)
def test_format_template(template: str, args: tuple[object, ...], expected: str) -> None:
    assert format_template(template, args) == expected


def test_sandbox_registry_uses_the_same_formatting() -> None:
    reg = registry()
    for key, args in [
        ("translation.test.complex", ("a", "b", "c")),
        ("translation.test.invalid", ("a",)),
        ("commands.data.get.invalid", ("Pos",)),
        ("no.such.key", ()),
    ]:
        assert reg.tr(key, *args) == tr(key, *args)
