"""Whether a release finds a data pack's `pack.mcmeta` compatible, by that release's rules (pure).

Two readers exist (docs/datapack.md, "How each release reads pack.mcmeta"): up to 1.21.8 the
`pack` section needs `pack_format` and may widen it with `supported_formats`; from 1.21.9 (pack
formats with a minor) `min_format`/`max_format` are validated together with the old fields. A
release compares its own format with the declared range. An invalid or incompatible pack is
still loaded by a dedicated server, only listed as incompatible; `pipesctl` writes packs that
their release finds compatible and `doctor` checks that it does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from controller.versions import Release

__all__ = ["Compatibility", "LAST_PRE_MINOR", "MIN_MULTI_VERSION", "compatibility", "declared"]

Compatibility = Literal["compatible", "too_old", "too_new", "invalid"]
Version = tuple[int, int]  # (major, minor)

LAST_PRE_MINOR = 81  # PackVersion.getLastOldPackVersion(SERVER_DATA)
MIN_MULTI_VERSION = 15  # a range's main pack_format may not be below this
_ANY_MINOR = 2**31 - 1  # Integer.MAX_VALUE: `max_format: N` means N.*


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _int_range(value: object) -> tuple[int, int] | None:
    """InclusiveRange's codec: `N`, `[min, max]` or `{min_inclusive, max_inclusive}`, min ≤ max."""
    if _int(value) is not None:
        low = high = _int(value)
    elif isinstance(value, list) and len(value) == 2:
        low, high = _int(value[0]), _int(value[1])
    elif isinstance(value, Mapping):
        low, high = _int(value.get("min_inclusive")), _int(value.get("max_inclusive"))
    else:
        return None
    if low is None or high is None or low > high:
        return None
    return low, high


def _version(value: object, implied_minor: int) -> Version | None:
    """PackVersion's codec: `N` or `[N]` (minor implied) or `[N, minor, …]`, non-negative."""
    parts = [value] if _int(value) is not None else value
    if not isinstance(parts, list) or not 1 <= len(parts) <= 256:
        return None
    numbers = [_int(v) for v in parts]
    if any(n is None or n < 0 for n in numbers):
        return None
    major = numbers[0]
    assert major is not None
    minor = numbers[1] if len(numbers) > 1 else implied_minor
    assert minor is not None
    return major, minor


def _legacy_range(pack: Mapping[str, object]) -> tuple[Version, Version] | None:
    """1.20.5–1.21.8: `pack_format` required; a `supported_formats` that does not parse is
    ignored, one that leaves `pack_format` out is replaced by it (Pack.getDeclaredPackVersions)."""
    fmt = _int(pack.get("pack_format"))
    if fmt is None:
        return None
    low = high = fmt
    if "supported_formats" in pack:
        widened = _int_range(pack["supported_formats"])
        if widened is not None and widened[0] <= fmt <= widened[1]:
            low, high = widened
    return (low, 0), (high, _ANY_MINOR)


def _main_format_ok(fmt: int | None, low: int, high: int) -> bool:
    return fmt is not None and low <= fmt <= high and fmt >= MIN_MULTI_VERSION


def _minor_range(pack: Mapping[str, object]) -> tuple[Version, Version] | None:
    """1.21.9 and later: PackVersion.Format.validate for a pack's main section."""
    has_min, has_max = "min_format" in pack, "max_format" in pack
    fmt = _int(pack["pack_format"]) if "pack_format" in pack else None
    if "pack_format" in pack and fmt is None:
        return None
    supported = None
    if "supported_formats" in pack:
        supported = _int_range(pack["supported_formats"])
        if supported is None:
            return None
    if has_min != has_max:
        return None
    if has_min:
        low, high = _version(pack["min_format"], 0), _version(pack["max_format"], _ANY_MINOR)
        if low is None or high is None or low > high:
            return None
        if low[0] > LAST_PRE_MINOR:
            if supported is not None:
                return None
            if fmt is not None and not _main_format_ok(fmt, low[0], high[0]):
                return None
        else:
            if supported is None or supported[0] != low[0]:
                return None
            if supported[1] not in (high[0], LAST_PRE_MINOR):
                return None
            if not _main_format_ok(fmt, low[0], high[0]):
                return None
        return low, high
    if supported is not None:
        if supported[1] > LAST_PRE_MINOR or not _main_format_ok(fmt, *supported):
            return None
        return (supported[0], 0), (supported[1], 0)
    if fmt is not None and fmt <= LAST_PRE_MINOR:
        return (fmt, 0), (fmt, 0)
    return None


def declared(pack: Mapping[str, object], release: Release) -> tuple[Version, Version] | None:
    """The formats a `pack` section declares, read as ``release`` reads them; None if invalid."""
    if not isinstance(pack, Mapping) or "description" not in pack:
        return None
    if release.pack.uses_range:
        return _minor_range(pack)
    return _legacy_range(pack)


def compatibility(pack: Mapping[str, object], release: Release) -> Compatibility:
    """PackCompatibility.forVersion of ``release``'s own format against what `pack` declares."""
    found = declared(pack, release)
    if found is None:
        return "invalid"
    low, high = found
    current = (release.pack.major, release.pack.minor)
    if current > high:
        return "too_old"
    if current < low:
        return "too_new"
    return "compatible"
