"""Write ``controller/sandbox/data/versions.json``: the game data of every supported release
that differs from the sandbox's 26.1 data (docs/sandbox-datapacks.md, "Release profiles").

Input: a folder of PrismarineJS/minecraft-data ``data/pc/<folder>/`` copies (``language.json``,
``blocks.txt``, ``entities.txt``, ``particles.json``), one per data folder that repository keeps,
and the sandbox's own ``controller/sandbox/data/registry-26.1.json``. For each folder it records
the en_us strings of the 26.1 table whose text differs there (``null`` where the key does not
exist there yet) and the block, entity and particle ids of the 26.1 registry that the release
does not have. ``releases`` maps each release to the folder of each kind, as the repository's
``data/dataPaths.json`` does (releases it has no entry for use the folder of the release with
the same protocol; 26.2 uses 26.1's: both marked ``assumed``).

Usage: ``python tools/sandbox_versions.py /work/shared/data/versions`` (writes the file; with
``--check`` it only reports whether the file is up to date, exit 1 if not).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "controller" / "sandbox" / "data" / "registry-26.1.json"
OUT = ROOT / "controller" / "sandbox" / "data" / "versions.json"
SOURCE = (
    "PrismarineJS/minecraft-data data/pc/<folder>/ (language.json, blocks.json, entities.json, "
    "particles.json) at commit eea5ff34cffe818cf090ff5d8a040e57c1227c49; folders per release "
    "from data/dataPaths.json"
)
KINDS = ("language", "blocks", "entities", "particles")

# data/dataPaths.json of that commit: the folder serving each kind, by release.


def _folders(language: str, blocks: str, entities: str, particles: str) -> dict[str, str]:
    return {"language": language, "blocks": blocks, "entities": entities, "particles": particles}


DATA_PATHS: dict[str, dict[str, str]] = {
    "1.20.5": _folders("1.20.5", "1.20.5", "1.20.5", "1.20.5"),
    "1.20.6": _folders("1.20.5", "1.20.5", "1.20.5", "1.20.5"),
    "1.21": _folders("1.21.1", "1.21.1", "1.20.5", "1.20.5"),
    "1.21.1": _folders("1.21.1", "1.21.1", "1.20.5", "1.20.5"),
    "1.21.3": _folders("1.21.3", "1.21.3", "1.21.3", "1.21.3"),
    "1.21.4": _folders("1.21.4", "1.21.4", "1.21.4", "1.21.4"),
    "1.21.5": _folders("1.21.5", "1.21.5", "1.21.5", "1.21.5"),
    "1.21.6": _folders("1.21.6", "1.21.6", "1.21.6", "1.21.6"),
    "1.21.8": _folders("1.21.8", "1.21.8", "1.21.8", "1.21.8"),
    "1.21.9": _folders("1.21.9", "1.21.9", "1.21.9", "1.21.9"),
    "1.21.10": _folders("1.21.9", "1.21.9", "1.21.9", "1.21.9"),
    "1.21.11": _folders("1.21.11", "1.21.11", "1.21.11", "1.21.11"),
    "26.1": _folders("26.1", "26.1", "26.1", "26.1"),
}
# Releases dataPaths.json has no entry for: the release of the same protocol (a hotfix pair),
# 26.2 the newest release known (unverified: no data for them).
ASSUMED = {
    "1.21.2": "1.21.3",
    "1.21.7": "1.21.8",
    "26.1.1": "26.1",
    "26.1.2": "26.1",
    "26.2": "26.1",
}


def _particles(path: Path) -> set[str]:
    return {p["name"] if isinstance(p, dict) else str(p) for p in json.loads(path.read_text())}


def _ids(path: Path) -> set[str]:
    return {line.strip() for line in path.read_text().splitlines() if line.strip()}


def build(shared: Path) -> dict[str, Any]:
    """The document for versions.json from the shared copies and the 26.1 registry."""
    base = json.loads(REGISTRY.read_text(encoding="utf-8"))
    lang: dict[str, str] = base["lang"]
    folders = sorted({f for paths in DATA_PATHS.values() for f in paths.values()})
    data: dict[str, dict[str, Any]] = {}
    for folder in folders:
        where = shared / folder
        entry: dict[str, Any] = {}
        if (where / "language.json").is_file():
            table = json.loads((where / "language.json").read_text(encoding="utf-8"))
            entry["lang"] = {k: table.get(k) for k in sorted(lang) if table.get(k) != lang[k]}
        if (where / "blocks.txt").is_file():
            entry["blocks"] = sorted(set(base["blocks"]) - _ids(where / "blocks.txt"))
        if (where / "entities.txt").is_file():
            entry["entities"] = sorted(set(base["entities"]) - _ids(where / "entities.txt"))
        if (where / "particles.json").is_file():
            entry["particles"] = sorted(
                set(base["particles"]) - _particles(where / "particles.json")
            )
        data[folder] = entry
    releases: dict[str, dict[str, Any]] = {}
    for name, paths in DATA_PATHS.items():
        releases[name] = dict(paths)
    for name, like in ASSUMED.items():
        releases[name] = {**DATA_PATHS[like], "assumed": True}
    for name, paths in releases.items():
        for kind in KINDS:
            if kind not in data[paths[kind]] and kind != "language":
                raise SystemExit(f"{name}: folder {paths[kind]} has no {kind}")
            if kind == "language" and "lang" not in data[paths[kind]]:
                raise SystemExit(f"{name}: folder {paths[kind]} has no language.json")
    return {"source": SOURCE, "releases": dict(sorted(releases.items())), "data": data}


def render(doc: dict[str, Any]) -> str:
    """The file's text: one key per line inside each table, so diffs stay readable."""
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shared", type=Path, help="folder holding data/pc/<folder>/ copies")
    parser.add_argument("--check", action="store_true", help="only compare with the file")
    args = parser.parse_args(argv)
    text = render(build(args.shared))
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.is_file() else ""
        if current != text:
            print(f"{OUT} is out of date", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
