# nbtlib.nbt: NBT files. A File is the root Compound itself (nbtlib 2.x).

from typing import Any

from .tag import Compound

class File(Compound):
    def __init__(
        self,
        *args: Any,
        gzipped: bool = False,
        byteorder: str = "big",
        filename: str | None = None,
        root_name: str = "",
    ) -> None: ...
    # Not atomic: it opens the target with gzip.open(filename, "wb").
    def save(
        self,
        filename: str | None = None,
        *,
        gzipped: bool | None = None,
        byteorder: str | None = None,
    ) -> None: ...

# Detects gzip from the 1f 8b magic.
def load(filename: Any, *, gzipped: bool | None = None, byteorder: str = "big") -> File: ...
