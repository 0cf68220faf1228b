"""Data packs of the sandbox world: discovery, selection, and the content the sandbox runs.

A pack is a folder (or a ``.zip``) under ``<world>/datapacks/`` with a ``pack.mcmeta`` holding a
``pack.description`` (and, before 1.21.9, a numeric ``pack.pack_format``); its id is
``file/<name>`` (FolderRepositorySource). The built-in ``vanilla`` pack is always available. Of a
pack's content the sandbox reads advancements (``data/<ns>/advancement/**.json``), functions
(``data/<ns>/function/**.mcfunction``) and the ``function`` and ``entity_type`` tags, in the
plural folders before 1.21 (``functions/``, ``advancements/``, ``tags/functions/``,
``tags/entity_types/``); everything else is ignored. See docs/sandbox-datapacks.md and
docs/server-behaviour.md, "Versions: data packs".
"""

from __future__ import annotations

import json
import logging
import pathlib
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from nbtlib import tag as nbt

from controller.versions import Release

from .arguments import parse_compound
from .profile import PackFolders
from .reader import CommandSyntaxError, StringReader
from .registry import registry, strip_namespace, tr

__all__ = [
    "Advancement",
    "Content",
    "Criterion",
    "EntityCondition",
    "PlayerCondition",
    "known_flags",
    "PackInfo",
    "discover",
    "function_lines",
    "load_content",
    "macro_parameters",
    "macro_template",
    "pack_compatibility",
    "substitute",
]

logger = logging.getLogger("controller.sandbox")

VANILLA = "vanilla"
INTERACT_TRIGGER = "minecraft:player_interacted_with_entity"
# PackFormat.lastPreMinorVersion(SERVER_DATA): formats up to 81 may use pack_format alone
LAST_PRE_MINOR = 81


@dataclass(frozen=True)
class PackInfo:
    """One available pack: its id, where it comes from, its files and its declared formats."""

    id: str
    source: str  # "builtin" or "world"
    path: pathlib.Path | None = None
    meta: Any = None

    def chat_link(self) -> str:
        """Pack.getChatLink: `[<id> (<source>)]` (PackLocationInfo.createChatLink, PackSource)."""
        name = tr("pack.nameAndSource", self.id, tr("pack.source." + self.source))
        return tr("chat.square_brackets", name)

    def files(self) -> dict[str, bytes]:
        """Every file of the pack by its relative path (`data/...`)."""
        if self.path is None:
            return {}
        return _read_files(self.path)


