# Type stubs for nbtlib 2.0.4, covering the API pipesctl uses (controller/, tests/).

from . import tag as tag
from .nbt import File as File
from .nbt import load as load
from .tag import Base as Base
from .tag import Byte as Byte
from .tag import ByteArray as ByteArray
from .tag import Compound as Compound
from .tag import Double as Double
from .tag import Float as Float
from .tag import Int as Int
from .tag import IntArray as IntArray
from .tag import List as List
from .tag import Long as Long
from .tag import LongArray as LongArray
from .tag import Short as Short
from .tag import String as String

# nbtlib.literal.parser / nbtlib.literal.serializer, re-exported by the package
def parse_nbt(literal: str) -> Base: ...
def serialize_tag(
    tag: Base, *, indent: int | str | None = None, compact: bool = False, quote: str | None = None
) -> str: ...
