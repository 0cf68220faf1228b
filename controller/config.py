"""The typed configuration (`config/pipes.yaml`), its lookup, and its error report.

Every problem in a file is reported at once, each with its path
(``worlds.lobby.size: must be two integers 3..128``); the CLI exits with code 3.
"""

from __future__ import annotations

import ipaddress
import os
import re
import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from controller.errors import ConfigError, UsageError
from controller.versions import Release, UnsupportedVersion, release

__all__ = [
    "EVERYONE",
    "default_config",
    "ROOM_NAME",
    "JAVA_NAME",
    "valid_player_name",
    "BUILD_MIN_Y",
    "BUILD_MAX_Y",
    "DEFAULT_MAP_ID_BASE",
    "ServerConfig",
    "RecordsConfig",
    "SERVER_NAME",
    "WinConfig",
    "HintConfig",
    "check_win_command",
    "WorldConfig",
    "PaintConfig",
    "Config",
    "locate_config",
    "load_config",
    "parse_config",
    "default_config_text",
    "CONFIG_VERSION",
    "config_candidates",
    "weak_password",
    "DEFAULT_STATE_DIR",
    "resolve_state_dir",
    "systemd_state_directory",
]

ROOM_NAME = re.compile(r"[a-z0-9_-]{1,32}")
JAVA_NAME = re.compile(r"[A-Za-z0-9_]{3,16}")
BEDROCK_BASE = re.compile(r"[A-Za-z0-9_]{1,16}")
EVERYONE = "*"  # `restart_by: ["*"]`: every player may restart (not an account name)
NAME_PREFIX = re.compile(r"[.*+-]")  # Floodgate's prefixes: controller/world/names.py
RESOURCE_ID = re.compile(r"([a-z0-9_.-]{1,64}:)?[a-z0-9_./-]{1,128}")
SOUND_ID = re.compile(r"[a-z0-9_.-]{1,64}:[a-z0-9_./-]{1,128}")
BLOCK_ID = re.compile(r"([a-z0-9_.-]+:)?[a-z0-9_./-]+")
WIN_PLACEHOLDERS = ("time", "moves", "room")
MESSAGE_MAX = 256
BUILD_MIN_Y = -64
BUILD_MAX_Y = 319
DEFAULT_MAP_ID_BASE = 1_000_000
DEFAULT_CONFIG = Path("config/pipes.yaml")
DEFAULT_STATE_DIR = "state"
SERVER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")  # a server's name in the records store
"""The default `state_dir`; under systemd's `StateDirectory=` it names that directory itself."""
CONFIG_VERSION = 1
MIN_PASSWORD_LENGTH = 12
_WEAK_PASSWORDS = {"password", "changeme", "minecraft", "secret", "admin", "rcon"}


def weak_password(password: str) -> bool:
    """Shorter than 12 characters, or a well-known default (`password`, `minecraft`, …)."""
    return len(password) < MIN_PASSWORD_LENGTH or password.lower() in _WEAK_PASSWORDS


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ServerConfig(_Model):
    """One Minecraft server reached over RCON."""

    host: str = "127.0.0.1"
    port: int = Field(25575, ge=1, le=65535)
    password_env: str | None = None
    password_file: str | None = None
    password: str | None = Field(None, repr=False)
    version: str | None = None
    minecraft_version: str | None = None  # the old name of `version` (a warning says so)
    timeout: float = Field(5.0, gt=0, le=120)
    detect: Literal["auto", "trigger", "scan"] = "auto"

    @field_validator("version", "minecraft_version", mode="before")
    @classmethod
    def _supported_release(cls, value: object) -> object:
        """A release pipesctl serves, written as a string (YAML reads `1.20` as 1.2)."""
        if value is None:
            return None
        if not isinstance(value, str):
            raise ValueError(f'write the release in quotes, e.g. "1.21.4" (got {value!r})')
        try:
            release(value)
        except UnsupportedVersion as exc:  # its message names the supported range
            raise ValueError(str(exc)) from None
        return value.strip()

    @model_validator(mode="after")
    def _one_version(self) -> ServerConfig:
        if self.version and self.minecraft_version:
            if release(self.version) != release(self.minecraft_version):
                raise ValueError(
                    f"version {self.version!r} and minecraft_version {self.minecraft_version!r} "
                    "disagree; keep `version` (minecraft_version is its old name)"
                )
        return self

    @property
    def release(self) -> Release | None:
        """The configured release (`version`, or the old `minecraft_version`); None: detect it
        on connect (docs/server-behaviour.md, "Versions: detecting the version")."""
        name = self.version or self.minecraft_version
        return None if name is None else release(name)

    def resolve_password(self, name: str = "") -> str:
        """The password from the environment, a file or (discouraged) inline; never logged."""
        where = f"servers.{name}" if name else "server"
        found = _secret(where, self.password_env, self.password_file)
        if found is not None:
            return found
        if self.password:
            return self.password
        raise ConfigError([f"{where}: set password_env or password_file"])