def _read_files(path: pathlib.Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    if path.is_dir():
        for f in sorted(path.rglob("*")):
            if f.is_file():
                out[f.relative_to(path).as_posix()] = f.read_bytes()
    elif path.is_file():
        with zipfile.ZipFile(path) as z:
            for name in sorted(z.namelist()):
                if not name.endswith("/"):
                    out[name] = z.read(name)
    return out


def _read_mcmeta(path: pathlib.Path) -> bytes | None:
    if path.is_dir():
        meta = path / "pack.mcmeta"
        return meta.read_bytes() if meta.is_file() else None
    try:
        with zipfile.ZipFile(path) as z:
            return z.read("pack.mcmeta")
    except (KeyError, zipfile.BadZipFile, OSError):
        return None


def discover(
    datapack_dir: pathlib.Path | None, release: Release | None = None
) -> dict[str, PackInfo]:
    """PackRepository.discoverAvailable: vanilla plus every valid pack in the folder, by id.

    Folders need a ``pack.mcmeta``, files must end in ``.zip``; a pack whose metadata has no
    ``pack.description`` (or is not JSON), or on a release before 1.21.9 no numeric
    ``pack.pack_format``, is skipped, as Pack.readMetaAndCreate does. Ids are sorted (the
    repository keeps them in a TreeMap).
    """
    needs_pack_format = release is not None and not release.pack.uses_range
    found: dict[str, PackInfo] = {VANILLA: PackInfo(VANILLA, "builtin")}
    if datapack_dir is not None and datapack_dir.is_dir():
        for entry in sorted(datapack_dir.iterdir()):
            if not (entry.is_dir() or (entry.is_file() and entry.name.endswith(".zip"))):
                continue
            raw = _read_mcmeta(entry)
            if raw is None:
                logger.info("Found non-pack entry '%s', ignoring", entry)
                continue
            try:
                meta = json.loads(raw.decode("utf-8"))
                pack = meta["pack"]
                pack["description"]  # noqa: B018 - required field
                if needs_pack_format and not _is_number(pack["pack_format"]):
                    raise TypeError("pack_format")  # Codec.INT.fieldOf("pack_format")
            except (ValueError, KeyError, TypeError):
                logger.warning("Failed to read pack file/%s metadata", entry.name)
                continue
            pid = "file/" + entry.name
            found[pid] = PackInfo(pid, "world", entry, pack)
    return dict(sorted(found.items()))


def _format(value: Any, top: bool) -> tuple[int, int]:
    """PackFormat BOTTOM/TOP codec: `N` or `[N]` or `[N, minor]`."""
    if isinstance(value, int):
        return (value, 2**31 - 1 if top else 0)
    if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
        return (value[0], value[1] if len(value) > 1 else (2**31 - 1 if top else 0))
    raise ValueError(f"not a pack format: {value!r}")


def _is_number(value: Any) -> TypeGuard[int | float]:
    """A JSON number (JsonOps.getNumberValue; booleans count as 0/1 there too)."""
    return isinstance(value, int | float)


def _supported_range(value: Any) -> tuple[int, int] | None:
    """InclusiveRange.codec(Codec.INT) read leniently: `N`, `[min, max]` or
    `{"min_inclusive": min, "max_inclusive": max}` with min ≤ max; None otherwise."""
    if isinstance(value, dict):
        value = [value.get("min_inclusive"), value.get("max_inclusive")]
    if _is_number(value):
        return (int(value), int(value))
    if isinstance(value, list) and len(value) == 2 and all(_is_number(v) for v in value):
        low, high = int(value[0]), int(value[1])
        return (low, high) if low <= high else None
    return None


def _legacy_compatibility(pack: dict[str, Any], current: int) -> str:
    """Pack.getDeclaredPackVersions + PackCompatibility.forVersion before 1.21.9: the range
    is `supported_formats` when it holds `pack_format`, else `pack_format` alone."""
    declared = pack.get("pack_format")
    if not _is_number(declared):
        return "invalid"  # the metadata does not read at all: the pack is not available
    fmt = int(declared)
    supported = _supported_range(pack.get("supported_formats"))
    low, high = supported if supported and supported[0] <= fmt <= supported[1] else (fmt, fmt)
    if high < current:
        return "too_old"
    return "too_new" if current < low else "compatible"


def pack_compatibility(pack: dict[str, Any], current: tuple[int, int] | Release) -> str:
    """PackFormat.IntermediaryFormat.validate + PackCompatibility.forVersion for a data pack.

    ``current`` is a format (the 1.21.9+ rules) or a release, whose own rules and format
    apply: before 1.21.9 those of :func:`_legacy_compatibility` (docs/server-behaviour.md,
    "Versions: data packs"). Returns ``compatible``, ``too_old``, ``too_new`` or ``invalid``
    (the metadata does not pass validation; from 1.21.9 the game then lists the pack as
    incompatible, before it the pack is not available).
    """
    if isinstance(current, Release):
        if not current.pack.uses_range:
            return _legacy_compatibility(pack, current.pack.major)
        current = (current.pack.major, current.pack.minor)
    try:
        has_min, has_max = "min_format" in pack, "max_format" in pack
        supported = pack.get("supported_formats")
        fmt = pack.get("pack_format")
        if has_min != has_max:
            return "invalid"
        if has_min:
            low, high = _format(pack["min_format"], False), _format(pack["max_format"], True)
            if low > high:
                return "invalid"
            if low[0] > LAST_PRE_MINOR:
                if supported is not None:
                    return "invalid"
                if fmt is not None and not (low[0] <= fmt <= high[0] and fmt >= 15):
                    return "invalid"
            elif supported is None or fmt is None:
                return "invalid"
        elif supported is not None:
            if isinstance(supported, int):
                supported = [supported, supported]
            if isinstance(supported, dict):
                supported = [supported["min_inclusive"], supported["max_inclusive"]]
            if supported[1] > LAST_PRE_MINOR or fmt is None:
                return "invalid"
            low, high = (supported[0], 0), (supported[1], 0)
        elif isinstance(fmt, int):
            if fmt > LAST_PRE_MINOR:
                return "invalid"
            low = high = (fmt, 0)
        else:
            return "invalid"
    except (ValueError, KeyError, TypeError, IndexError):
        return "invalid"
    if current < low:
        return "too_new"
    if current > high:
        return "too_old"
    return "compatible"


# ------------------------------------------------------------------------------ content
@dataclass
class EntityCondition:
    """The `entity` predicate of a criterion: the parts the sandbox checks (type, nbt)."""

    types: frozenset[str] | None = None
    nbt: nbt.Compound | None = None
    unsupported: tuple[str, ...] = ()


@dataclass
class PlayerCondition:
    """The `player` predicate of a criterion: the parts the sandbox checks, the crouching flag
    (`flags.is_sneaking`) and the item in the main hand (`equipment.mainhand.items`)."""

    sneaking: bool | None = None
    mainhand: frozenset[str] | None = None
    unsupported: tuple[str, ...] = ()


@dataclass
class Criterion:
    """One criterion: its trigger and, for player_interacted_with_entity, its conditions."""

    trigger: str
    entity: EntityCondition | None = None
    player: PlayerCondition | None = None
    unsupported: tuple[str, ...] = ()

    @property
    def checkable(self) -> bool:
        """Whether the sandbox can evaluate every condition of this criterion."""
        return (
            not self.unsupported
            and (self.entity is None or not self.entity.unsupported)
            and (self.player is None or not self.player.unsupported)
        )


@dataclass
class Advancement:
    """An advancement: criteria, requirements (groups of alternatives), reward function."""

    id: str
    criteria: dict[str, Criterion]
    requirements: list[list[str]]
    function: str | None = None
    display: bool = False

    def is_done(self, obtained: Iterable[str]) -> bool:
        """AdvancementProgress.isDone: every requirement group has an obtained criterion."""
        have = set(obtained)
        return bool(self.requirements) and all(
            any(c in have for c in group) for group in self.requirements
        )


@dataclass
class Content:
    """What the selected packs provide: advancements, functions and tags, by id."""

    advancements: dict[str, Advancement] = field(default_factory=dict)
    functions: dict[str, list[str]] = field(default_factory=dict)
    function_tags: dict[str, list[str]] = field(default_factory=dict)
    entity_type_tags: dict[str, list[str]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


_SINGULAR = PackFolders("function", "advancement", "tags/function", "tags/entity_type")


def _entries(files: dict[str, bytes], folder: str, suffix: str) -> Iterable[tuple[str, bytes]]:
    """`data/<ns>/<folder>/<path><suffix>` → (`ns:path`, bytes)."""
    for rel, data in files.items():
        parts = rel.split("/", 3)
        if len(parts) < 4 or parts[0] != "data" or not rel.endswith(suffix):
            continue
        ns, rest = parts[1], "/".join(parts[2:])
        if not rest.startswith(folder + "/"):
            continue
        yield f"{ns}:{rest[len(folder) + 1 : -len(suffix)]}", data


def _merge_tags(target: dict[str, list[str]], files: dict[str, bytes], folder: str) -> None:
    """TagLoader: values append across packs unless a later pack says `replace`."""
    for tid, data in _entries(files, folder, ".json"):
        try:
            doc = json.loads(data.decode("utf-8"))
            values = [v if isinstance(v, str) else v["id"] for v in doc.get("values", [])]
        except (ValueError, KeyError, TypeError, AttributeError):
            logger.error("Couldn't read tag list %s", tid)
            continue
        if doc.get("replace") or tid not in target:
            target[tid] = []
        target[tid].extend(values)


def function_lines(text: str) -> list[str]:
    """CommandFunction.fromLines: trimmed lines, `\\` continuations joined, comments skipped.

    Macro lines keep their leading `$`. Raises ValueError for lines vanilla refuses at load: a
    leading `/`, or a macro line that is not a valid template (macro_template).
    """
    out: list[str] = []
    raw = text.splitlines()
    i = 0
    while i < len(raw):
        line = raw[i].strip()
        number = i + 1
        while line.endswith("\\") and i + 1 < len(raw):
            i += 1
            line = line[:-1] + raw[i].strip()
        i += 1
        if not line or line.startswith("#"):
            continue
        if line.startswith("/"):
            hint = line[2:] if line.startswith("//") else line[1:].split(" ")[0]
            raise ValueError(
                f"Unknown or invalid command '{line}' on line {number} "
                f"(did you mean '{hint}'? Do not use a preceding forwards slash.)"
            )
        if line.startswith("$"):
            try:
                macro_template(line[1:])
            except ValueError as ex:  # wording of the wrapper: unverified
                raise ValueError(f"Can't parse function line {number}: '{line}': {ex}") from ex
        out.append(line)
    return out


def _is_variable_name(name: str) -> bool:
    """StringTemplate.isValidVariableName: letters, digits and `_` (the empty name passes)."""
    return all(c.isalpha() or c.isdigit() or c == "_" for c in name)


def macro_template(text: str) -> tuple[list[str], list[str]]:
    """StringTemplate.fromString: the text segments and the `$(name)` variables between them.

    Raises ValueError with vanilla's messages (`Unterminated macro variable`, `Invalid macro
    variable name '…'`, `No variables in macro`). A `$` not followed by `(` is plain text.
    """
    segments: list[str] = []
    variables: list[str] = []
    start = 0
    index = text.find("$")
    while index != -1:
        if index == len(text) - 1 or text[index + 1] != "(":
            index = text.find("$", index + 1)
            continue
        segments.append(text[start:index])
        end = text.find(")", index + 1)
        if end == -1:
            raise ValueError("Unterminated macro variable")
        name = text[index + 2 : end]
        if not _is_variable_name(name):
            raise ValueError(f"Invalid macro variable name '{name}'")
        variables.append(name)
        start = end + 1
        index = text.find("$", start)
    if start == 0:
        raise ValueError("No variables in macro")
    if start != len(text):
        segments.append(text[start:])
    return segments, variables


def substitute(segments: list[str], variables: list[str], values: dict[str, str]) -> str:
    """StringTemplate.substitute: segments and values interleaved."""
    out = "".join(segments[i] + values[v] for i, v in enumerate(variables))
    if len(segments) > len(variables):
        out += segments[-1]
    return out


def macro_parameters(lines: list[str]) -> list[str] | None:
    """The variables of a macro function in order of first use, or None for a plain function."""
    if not any(line.startswith("$") for line in lines):
        return None
    out: list[str] = []
    for line in lines:
        if line.startswith("$"):
            for name in macro_template(line[1:])[1]:
                if name not in out:
                    out.append(name)
    return out


def _type_set(value: Any, tags: dict[str, list[str]]) -> frozenset[str]:
    """The HolderSet codec of entity types: an id, `#tag`, or a list of ids."""
    if isinstance(value, list):
        ids = [v for v in value if isinstance(v, str)]
        if len(ids) != len(value):
            raise ValueError("type list must hold ids")
        return frozenset(_full(v) for v in ids)
    if isinstance(value, str) and value.startswith("#"):
        return frozenset(_resolve_tag(_full(value[1:]), tags, set()))
    if isinstance(value, str):
        ident = _full(value)
        if strip_namespace(ident) not in registry().entities:
            raise ValueError(f"unknown entity type {value}")
        return frozenset({ident})
    raise ValueError(f"bad type {value!r}")


def _resolve_tag(tid: str, tags: dict[str, list[str]], seen: set[str]) -> list[str]:
    if tid not in tags:
        raise ValueError(f"Missing tag: '{tid}' in 'minecraft:entity_type'")
    if tid in seen:
        raise ValueError(f"tag cycle at {tid}")
    seen.add(tid)
    out: list[str] = []
    for v in tags[tid]:
        out.extend(_resolve_tag(_full(v[1:]), tags, seen) if v.startswith("#") else [_full(v)])
    return out


def _full(ident: str) -> str:
    return ident if ":" in ident else "minecraft:" + ident


def _entity_condition(value: Any, tags: dict[str, list[str]]) -> EntityCondition:
    """EntityPredicate (the object form of the ContextAwarePredicate codec)."""
    if isinstance(value, list):  # a list of loot conditions: not evaluated by the sandbox
        return EntityCondition(unsupported=("loot conditions",))
    if not isinstance(value, dict):
        raise ValueError("entity predicate must be an object")
    cond = EntityCondition()
    rest = [k for k in value if k not in ("type", "nbt")]
    cond.unsupported = tuple(sorted(rest))
    if "type" in value:
        cond.types = _type_set(value["type"], tags)
    if "nbt" in value:
        text = value["nbt"]
        if not isinstance(text, str):
            raise ValueError("nbt must be a string")
        reader = StringReader(text)
        try:
            parsed = parse_compound(reader)
        except CommandSyntaxError as ex:
            raise ValueError(f"bad nbt {text!r}: {ex.message}") from ex
        if reader.can_read():
            raise ValueError(f"trailing data in nbt {text!r}")
        cond.nbt = parsed
    return cond


# EntityFlagsPredicate.CODEC's keys: 1.20.5 and 1.20.6 have five, 1.21 adds is_on_ground and
# is_flying, 1.21.11 is_in_water and is_fall_flying (docs/sandbox-datapacks.md,
# "§6a Player conditions"); a key the release does not know is ignored, as a record codec
# ignores it
_FLAGS_1205 = ("is_on_fire", "is_sneaking", "is_sprinting", "is_swimming", "is_baby")
_FLAGS_121 = (*_FLAGS_1205, "is_on_ground", "is_flying")
_FLAGS_12111 = (*_FLAGS_121, "is_in_water", "is_fall_flying")


def known_flags(release: Release | None) -> tuple[str, ...]:
    """The `flags` keys a release's entity predicate reads."""
    if release is None or release.at_least((1, 21, 11)):
        return _FLAGS_12111
    return _FLAGS_121 if release.at_least((1, 21, 0)) else _FLAGS_1205


def _player_condition(
    value: Any, tags: dict[str, list[str]], release: Release | None
) -> PlayerCondition:
    """The object form of the `player` predicate: `flags` and `equipment` (`mainhand` with
    `items`) as the sandbox evaluates them; any other part makes the criterion uncheckable."""
    if isinstance(value, list):
        return PlayerCondition(unsupported=("loot conditions",))
    if not isinstance(value, dict):
        raise ValueError("player predicate must be an object")
    cond = PlayerCondition()
    rest = [k for k in value if k not in ("flags", "equipment")]
    flags = value.get("flags", {})
    if not isinstance(flags, dict):
        raise ValueError("flags must be an object")
    known = known_flags(release)
    for key, flag in flags.items():
        if key not in known:
            continue
        if not isinstance(flag, bool):
            raise ValueError(f"flags.{key} must be a boolean")
        if key == "is_sneaking":
            cond.sneaking = flag
        else:
            rest.append(f"flags.{key}")
    equipment = value.get("equipment", {})
    if not isinstance(equipment, dict):
        raise ValueError("equipment must be an object")
    for slot, item in equipment.items():
        if slot != "mainhand" or not isinstance(item, dict) or set(item) - {"items"}:
            rest.append(f"equipment.{slot}")
            continue
        ids = item.get("items")
        if isinstance(ids, str) and not ids.startswith("#"):
            cond.mainhand = frozenset({_full(ids)})
        elif isinstance(ids, list) and all(isinstance(i, str) for i in ids):
            cond.mainhand = frozenset(_full(i) for i in ids)
        else:
            rest.append("equipment.mainhand.items")
    cond.unsupported = tuple(sorted(rest))
    return cond


def _advancement(
    aid: str, doc: Any, tags: dict[str, list[str]], release: Release | None = None
) -> Advancement:
    if not isinstance(doc, dict) or not isinstance(doc.get("criteria"), dict):
        raise ValueError("missing criteria")
    criteria: dict[str, Criterion] = {}
    for name, raw in doc["criteria"].items():
        if not isinstance(raw, dict) or not isinstance(raw.get("trigger"), str):
            raise ValueError(f"criterion {name} has no trigger")
        crit = Criterion(_full(raw["trigger"]))
        conditions = raw.get("conditions", {})
        if not isinstance(conditions, dict):
            raise ValueError(f"criterion {name}: conditions must be an object")
        if crit.trigger == INTERACT_TRIGGER:
            crit.unsupported = tuple(sorted(k for k in conditions if k not in ("entity", "player")))
            if "entity" in conditions:
                crit.entity = _entity_condition(conditions["entity"], tags)
            if "player" in conditions:
                crit.player = _player_condition(conditions["player"], tags, release)
        else:
            crit.unsupported = ("trigger",)
        criteria[name] = crit
    requirements = doc.get("requirements")
    if requirements is None:
        requirements = [[name] for name in criteria]  # AdvancementRequirements.allOf
    elif not (
        isinstance(requirements, list)
        and all(isinstance(g, list) and all(c in criteria for c in g) for g in requirements)
    ):
        raise ValueError("bad requirements")
    rewards = doc.get("rewards", {})
    function = rewards.get("function") if isinstance(rewards, dict) else None
    return Advancement(
        aid,
        criteria,
        [list(g) for g in requirements],
        _full(function) if isinstance(function, str) else None,
        "display" in doc,
    )


def load_content(
    packs: list[PackInfo],
    check_line: Callable[[str], str | None] | None = None,
    folders: PackFolders = _SINGULAR,
    release: Release | None = None,
) -> Content:
    """Reload the selected packs' content, later packs overriding earlier ones.

    ``check_line`` parses one command and returns its error (a function whose line does not
    parse is not loaded, as ServerFunctionLibrary logs and skips it). ``folders`` are the
    release's (the plural ones before 1.21; files elsewhere are not read).
    """
    content = Content()
    all_files = [p.files() for p in packs]
    for files in all_files:
        _merge_tags(content.entity_type_tags, files, folders.entity_type_tags)
        _merge_tags(content.function_tags, files, folders.function_tags)
    for files in all_files:
        for fid, data in _entries(files, folders.function, ".mcfunction"):
            try:
                lines = function_lines(data.decode("utf-8"))
                for n, line in enumerate(lines, 1):
                    if line.startswith("$"):  # macro lines are parsed when instantiated
                        continue
                    error = check_line(line) if check_line is not None else None
                    if error is not None:
                        raise ValueError(f"Whilst parsing command on line {n}: {error}")
            except (ValueError, UnicodeDecodeError) as ex:
                content.errors.append(f"Failed to load function {fid}: {ex}")
                logger.error("Failed to load function %s: %s", fid, ex)
                content.functions.pop(fid, None)
                continue
            content.functions[fid] = lines
        for aid, data in _entries(files, folders.advancement, ".json"):
            try:
                doc = json.loads(data.decode("utf-8"))
                adv = _advancement(aid, doc, content.entity_type_tags, release)
            except (ValueError, UnicodeDecodeError) as ex:
                content.errors.append(f"Parsing error loading advancement {aid}: {ex}")
                logger.error("Parsing error loading custom advancement %s: %s", aid, ex)
                content.advancements.pop(aid, None)
                continue
            content.advancements[aid] = adv
    return content
