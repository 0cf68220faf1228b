"""Every citation of a docs/ section resolves: code, tests and docs cite sections by heading.

Three forms are checked wherever they appear (docs/*.md, README.md, CONTRIBUTING.md and every
module of controller/, tests/ and bench/, with line breaks and comment markers joined):
``docs/X.md, "Heading"`` (also ``X.md, "A", "B"``, ``"A" and "B"``, ``"A" to "B"``), a markdown
link ``X.md#anchor`` (GitHub's anchor of a heading) and ``X.md §N`` (a heading that starts
with ``§N``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

QUOTED = r'"[\w`§][^"\n]*"'
BY_HEADING = re.compile(r"(?:docs/)?([\w-]+\.md)`?,((?:\s*(?:,|and|to|or)?\s*" + QUOTED + ")+)")
BY_ANCHOR = re.compile(r"\(([\w-]+\.md)?#([\w-]+)\)")
BY_SECTION = re.compile(r"(?:docs/)?([\w-]+\.md)`? (§\d+)(?:[–-](§\d+))?")


def headings(markdown: str) -> list[str]:
    """The heading texts of a markdown file, outside fenced code."""
    found = []
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} (.+?)\s*$", line)):
            found.append(match.group(1))
    return found


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def joined(text: str) -> str:
    """The text with line breaks (and the comment markers after them) as single spaces."""
    return re.sub(r"\n\s*(?:#|//)?\s*", " ", text)


def broken_references(text: str, own_name: str, known: dict[str, list[str]]) -> list[str]:
    """Each citation in ``text`` whose file is a known doc but whose section is not in it."""
    text = joined(text)
    broken = []
    for match in BY_HEADING.finditer(text):
        name = match.group(1)
        for heading in re.findall(r'"([^"]+)"', match.group(2)):
            if name in known and heading not in known[name]:
                broken.append(f'{name}, "{heading}"')
    for match in BY_ANCHOR.finditer(text):
        name = match.group(1) or own_name
        if name in known and match.group(2) not in {anchor(h) for h in known[name]}:
            broken.append(f"{name}#{match.group(2)}")
    for match in BY_SECTION.finditer(text):
        name = match.group(1)
        for section in filter(None, match.group(2, 3)):
            if name in known and not any(h.split()[0] == section for h in known[name]):
                broken.append(f"{name} {section}")
    return broken


KNOWN = {path.name: headings(path.read_text(encoding="utf-8")) for path in DOCS.glob("*.md")}
SOURCES = sorted(
    [*DOCS.glob("*.md"), ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    + [p for folder in ("controller", "tests", "bench") for p in (ROOT / folder).rglob("*.py")]
)
SAMPLE = {"a.md": ["Intro", "Item frames: sounds", "§2 Packs"]}


@pytest.mark.parametrize(
    "text",
    [
        'see docs/a.md, "Item frames: noises"',
        'a.md, "Intro" and "Outro"',
        '(docs/a.md, "Intro", "Outro")',
        "[a](a.md#item-frames-noises)",
        "docs/a.md §3",
        "docs/a.md §2–§4",
        '# docs/a.md, "Item\n    # frames: noises"',
    ],
)
def test_the_check_finds_a_missing_section(text: str) -> None:
    assert broken_references(text, "b.md", SAMPLE)


def test_the_check_accepts_existing_sections() -> None:
    text = (
        'docs/a.md, "Intro" and "Item frames: sounds"; [x](a.md#item-frames-sounds) '
        '(docs/a.md §2); "Item\n# frames: sounds"; other.md, "Anything"; a.md, "<heading>"'
    )
    assert broken_references(text, "b.md", SAMPLE) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_cited_section_exists(path: Path) -> None:
    assert broken_references(path.read_text(encoding="utf-8"), path.name, KNOWN) == []