def _secret(where: str, env: str | None, file: str | None) -> str | None:
    """A password from `$env` or `file` (None when neither is set); an unset variable or an
    unreadable or empty file is a ConfigError naming them, never the password."""
    if env:
        value = os.environ.get(env)
        if value:
            return value
        raise ConfigError([f"{where}.password_env: ${env} is not set or empty"])
    if file:
        try:
            raw = Path(file).expanduser().read_bytes()
        except OSError as exc:
            raise ConfigError(
                [f"{where}.password_file: cannot read {file} ({exc.strerror})"]
            ) from None
        try:
            value = raw.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            problem = f"{file} is not UTF-8 at byte {exc.start}"
            raise ConfigError([f"{where}.password_file: {problem}"]) from None
        if value:
            return value
        raise ConfigError([f"{where}.password_file: {file} is empty"])
    return None


class RecordsConfig(_Model):
    """Where the records go (docs/records.md): absent, SQLite in the state directory; `url`, a
    PostgreSQL database shared by a network of servers."""

    url: str | None = None
    password_env: str | None = None
    password_file: str | None = None
    server_name: str | None = None
    refresh_s: float = Field(10.0, ge=1, le=3600)

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        """A `postgresql://user@host:port/database` URL without a password (never echoed)."""
        if value is None:
            return None
        try:
            parts = urlsplit(value.strip())
            port = parts.port
        except ValueError:
            raise ValueError(
                "is not a URL with a valid port (postgresql://user@host:5432/db)"
            ) from None
        if parts.scheme not in ("postgresql", "postgres"):
            raise ValueError(
                "must be a postgresql://user@host:port/database URL (leave `records` out to keep "
                "the records in SQLite in the state directory)"
            )
        if parts.password is not None or "password" in parse_qs(parts.query):
            raise ValueError(
                "a password inside the URL is refused (anyone who reads the file or a log would "
                "see it); put it in password_env or password_file"
            )
        if not parts.hostname or not parts.path.strip("/") or port == 0:
            raise ValueError("needs a host and a database: postgresql://user@host:5432/pipes")
        return value.strip()

    @field_validator("server_name")
    @classmethod
    def _server_name(cls, value: str | None) -> str | None:
        if value is not None and not SERVER_NAME.fullmatch(value):
            raise ValueError("must be 1 to 32 letters, digits, '.', '_' or '-'")
        return value

    @model_validator(mode="after")
    def _password_for_postgresql(self) -> RecordsConfig:
        if self.url is None and (self.password_env or self.password_file):
            raise ValueError("password_env and password_file go with a PostgreSQL `url`")
        return self

    def resolve_password(self) -> str | None:
        """The database password from the environment or a file (None: none configured, the
        server may trust the host or use ~/.pgpass); never logged."""
        return _secret("records", self.password_env, self.password_file)


def _plain_text(value: str, limit: int) -> str:
    """Refuse text a command cannot carry: control characters, lone surrogates, over-long."""
    if len(value) > limit:
        raise ValueError(f"must be at most {limit} characters (it has {len(value)})")
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in value):
        raise ValueError("must not contain control characters (newlines, tabs, ...)")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode text") from None
    return value


def valid_player_name(name: str, prefixes: tuple[str, ...] | list[str] = (".", "+", "-")) -> bool:
    """A Java account name (`[A-Za-z0-9_]{3,16}`) or a Floodgate name: a configured prefix and
    a Bedrock name, 16 characters in all."""
    if JAVA_NAME.fullmatch(name):
        return True
    for prefix in prefixes:
        if name.startswith(prefix) and len(name) <= 16:
            if BEDROCK_BASE.fullmatch(name[len(prefix) :]):
                return True
    return False


