"""Regenerate tests/world/data/reply_texts.json from a PrismarineJS/minecraft-data checkout.

Usage: python tools/reply_texts.py <minecraft-data>/data/pc [folder ...]

Keeps, for each language folder, the en_us strings of the keys the controller reads
(`controller.world.replies.REPLY_KEYS`; a key the folder lacks is null) and leaves the file's
`source`, `serves` and `assumed` entries as they are: a new release needs its row in `serves`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from controller.world.replies import REPLY_KEYS

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "world" / "data" / "reply_texts.json"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    pc = Path(argv[0])
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    folders = argv[1:] or sorted(set(data["serves"].values()))
    for folder in folders:
        lang = json.loads((pc / folder / "language.json").read_text(encoding="utf-8"))
        data["folders"][folder] = {k: lang.get(k) for k in sorted(REPLY_KEYS)}
    FIXTURE.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