WIN_COMMAND_PLACEHOLDERS = frozenset({"room", "players", "player", "time", "moves"})
WIN_COMMAND_MAX = 512  # leaves room for 20 names within the 1446-byte RCON limit


def check_win_command(value: str) -> str:
    """`on_win.command`: one command line (a leading `/` is dropped), at most 512 characters,
    no control characters, placeholders only from {room} {players} {player} {time} {moves}
    without format specs. Names are substituted later, and only valid account names."""
    command = value.strip()
    command = command[1:].lstrip() if command.startswith("/") else command
    if not command:
        raise ValueError("must be a command (or leave it out)")
    if len(command) > WIN_COMMAND_MAX:
        raise ValueError(f"must be at most {WIN_COMMAND_MAX} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in command):
        raise ValueError("must be a single line without control characters")
    try:
        fields = list(string.Formatter().parse(command))
    except ValueError as exc:
        raise ValueError(
            f"has unbalanced braces ({exc}); write {{{{ and }}}} for literal ones"
        ) from None
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        if name not in WIN_COMMAND_PLACEHOLDERS or spec or conversion:
            known = " ".join("{" + p + "}" for p in sorted(WIN_COMMAND_PLACEHOLDERS))
            raise ValueError(f"unknown placeholder {{{name}}}; known: {known}")
    return command


class WinConfig(_Model):
    """What happens when a room is solved."""

    message: str = "The water flows! Solved in {time} with {moves} moves."
    sound: str = "minecraft:ui.toast.challenge_complete"
    next_puzzle_after_s: float = Field(10.0, ge=0, le=3600)
    sidebar: bool = False
    waves_s: float = Field(2.0, ge=0, le=10)
    command: str | None = None

    @field_validator("command")
    @classmethod
    def _command(cls, value: str | None) -> str | None:
        return None if value is None else check_win_command(value)

    @field_validator("message")
    @classmethod
    def _message(cls, value: str) -> str:
        _plain_text(value, MESSAGE_MAX)
        try:
            fields = list(string.Formatter().parse(value))
        except ValueError as exc:
            why = f"not a valid message template ({exc}); write {{{{ for a brace"
            raise ValueError(why) from None
        known = ", ".join("{" + p + "}" for p in WIN_PLACEHOLDERS)
        for _, name, spec, conversion in fields:
            if name is None:
                continue
            if name not in WIN_PLACEHOLDERS or spec or conversion:
                raise ValueError(f"unknown placeholder {{{name}}} (known: {known})")
        return value

    @field_validator("sound")
    @classmethod
    def _sound(cls, value: str) -> str:
        if not RESOURCE_ID.fullmatch(value):
            raise ValueError("must be a sound id like minecraft:ui.toast.challenge_complete")
        return value


class HintConfig(_Model):
    """Hints players ask for with `/trigger pipes_hint` near the room."""

    enabled: bool = True
    cooldown_s: float = Field(30.0, ge=0, le=3600)
    glow_s: float = Field(3.0, ge=0, le=60)


# The sound a player's turn of a frame plays on vanilla, per frame kind (ItemFrame and
# GlowItemFrame getRotateItemSound: docs/server-behaviour.md, "Item frames: sounds").
ROTATE_SOUNDS = {
    "item_frame": "minecraft:entity.item_frame.rotate_item",
    "glow_item_frame": "minecraft:entity.glow_item_frame.rotate_item",
}


class SoundsConfig(_Model):
    """Sounds the room plays itself (its frames are Silent); `null` turns one off. `turn`
    left out is the rotate sound of the room's frame kind (`WorldConfig.turn_sound`)."""

    turn: str | None = ROTATE_SOUNDS["item_frame"]
    water: str | None = "minecraft:block.pointed_dripstone.drip_water"
    hear_distance: float = Field(16.0, gt=0, le=128)

    @field_validator("turn", "water")
    @classmethod
    def _sound_id(cls, value: str | None) -> str | None:
        if value is not None and not SOUND_ID.fullmatch(value):
            raise ValueError("must be a sound id like minecraft:block.note_block.bell")
        return value


class PaintConfig(_Model):
    """The paint-room keys (`worlds.<name>.paint`, only with `kind: paint`)."""

    blocks: tuple[str, str] = ("minecraft:white_concrete", "minecraft:blue_concrete")
    orientation: Literal["floor", "wall"] = "floor"
    target: Literal["above", "left", "none"] = "above"
    generator: Literal["walk", "strokes"] = "walk"
    cells: int | None = Field(None, ge=1)
    par: int | None = Field(None, ge=0)
    message: str = "Painted in {time} with {strokes} strokes (par {par})."

    @field_validator("blocks", mode="before")
    @classmethod
    def _blocks(cls, value: Any) -> Any:
        ok = (
            isinstance(value, list | tuple)
            and len(value) == 2
            and all(isinstance(v, str) and BLOCK_ID.fullmatch(v) for v in value)
        )
        if not ok:
            raise ValueError("must be two block ids [colour 0, colour 1] like minecraft:stone")
        first, second = (v if ":" in v else f"minecraft:{v}" for v in value)
        if first == second:
            raise ValueError("the two colours must be different blocks")
        return first, second


class WorldConfig(_Model):
    """One puzzle room."""

    kind: Literal["pipes", "paint"] = "pipes"
    paint: PaintConfig | None = None
    server: str = "main"
    dimension: str = "minecraft:overworld"
    origin: tuple[int, int, int]
    size: tuple[int, int] = (15, 15)
    mode: Literal["tree", "sink"] = "tree"
    generator: Literal["prim", "eller", "walk", "growing_tree"] = "prim"
    branching: float = Field(0.5, ge=0, le=1)
    coverage: float = Field(0.6, ge=0, le=1)
    crosses: float = Field(0.0, ge=0, le=1)  # sink rooms: the chance the route crosses itself
    holes: bool = False  # sink rooms: tiles off the route are holes (no frame), not decoys
    unique: bool = True
    difficulty: Literal["easy", "normal", "hard", "expert"] = "normal"
    seed: int | Literal["daily"] | None = None
    map_id_base: int = Field(DEFAULT_MAP_ID_BASE, ge=0, le=2_000_000_000)
    frame: Literal["item_frame", "glow_item_frame"] = "item_frame"
    invisible_frames: bool = False
    clear_above: int = Field(3, ge=0, le=32)
    poll_interval_ms: int = Field(50, ge=10, le=10_000)
    poll_scope: Literal["near_players", "all"] = "near_players"
    poll_reach: float | None = Field(None, gt=0, le=68)  # None: the server's reach rule
    wake_distance: float = Field(48.0, ge=0, le=512)
    audit_interval_s: float = Field(300.0, ge=0)
    liveness_interval_s: float = Field(1.0, ge=0, le=60)
    # No longer used: the block map is compared with its shadow copy instead of a sliced audit
    # (docs/reliability.md, "Block check"); accepted so that older configurations still load.
    block_audit_cycle_s: float | None = Field(None, ge=0, le=3600)
    on_win: WinConfig = WinConfig()
    sounds: SoundsConfig = SoundsConfig()
    name_prefixes: list[str] = Field(default_factory=lambda: [".", "+", "-"])
    reset_by: list[str] = Field(default_factory=list)
    # who may start the puzzle over in game: account names, or ["*"] for everyone
    restart_by: list[str] = Field(default_factory=list)
    undo: bool = True  # `/trigger pipes_undo` takes back the asker's own last turn
    hint: HintConfig = HintConfig()
    stats: bool = True
    leaderboard: Literal["solves", "best_time"] = "solves"

    @model_validator(mode="after")
    def _difficulty(self) -> WorldConfig:
        """A level other than normal grades unique tree boards (docs/puzzle.md, "Difficulty
        levels (`difficulty: easy | normal | hard | expert`)")."""
        if self.difficulty != "normal":
            if self.mode == "sink":
                raise ValueError(
                    f"difficulty {self.difficulty} applies to tree rooms, not sink rooms"
                )
            if not self.unique:
                raise ValueError(f"difficulty {self.difficulty} needs unique: true")
        return self

    def turn_sound(self) -> str | None:
        """The sound played at a turned frame: `sounds.turn` when given, else the one vanilla
        plays for a turn of this room's frame kind (glow frames have their own)."""
        if "turn" in self.sounds.model_fields_set:
            return self.sounds.turn
        return ROTATE_SOUNDS[self.frame]

    @field_validator("dimension")
    @classmethod
    def _dimension(cls, value: str) -> str:
        if not RESOURCE_ID.fullmatch(value):
            raise ValueError("must be a dimension id like minecraft:overworld")
        return value

    @field_validator("name_prefixes")
    @classmethod
    def _prefixes(cls, value: list[str]) -> list[str]:
        for prefix in value:
            if not NAME_PREFIX.fullmatch(prefix):
                raise ValueError(f"{prefix!r}: a Floodgate prefix is one of . * + -")
        return value

    @field_validator("reset_by", "restart_by")
    @classmethod
    def _names(cls, value: list[str], info: ValidationInfo) -> list[str]:
        prefixes = info.data.get("name_prefixes", [])
        if info.field_name == "restart_by" and EVERYONE in value:
            if value != [EVERYONE]:
                raise ValueError(f'"{EVERYONE}" (everyone) stands alone: ["{EVERYONE}"]')
            return value
        bad = [n for n in value if not valid_player_name(n, prefixes)]
        if bad:
            raise ValueError(
                f"not a player name: {', '.join(repr(n) for n in bad)} (Java names are "
                "3..16 of A-Z a-z 0-9 _; Bedrock names through Floodgate start with one of "
                f"name_prefixes {prefixes})"
            )
        return value

    @field_validator("size", mode="before")
    @classmethod
    def _size(cls, value: Any) -> Any:
        ok = (
            isinstance(value, list | tuple)
            and len(value) == 2
            and all(type(v) is int and 3 <= v <= 128 for v in value)
        )
        if not ok:
            raise ValueError("must be two integers 3..128")
        return value

    @field_validator("origin", mode="before")
    @classmethod
    def _origin(cls, value: Any) -> Any:
        ok = (
            isinstance(value, list | tuple)
            and len(value) == 3
            and all(type(v) is int and abs(v) < 29_999_000 for v in value)
        )
        if not ok:
            raise ValueError("must be three integers [x, y, z]")
        return value

    @property
    def width(self) -> int:
        """Tiles east-west."""
        return self.size[0]

    @property
    def height(self) -> int:
        """Tiles north-south."""
        return self.size[1]

    @property
    def paint_keys(self) -> PaintConfig:
        """The paint keys (their defaults when the section is left out)."""
        return self.paint or PaintConfig()


class Config(_Model):
    """The whole file."""

    version: int = CONFIG_VERSION
    state_dir: str = DEFAULT_STATE_DIR
    metrics_port: int | None = Field(None, ge=1, le=65535)  # Prometheus metrics (off: None)
    metrics_bind: str = "127.0.0.1"
    web_port: int | None = Field(None, ge=1, le=65535)  # the read-only web page (off: None)
    web_bind: str = "127.0.0.1"
    servers: dict[str, ServerConfig] = Field(default_factory=dict)
    worlds: dict[str, WorldConfig] = Field(default_factory=dict)
    records: RecordsConfig = Field(default_factory=RecordsConfig)
    path: str = Field("", exclude=True)
    warnings: tuple[str, ...] = Field((), exclude=True)

    @field_validator("records", mode="before")
    @classmethod
    def _records_url(cls, value: Any) -> Any:
        """`records: postgresql://…` is short for `records: {url: postgresql://…}`."""
        return {"url": value} if isinstance(value, str) else value

    @field_validator("metrics_bind", "web_bind")
    @classmethod
    def _bind_address(cls, value: str) -> str:
        """An IPv4 or IPv6 address to listen on (`0.0.0.0` / `::`: every interface)."""
        try:
            return str(ipaddress.ip_address(value.strip()))
        except ValueError:
            raise ValueError(
                f"{value!r} is not an IP address (127.0.0.1 listens on loopback only, "
                "0.0.0.0 on every interface)"
            ) from None

    @model_validator(mode="after")
    def _distinct_ports(self) -> Config:
        if self.metrics_port is not None and self.metrics_port == self.web_port:
            raise ValueError(f"metrics_port and web_port are both {self.web_port}; use two ports")
        return self

    def world(self, name: str) -> WorldConfig:
        """A configured room; an unknown name is a usage error that lists the known ones."""
        if name not in self.worlds:
            known = ", ".join(sorted(self.worlds)) or "none"
            where = f" in {self.path}" if self.path else ""
            raise UsageError(f"--world {name}: no such world{where} (known: {known})")
        return self.worlds[name]


def _format_loc(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(p) for p in loc)


def _clean(msg: str) -> str:
    return msg.removeprefix("Value error, ")


def _cross_checks(
    servers: dict[str, ServerConfig],
    worlds: dict[str, WorldConfig],
    raw_worlds: dict[str, Any],
    known_servers: set[str],
) -> list[str]:
    problems: list[str] = []
    for name in raw_worlds:
        if not ROOM_NAME.fullmatch(str(name)):
            problems.append(f"worlds.{name}: room names must match [a-z0-9_-]{{1,32}}")
    boxes: list[tuple[str, WorldConfig]] = []
    for name, world in worlds.items():
        if world.server not in known_servers:
            problems.append(f"worlds.{name}.server: unknown server {world.server!r}")
        problems += _kind_checks(name, world)
        _, (_, low, _), (_, high, _) = _box(world)
        if low < BUILD_MIN_Y or high > BUILD_MAX_Y:
            problems.append(
                f"worlds.{name}.origin: the room spans y {low}..{high}, outside the build height "
                f"{BUILD_MIN_Y}..{BUILD_MAX_Y}"
            )
        for other_name, other in boxes:
            if other.server != world.server or other.dimension != world.dimension:
                continue
            if _boxes_overlap(world, other):
                problems.append(f"worlds.{name}: overlaps room {other_name!r}")
        boxes.append((name, world))
    return problems


_PIPES_ONLY = ("mode", "generator", "branching", "coverage", "unique", "crosses", "holes")
_SINK_ONLY = ("crosses", "holes")
_TREE_ONLY = ("generator", "branching", "unique")  # the sink mode's route takes `coverage` only


def _kind_checks(name: str, world: WorldConfig) -> list[str]:
    """Keys that belong to the other room kind, and paint keys that do not fit the canvas."""
    if world.kind == "pipes":
        if world.paint is not None:
            return [f"worlds.{name}.paint: only for rooms with `kind: paint`"]
        if world.mode == "sink":
            return [
                f"worlds.{name}.{key}: only for `mode: tree` (a sink room's route takes "
                "`coverage` only)"
                for key in _TREE_ONLY
                if key in world.model_fields_set
            ]
        return [
            f"worlds.{name}.{key}: only for `mode: sink` (crosses and holes are sink-room pieces)"
            for key in _SINK_ONLY
            if key in world.model_fields_set
        ]
    problems = [
        f"worlds.{name}.{key}: only for pipes rooms (paint rooms take `paint.generator`)"
        for key in _PIPES_ONLY
        if key in world.model_fields_set
    ]
    problems += [
        f"worlds.{name}.{key}: only for pipes rooms"
        for key in ("restart_by", "undo")
        if key in world.model_fields_set
    ]
    if "waves_s" in world.on_win.model_fields_set:
        problems.append(f"worlds.{name}.on_win.waves_s: only for pipes rooms (the water's waves)")
    paint = world.paint_keys
    cells = world.width * world.height
    if paint.cells is not None and paint.generator != "walk":
        problems.append(f"worlds.{name}.paint.cells: only for the walk generator")
    elif paint.cells is not None and paint.cells > cells:
        problems.append(f"worlds.{name}.paint.cells: must be 1..{cells} for this size")
    top = world.width + world.height - 1
    if paint.par is not None and paint.generator != "strokes":
        problems.append(f"worlds.{name}.paint.par: only for the strokes generator")
    elif paint.par is not None and paint.par > top:
        problems.append(f"worlds.{name}.paint.par: must be 0..{top} for this size")
    return problems


def _box(w: WorldConfig) -> tuple[str, tuple[int, int, int], tuple[int, int, int]]:
    """A room's kind and the inclusive box it occupies (pipes: footprint + border, y0-4 ..
    y0+clear_above; paint: docs/world-format.md, "Paint rooms")."""
    x0, y0, z0 = w.origin
    if w.kind == "paint":
        from controller.world.paint.geometry import Placement

        paint = w.paint_keys
        lo, hi = Placement(
            "room", w.origin, w.width, w.height, w.dimension, paint.orientation, paint.target,
            w.clear_above,
        ).bounds()  # fmt: skip
        return w.kind, lo, hi
    return w.kind, (x0 - 1, y0 - 4, z0 - 1), (x0 + w.width, y0 + w.clear_above, z0 + w.height)


def _boxes_overlap(a: WorldConfig, b: WorldConfig) -> bool:
    """Whether two rooms' volumes intersect."""
    _, alo, ahi = _box(a)
    _, blo, bhi = _box(b)
    return all(alo[k] <= bhi[k] and blo[k] <= ahi[k] for k in range(3))


def _warnings(servers: dict[str, ServerConfig], records: RecordsConfig) -> list[str]:
    """One line per inline or weak password (the password itself is never shown), per
    server configured with the old key `minecraft_version`, and for a shared records store
    without `records.server_name`."""
    out = []
    if records.url is not None and records.server_name is None:
        out.append(
            "records.server_name: not set, so this host's rooms are recorded under their "
            "server's key (" + ", ".join(sorted(servers)) + "); another host with the same key "
            "would share its name in the network: set a name unique in the network"
        )
    for name, server in servers.items():
        if server.minecraft_version is not None:
            out.append(
                f"servers.{name}.minecraft_version: the old name of `version`; rename it (or "
                "drop it: the version is detected on connect)"
            )
        if server.password and not (server.password_env or server.password_file):
            out.append(
                f"servers.{name}.password: an inline password is readable by anyone who can "
                "read the file; prefer password_env or password_file"
            )
            if weak_password(server.password):
                out.append(
                    f"servers.{name}.password: weak password (fewer than {MIN_PASSWORD_LENGTH} "
                    "characters or a common word); use a long random one"
                )
    return out


def _errors(exc: ValidationError, prefix: str) -> list[str]:
    out = []
    for err in exc.errors():
        loc = ".".join(p for p in (prefix, _format_loc(err["loc"])) if p)
        out.append(f"{loc or '(top level)'}: {_clean(err['msg'])}")
    return out


def parse_config(data: Any, path: str = "") -> Config:
    """Validate a loaded YAML document; raise ConfigError listing every problem."""
    expected = (
        f"expected `version: {CONFIG_VERSION}` with `servers:` and `worlds:` sections "
        "(`pipesctl init` writes a commented example)"
    )
    if data is None:
        raise ConfigError([f"(top level): the file is empty; {expected}"], path)
    if not isinstance(data, dict):
        raise ConfigError([f"(top level): must be a mapping; {expected}"], path)
    problems: list[str] = []
    version = data.get("version", CONFIG_VERSION)
    if type(version) is not int or version != CONFIG_VERSION:
        problems.append(
            f"version: {version!r} is not a configuration version this pipesctl reads "
            f"(it reads version {CONFIG_VERSION})"
        )
    if not data.get("servers") and not data.get("worlds"):
        problems.append(f"(top level): no servers and no worlds are configured; {expected}")
    sections: dict[str, dict[str, Any]] = {}
    for section in ("servers", "worlds"):
        raw = data.get(section) or {}
        if not isinstance(raw, dict):
            problems.append(f"{section}: must be a mapping of names to settings")
            raw = {}
        sections[section] = raw
    servers: dict[str, ServerConfig] = {}
    for name, raw in sections["servers"].items():
        try:
            servers[str(name)] = ServerConfig.model_validate(raw or {})
        except ValidationError as exc:
            problems += _errors(exc, f"servers.{name}")
    worlds: dict[str, WorldConfig] = {}
    for name, raw in sections["worlds"].items():
        try:
            worlds[str(name)] = WorldConfig.model_validate(raw or {})
        except ValidationError as exc:
            problems += _errors(exc, f"worlds.{name}")
    rest = {k: v for k, v in data.items() if k not in ("servers", "worlds", "version")}
    try:
        top = Config.model_validate({**rest, "path": path})
    except ValidationError as exc:
        problems += _errors(exc, "")
        top = None
    known = {str(name) for name in sections["servers"]}
    problems += _cross_checks(servers, worlds, sections["worlds"], known)
    if problems or top is None:
        raise ConfigError(problems, path)
    servers = _env_overrides(servers)
    return top.model_copy(
        update={
            "servers": servers,
            "worlds": worlds,
            "warnings": tuple(_warnings(servers, top.records)),
        }
    )


def _env_name(server: str) -> str:
    return re.sub(r"[^A-Z0-9]", "_", server.upper())


def _env_overrides(servers: dict[str, ServerConfig]) -> dict[str, ServerConfig]:
    """`PIPESCTL_<SERVER>_HOST`/`_PORT` per server; `PIPESCTL_HOST`/`_PORT` when there is only
    one server. The environment wins over the file."""
    out = {}
    for name, server in servers.items():
        update: dict[str, Any] = {}
        for key in ("host", "port"):
            names = [f"PIPESCTL_{_env_name(name)}_{key.upper()}"]
            if len(servers) == 1:
                names.append(f"PIPESCTL_{key.upper()}")
            value = next((os.environ[n] for n in names if os.environ.get(n)), None)
            if value is None:
                continue
            if key == "port":
                if not value.isdigit() or not 1 <= int(value) <= 65535:
                    raise ConfigError([f"${names[0]} or ${names[-1]}: port must be 1..65535"])
                update[key] = int(value)
            else:
                update[key] = value
        out[name] = server.model_copy(update=update) if update else server
    return out


def config_candidates() -> list[Path]:
    """Where the configuration is looked for when neither `--config` nor `$PIPESCTL_CONFIG`
    names it: `./config/pipes.yaml`, `$XDG_CONFIG_HOME/pipesctl/pipes.yaml`
    (`~/.config` by default), `/etc/pipesctl/pipes.yaml`."""
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return [DEFAULT_CONFIG, Path(xdg) / "pipesctl" / "pipes.yaml", Path("/etc/pipesctl/pipes.yaml")]


def locate_config(explicit: str | os.PathLike[str] | None = None) -> Path:
    """`--config PATH`, then `$PIPESCTL_CONFIG`, then the first existing file of
    `config_candidates()` (`./config/pipes.yaml` when none exists)."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("PIPESCTL_CONFIG")
    if env:
        return Path(env)
    return next((p for p in config_candidates() if p.is_file()), DEFAULT_CONFIG)


def load_config(explicit: str | os.PathLike[str] | None = None) -> Config:
    """Find, read and validate the configuration."""
    path = locate_config(explicit)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        looked = (
            ""
            if explicit or os.environ.get("PIPESCTL_CONFIG")
            else (" (looked in " + ", ".join(str(p) for p in config_candidates()) + ")")
        )
        raise ConfigError(
            [f"{path}: no such file{looked}; run `pipesctl init` to write a commented one"],
            str(path),
        ) from None
    except OSError as exc:
        raise ConfigError([f"{path}: cannot read ({exc.strerror})"], str(path)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        utf16 = " (it looks like UTF-16)" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
        raise ConfigError(
            [f"{path}:{line}: not UTF-8 at byte {exc.start}{utf16}; save the file as UTF-8"],
            str(path),
        ) from None
    try:
        data = yaml.safe_load(text)
    except RecursionError:
        raise ConfigError([f"{path}: nested too deeply"], str(path)) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError([f"{where}: {problem}"], str(path)) from None
    cfg = parse_config(data, str(path))
    return cfg.model_copy(update={"state_dir": str(resolve_state_dir(cfg.state_dir, path))})


def resolve_state_dir(
    state_dir: str, config_path: Path, env: Mapping[str, str] | None = None
) -> Path:
    """The state directory. An absolute path is kept. A relative one is taken from
    `$STATE_DIRECTORY` when systemd sets it (`StateDirectory=`, the first of its colon-separated
    paths; docs/systemd.md, "State directory"), the default `state` naming that directory itself
    and any other relative value a folder inside it; without it, from the config file's folder,
    so the same configuration finds the same state (and lock) from any working directory."""
    p = Path(state_dir).expanduser()
    if p.is_absolute():
        return p
    base = systemd_state_directory(os.environ if env is None else env)
    if base is not None:
        return base if p == Path(DEFAULT_STATE_DIR) else base / p
    return config_path.resolve().parent / p


def systemd_state_directory(env: Mapping[str, str]) -> Path | None:
    """The first path of `$STATE_DIRECTORY` (systemd joins several with `:`), when absolute."""
    first = env.get("STATE_DIRECTORY", "").split(":")[0]
    return Path(first) if first and os.path.isabs(first) else None


def default_config_text() -> str:
    """The commented default configuration written by `pipesctl init`."""
    return (Path(__file__).parent / "resources" / "pipes.yaml").read_text(encoding="utf-8")


def default_config() -> Config:
    """The built-in default configuration (what `pipesctl init` writes), parsed."""
    return parse_config(yaml.safe_load(default_config_text()), "(built-in default)")
