"""`pipesctl doctor`: why a room will not work, found before players find it, each with a fix.

Doctor never changes the world. The only thing it may add are chunk tickets (`forceload add`
for the room's chunks that were not force-loaded), and it removes exactly those again. The
facts each check relies on are in docs/admin-checks.md.

Command budget per room (C = chunks of the room, L = layers of its box, ≤ 2 per layer when a
layer is larger than `max_block_modifications`): 1 flavour probe, 1 version probe (up to 3
before 1.21.6: docs/server-behaviour.md, "Versions: detecting the version"), 3 gamerules, C queries,
≤ 2 C forceloads, ≤ C·k `execute if loaded` (k polls while chunks load), 1 entity count,
L (or 2 L) block comparisons. A 15×15 room: about 25 commands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from controller.config import BUILD_MAX_Y, Config, ServerConfig, WorldConfig
from controller.errors import ExitCode, PipesError, RconAuthError, RconError
from controller.runtime.clock import SYSTEM_CLOCK, Clock, utc_iso
from controller.runtime.control import Health, is_running, read_health
from controller.runtime.link import CommandClient, Link
from controller.runtime.paint.room import PaintRoom
from controller.runtime.pipes.room import PipesRoom, picture_ids
from controller.runtime.state import (
    CROSS_FORMAT,
    LOCK_FORMAT,
    LOOP_FORMAT,
    SHADOW_FORMAT,
    SILENT_FORMAT,
    SINK_WORLD_FORMAT,
    WORLD_FORMAT,
    RoomState,
    state_path,
)
from controller.versions import SUPPORTED_RANGE, Release
from controller.world import commands as cmd
from controller.world import turns
from controller.world.mapids import BRUSH_PICTURES, brush_map_id
from controller.world.replies import forceload_marked, parse_count, parse_gamerule

AnyRoom = PipesRoom | PaintRoom

__all__ = [
    "Check",
    "Report",
    "check_map_files",
    "check_pack_files",
    "check_world_format",
    "diagnose",
    "read_properties",
    "REFERENCE_Y",
]

Connect = Callable[[str, ServerConfig], CommandClient]
Status = Literal["pass", "fail", "skip"]

REFERENCE_Y = BUILD_MAX_Y
"""The layer the room's box is compared with to find foreign blocks: the top of the build
height, air unless someone built up there."""


@dataclass(frozen=True)
class Check:
    """One finding: what was checked, the outcome, what was seen, and the one-line fix."""

    name: str
    status: Status
    detail: str
    fix: str | None = None


@dataclass
class Report:
    """Every check of one room."""

    world: str
    server: str
    checks: list[Check] = field(default_factory=list)
    code: ExitCode = ExitCode.OK

    def add(self, name: str, status: Status, detail: str, fix: str | None = None) -> None:
        """Record a check (a failure makes the exit code an error unless one is set)."""
        self.checks.append(Check(name, status, detail, fix))
        if status == "fail" and self.code == ExitCode.OK:
            self.code = ExitCode.ERROR

    @property
    def ok(self) -> bool:
        """Nothing failed."""
        return all(c.status != "fail" for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        """The `doctor --json` object of the room."""
        return {
            "world": self.world,
            "server": self.server,
            "ok": self.ok,
            "checks": [asdict(c) for c in self.checks],
        }


def read_properties(path: Path) -> dict[str, str]:
    """A `server.properties` file as a dict (Java properties: `key=value`, `#` comments)."""
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line or line[0] in "#!" or "=" not in line:
            continue
        key, _, value = line.partition("=")
        out[key.strip()] = value.strip()
    return out


def diagnose(
    cfg: Config,
    world: str,
    *,
    connect: Connect,
    server_dir: Path | None = None,
    world_dir: Path | None = None,
    clock: Clock = SYSTEM_CLOCK,
) -> Report:
    """Run every check of one room."""
    room_cfg = cfg.world(world)
    server = cfg.servers[room_cfg.server]
    report = Report(world, room_cfg.server)
    props = _check_properties(report, server_dir)
    state_dir = Path(cfg.state_dir)
    if room_cfg.kind == "pipes":
        check_world_format(report, state_path(state_dir, world))
    if is_running(state_dir, world):
        _check_daemon_health(report, state_dir, world, server, clock)
        _check_installed(report, room_cfg, world_dir, _offline_release(report, server, world_dir))
        report.add(
            "server",
            "skip",
            "a daemon runs this room; the server checks need its RCON connection to themselves",
            "stop the daemon to run them (a second connection can swap replies on vanilla)",
        )
        return report
    try:
        client = connect(room_cfg.server, server)
    except RconError as exc:
        auth = isinstance(exc, RconAuthError)
        report.add(
            "rcon",
            "fail",
            str(exc),
            f"set servers.{room_cfg.server}'s password to the server's rcon.password"
            if auth
            else f"enable-rcon=true and rcon.port={server.port} in server.properties, and "
            f"{server.host}:{server.port} reachable from here",
        )
        report.code = ExitCode.AUTH if auth else ExitCode.UNREACHABLE
        _check_installed(report, room_cfg, world_dir, _offline_release(report, server, world_dir))
        return report
    try:
        report.add("rcon", "pass", f"{server.host}:{server.port} answers, password accepted")
        link = _check_version(report, client, room_cfg.server, server)
        _check_installed(
            report,
            room_cfg,
            world_dir,
            link.release if link is not None else _offline_release(report, server, world_dir),
        )
        if link is None:
            return report
        room: AnyRoom = (
            PaintRoom(world, room_cfg, state_dir, clock=clock)
            if room_cfg.kind == "paint"
            else PipesRoom(world, room_cfg, state_dir, clock=clock)
        )
        _check_data_pack(report, link, server)
        _check_gamerules(report, room, link, props)
        with _loaded(report, room, link, clock) as loaded:
            if loaded:
                _check_footprint(report, room, link, state_dir)
    finally:
        close = getattr(client, "close", None)
        if callable(close):
            close()
    return report


def _check_daemon_health(
    report: Report, state_dir: Path, world: str, server: ServerConfig, clock: Clock
) -> None:
    """While a daemon runs the room: its health file answers for RCON, as for `status`."""
    from controller.runtime.admin.status import HEALTH_FRESH_S

    health = read_health(state_dir, world)
    name = report.server
    fresh = health is not None and clock.time() - health.at < HEALTH_FRESH_S
    if health is not None and fresh:
        _version_from_health(report, health, name)
    if health is None or (health.reachable and not fresh):  # a last word "down" still counts
        report.add(
            "rcon",
            "skip",
            f"the daemon running {world} has not reported its connection for {HEALTH_FRESH_S:g} s",
            "look at the daemon's log",
        )
        return
    if health.reachable:
        report.add("rcon", "pass", f"the daemon running {world} reports server {name} reachable")
        return
    since = "" if health.since is None else f" since {utc_iso(health.since)}"
    report.add(
        "rcon",
        "fail",
        f"the daemon running {world} reports server {name} unreachable{since} (it keeps retrying)",
        f"start the server, with enable-rcon=true and rcon.port={server.port}, and "
        f"{server.host}:{server.port} reachable from here; the daemon reconnects by itself",
    )


def _check_properties(report: Report, server_dir: Path | None) -> dict[str, str] | None:
    if server_dir is None:
        for name in ("broadcast-rcon-to-ops", "pause-when-empty-seconds"):
            report.add(name, "skip", "not checked", "pass --server-dir to read server.properties")
        return None
    path = server_dir / "server.properties"
    try:
        props = read_properties(path)
    except OSError as exc:
        report.add(
            "server.properties",
            "fail",
            f"cannot read {path} ({exc.strerror})",
            "check --server-dir",
        )
        return None
    broadcast = props.get("broadcast-rcon-to-ops", "true").lower()
    if broadcast == "false":
        report.add("broadcast-rcon-to-ops", "pass", "false")
    else:
        report.add(
            "broadcast-rcon-to-ops",
            "fail",
            f"{broadcast}: every command the room sends is shown to ops and logged",
            "set broadcast-rcon-to-ops=false in server.properties and restart",
        )
    _check_pause(report, props.get("pause-when-empty-seconds"))
    report.add(
        "enable-command-block",
        "pass",
        f"{props.get('enable-command-block', 'false')} (pipesctl needs no command blocks)",
    )
    return props


def _check_pause(report: Report, pause: str | None) -> None:
    """`pause-when-empty-seconds`: a paused empty server never loads the room's entities. The
    key is absent before 1.21.2, whose servers never pause (docs/server-behaviour.md,
    "Versions: pausing when empty")."""
    name = "pause-when-empty-seconds"
    if pause is None:
        report.add(
            name,
            "skip",
            "not in server.properties: releases before 1.21.2 never pause, and 1.21.2 and later "
            "write it (60) at their first start",
            "on 1.21.2 or later, set pause-when-empty-seconds=-1 in server.properties",
        )
        return
    try:
        paused = int(pause) > 0
    except ValueError:
        paused = True
    if not paused:
        report.add(name, "pass", pause)
        return
    report.add(
        name,
        "fail",
        f"{pause}: an empty server pauses and never loads the room's entities",
        "set pause-when-empty-seconds=-1 in server.properties and restart",
    )


def _offline_release(
    report: Report, server: ServerConfig, world_dir: Path | None
) -> Release | None:
    """The release to check installed files against without the server's word: the configured
    one, else the one that last saved the world's level.dat; None when neither says."""
    if server.release is not None:
        return server.release
    if world_dir is None:
        return None
    from controller.maps.probe import level_release, read_level_info

    level = read_level_info(world_dir)
    if level is None:
        return None
    try:
        return level_release(world_dir, level)
    except PipesError as exc:
        for name in ("map files", "pack files"):
            report.add(name, "fail", str(exc), f"set servers.{report.server}.version")
        return None


def _check_installed(
    report: Report, room_cfg: WorldConfig, world_dir: Path | None, server_release: Release | None
) -> None:
    """The map files and the data pack installed in the world, for the server's release."""
    if server_release is None:
        if not any(c.name == "map files" for c in report.checks):
            for name in ("map files", "pack files"):
                report.add(
                    name,
                    "skip",
                    "the server's release is not known",
                    f"set servers.{report.server}.version, or let doctor reach the server",
                )
        return
    wanted = (
        [brush_map_id(room_cfg.map_id_base, axis) for axis in BRUSH_PICTURES]
        if room_cfg.kind == "paint"
        else picture_ids(room_cfg.map_id_base, room_cfg.mode)
    )
    check_map_files(report, world_dir, server_release, wanted)
    check_pack_files(report, world_dir, server_release)


def _version_from_health(report: Report, health: Health, name: str) -> None:
    """The release the daemon settled for the server (or why it refused it)."""
    if health.refused is not None:
        report.add("version", "fail", health.refused, f"run a release from {SUPPORTED_RANGE}")
        return
    version = health.version
    if version is None:
        return
    detail = f"the daemon reports Minecraft {version.get('release')}: {version.get('how')}"
    if version.get("disagrees"):
        says = version.get("server_says")
        report.add(
            "version",
            "fail",
            detail,
            f"set servers.{name}.version to {says!r} (or remove it), then restart the daemon",
        )
    else:
        report.add("version", "pass", detail)


def _install_fix(world_dir: Path, server_release: Release) -> str:
    create = "" if (world_dir / "level.dat").is_file() else " --create"
    return (
        f"pipesctl maps install --world-dir {world_dir}{create} --version {server_release.name}"
        " (while the server is stopped)"
    )


def check_map_files(
    report: Report, world_dir: Path | None, server_release: Release, wanted: list[int]
) -> None:
    """The room's pictures: each where ``server_release`` reads map files, at its DataVersion
    (docs/server-behaviour.md, "Map data files: location")."""
    if world_dir is None:
        report.add("map files", "skip", "not checked", "pass --world-dir to check the map files")
        return
    import nbtlib

    from controller.maps.layout import Layout, layout_for, map_path

    layout = layout_for(server_release)
    other = Layout.LEGACY if layout is Layout.NAMESPACED else Layout.NAMESPACED
    want = server_release.data_version
    missing: list[int] = []
    stale: dict[int, int | None] = {}
    for mid in wanted:
        path = map_path(world_dir, layout, mid)
        if not path.is_file():
            missing.append(mid)
            continue
        try:
            found = nbtlib.load(path).get("DataVersion")
        except Exception:  # nbtlib raises many kinds on a damaged file
            found = None
        if found is None or int(found) != want:
            stale[mid] = None if found is None else int(found)
    fix = _install_fix(world_dir, server_release)
    if missing:
        elsewhere = sum(map_path(world_dir, other, mid).is_file() for mid in missing)
        moved = (
            f"; {elsewhere} at {other.value}, where {server_release.name} does not look"
            if elsewhere
            else ""
        )
        report.add(
            "map files",
            "fail",
            f"{len(missing)} of {len(wanted)} pictures missing from {layout.value} "
            f"(first: map id {missing[0]}){moved}",
            fix,
        )
    elif stale:
        seen = sorted({"none" if v is None else str(v) for v in stale.values()})
        report.add(
            "map files",
            "fail",
            f"{len(stale)} pictures at DataVersion {', '.join(seen)}, not "
            f"{server_release.name}'s {want}",
            fix,
        )
    else:
        report.add(
            "map files",
            "pass",
            f"{len(wanted)} pictures in {layout.value} at DataVersion {want} "
            f"({server_release.name})",
        )


def _declared_text(pack: object, server_release: Release) -> str:
    from controller.world.packformat import declared

    found = declared(pack, server_release) if isinstance(pack, dict) else None
    if found is None:
        return "formats it does not read"
    (lo, lo_minor), (hi, hi_minor) = found
    if not server_release.pack.uses_range:
        return f"format {lo}" if lo == hi else f"formats {lo} to {hi}"
    top = "*" if hi_minor == 2**31 - 1 else str(hi_minor)
    return f"formats {lo}.{lo_minor} to {hi}.{top}"


def check_pack_files(report: Report, world_dir: Path | None, server_release: Release) -> None:
    """The installed companion data pack: a `pack.mcmeta` ``server_release`` finds compatible
    and every file in the folders it reads (docs/datapack.md, "Formats", "Layout")."""
    if world_dir is None:
        report.add(
            "pack files", "skip", "not checked", "pass --world-dir to check the data pack's files"
        )
        return
    import json

    from controller.maps.datapack import PACK_FOLDER
    from controller.world.datapack import build, folders
    from controller.world.packformat import compatibility

    folder = world_dir / "datapacks" / PACK_FOLDER
    fix = f"pipesctl install --world-dir {world_dir} --version {server_release.name}, then `reload`"
    if not folder.is_dir():
        report.add("pack files", "skip", f"no data pack in {folder}", fix)
        return
    try:
        pack = json.loads((folder / "pack.mcmeta").read_text(encoding="utf-8"))["pack"]
    except (OSError, ValueError, KeyError, TypeError):
        report.add("pack files", "fail", f"{folder / 'pack.mcmeta'} is missing or unreadable", fix)
        return
    verdict = compatibility(pack, server_release)
    if verdict != "compatible":
        report.add(
            "pack files",
            "fail",
            f"pack.mcmeta declares {_declared_text(pack, server_release)}, "
            f"{server_release.name} reads format {server_release.pack}: the server lists the "
            "pack as incompatible",
            fix,
        )
        return
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    missing = sorted(set(build(server_release)) - present)
    where = folders(server_release)
    if missing:
        report.add(
            "pack files",
            "fail",
            f"{len(missing)} file(s) missing where {server_release.name} reads them "
            f"(first: {missing[0]}; functions go in {where.function}/)",
            fix,
        )
        return
    report.add(
        "pack files",
        "pass",
        f"format {server_release.pack}, files in {where.function}/ and {where.advancement}/ "
        f"as {server_release.name} reads them",
    )


def _check_version(
    report: Report, client: CommandClient, name: str, server: ServerConfig
) -> Link | None:
    """The server's flavour and release, and where the release came from; a configured
    `version` the server's replies contradict fails (the configured one is used). None when
    the release is not served: the other server checks need its commands."""
    from controller.runtime.serverversion import VersionUndetected, server_link
    from controller.versions import UnsupportedVersion

    try:
        link, version = server_link(client, name, server.release)
    except (UnsupportedVersion, VersionUndetected) as exc:
        report.add(
            "server",
            "fail",
            str(exc),
            f"run a release from {SUPPORTED_RANGE}"
            if isinstance(exc, UnsupportedVersion)
            else f"set `version:` under servers.{name}",
        )
        return None
    detail = f"{version.flavour}, Minecraft {version.release.name}: {version.how}"
    if version.disagrees:
        says = version.detected.span if version.detected is not None else "?"
        report.add(
            "server",
            "fail",
            detail,
            f"set servers.{name}.version to {says!r} (or remove it to use what the server says)",
        )
    else:
        report.add("server", "pass", detail)
    return link


def _check_data_pack(report: Report, link: Link, server: ServerConfig) -> None:
    """The companion data pack: enabled (turns cost nearly nothing), disabled, or missing."""
    from controller.runtime.detection import PACK_ID

    if f"[{PACK_ID}" in link.send("datapack list enabled"):
        report.add("data pack", "pass", f"{PACK_ID} enabled: turns are detected by trigger")
        _check_gestures(report, link)
    elif f"[{PACK_ID}" in link.send("datapack list available"):
        report.add(
            "data pack",
            "fail",
            f"{PACK_ID} is installed but disabled",
            f'send `datapack enable "{PACK_ID}"` (pipesctl rcon datapack enable "{PACK_ID}")',
        )
    elif server.detect == "trigger":
        report.add(
            "data pack",
            "fail",
            f"{PACK_ID} not found but detect: trigger is configured",
            "pipesctl install --world-dir <world>, then `reload` or a restart",
        )
    else:
        report.add(
            "data pack",
            "skip",
            f"{PACK_ID} not found: turns are detected by scanning frames near players",
            "pipesctl install --world-dir <world> for near-zero cost, then `reload`",
        )
    if not any(check.name == "gestures" for check in report.checks):
        report.add(
            "gestures",
            "skip",
            "locking tiles and anticlockwise turns need the data pack: every click turns clockwise",
            "pipesctl install --world-dir <world>, then `reload`",
        )
    if not any(check.name == "undo" for check in report.checks):
        report.add(
            "undo",
            "skip",
            "/trigger pipes_undo needs the data pack (it notes who turned a tile): players "
            "asking are told so",
            "pipesctl install --world-dir <world>, then `reload`",
        )


def _check_gestures(report: Report, link: Link) -> None:
    """Whether the enabled pack makes the gestures: its protocol (docs/in-game.md, "Gestures")."""
    from controller.runtime.detection import PACK_ID, pack_protocol

    protocol = pack_protocol(link)
    fix = "pipesctl install --world-dir <world>, then `reload`"
    if protocol is not None and protocol >= turns.UNDO_PROTOCOL:
        report.add("undo", "pass", f"protocol {protocol}: the pack notes who turned each tile")
    else:
        speaks = "does not answer" if protocol is None else f"speaks protocol {protocol}"
        report.add(
            "undo",
            "fail",
            f"{PACK_ID} {speaks}: /trigger pipes_undo is refused; it needs protocol "
            f"{turns.UNDO_PROTOCOL}, which notes who turned each tile",
            fix,
        )
    if protocol is not None and protocol >= turns.GESTURE_PROTOCOL:
        report.add(
            "gestures", "pass", f"protocol {protocol}: sneak + click locks, a stick turns back"
        )
    elif protocol is None:
        report.add("gestures", "fail", f"{PACK_ID} does not answer `function pipes:version`", fix)
    else:
        report.add(
            "gestures",
            "fail",
            f"{PACK_ID} speaks protocol {protocol} (an older pipesctl): every click turns "
            f"clockwise; locks and anticlockwise turns need protocol {turns.GESTURE_PROTOCOL}",
            fix,
        )


def _gamerule(link: Link, room: AnyRoom, rule: str) -> str | None:
    return parse_gamerule(room.send(link, cmd.gamerule_query(rule, release=link.release)))


def _check_gamerules(
    report: Report, room: AnyRoom, link: Link, props: dict[str, str] | None
) -> None:
    """The gamerules a room needs, each by the name the server's release knows it by
    (docs/server-behaviour.md, "Versions: gamerule names")."""
    frames = (
        len(room.brushes)
        if isinstance(room, PaintRoom)
        else room.cfg.width * room.cfg.height + len(room.pictures)
    )
    needs = {"max_block_modifications": cmd.FILL_LIMIT, "max_command_forks": frames}
    for rule, need in needs.items():
        name = cmd.gamerule_name(rule, release=link.release)
        value = _gamerule(link, room, rule)
        if value is None:
            report.add(name, "skip", "the server does not know this gamerule")
        elif not value.lstrip("-").isdigit() or int(value) < need:
            report.add(
                name,
                "fail",
                f"{value}, the room needs at least {need}",
                f"pipesctl rcon gamerule {name} {need}",
            )
        else:
            report.add(name, "pass", f"{value} (the room needs {need})")
    name = cmd.gamerule_name("send_command_feedback", release=link.release)
    feedback = _gamerule(link, room, "send_command_feedback")
    broadcast = None if props is None else props.get("broadcast-rcon-to-ops", "true").lower()
    if feedback is None:
        report.add(name, "skip", "the server does not know this gamerule")
    elif feedback == "true" and broadcast == "true":
        report.add(
            name,
            "fail",
            "true with broadcast-rcon-to-ops=true: ops see every command the room sends",
            f"set broadcast-rcon-to-ops=false (or `gamerule {name} false`, "
            "which hides all command feedback world-wide)",
        )
    else:
        report.add(name, "pass", f"{feedback} (replies to RCON do not need it)")


@contextmanager
def _loaded(report: Report, room: AnyRoom, link: Link, clock: Clock) -> Iterator[bool]:
    """Make the room's chunks loaded for the checks inside; release the tickets doctor added."""
    added = []
    for cx, cz in room.geom.chunks():
        if not forceload_marked(room.send(link, cmd.forceload_query(cx, cz))):
            room.send(link, cmd.forceload_chunk(cx, cz, add=True))
            added.append((cx, cz))
    try:
        from controller.errors import RoomError

        try:
            room.wait_loaded(link, timeout=5.0)
        except RoomError:
            report.add(
                "chunks",
                "fail",
                f"{len(room.geom.chunks())} chunk(s) did not load within 5 s after forceload",
                "a vanilla server with nobody online pauses: set pause-when-empty-seconds=-1"
                if link.release.pauses_when_empty
                else "check that the server ticks (its log, `tick query`)",
            )
            yield False
            return
        report.add(
            "chunks",
            "pass",
            f"{len(room.geom.chunks())} chunk(s) load"
            + (f" ({len(added)} force-loaded for the check, released again)" if added else ""),
        )
        yield True
    finally:
        for cx, cz in added:
            room.send(link, cmd.forceload_chunk(cx, cz, add=False))


# What the next start changes in a pipes room built at an older world format
# (docs/world-format.md, "Versions").
MIGRATIONS = {
    SILENT_FORMAT: "frames made Silent",
    SHADOW_FORMAT: "the block map copied 3 blocks lower for the tamper guard",
    LOCK_FORMAT: "players may lock tiles",
    LOOP_FORMAT: "tiles on dry loops and in closed islands shown (pearlescent froglight)",
    CROSS_FORMAT: "sink rooms may deal crosses and holes (no change in the world)",
}


def check_world_format(report: Report, path: Path) -> None:
    """The world format a built pipes room's state names, and what its next start changes when
    that is older than today's (nothing is checked before the first build; an unreadable state
    is skipped, as `status` reports it)."""
    if not path.exists():
        return
    try:
        state = RoomState.load(path)
    except PipesError as exc:  # `status` and `start` say so and how to get out of it
        report.add("world format", "skip", f"state unreadable: {exc}")
        return
    if state is None:
        return
    built = state.world_format
    today = SINK_WORLD_FORMAT if state.board.mode == "sink" else WORLD_FORMAT
    if built >= today:
        report.add("world format", "pass", f"format {built}")
        return
    steps = [f"{v}: {what}" for v, what in sorted(MIGRATIONS.items()) if built < v <= today]
    report.add(
        "world format",
        "pass",
        f"format {built}; the next start moves it to {today} (" + "; ".join(steps) + ")",
    )


def _check_footprint(report: Report, room: AnyRoom, link: Link, state_dir: Path) -> None:
    if state_path(state_dir, room.name).exists():
        report.add("footprint", "skip", "the room is built (it has a state file)")
        return
    (xa, ya, za), (xb, yb, zb) = room.geom.bounds()
    entities = parse_count(
        room.send(link, cmd.count_foreign_entities((xa, ya, za), (xb, yb, zb), "pipes"))
    )
    busy: list[int] = []
    half = (za + zb) // 2
    slices = (
        [(za, zb)]
        if (xb - xa + 1) * (zb - za + 1) <= cmd.FILL_LIMIT
        else [
            (za, half),
            (half + 1, zb),
        ]
    )
    for y in range(ya, yb + 1):
        for z0, z1 in slices:
            reply = room.send(
                link, cmd.blocks_match((xa, y, z0), (xb, y, z1), (xa, REFERENCE_Y, z0))
            )
            if not reply.startswith("Test passed"):
                busy.append(y)
                break
    if not entities and not busy:
        report.add("footprint", "pass", f"box {xa} {ya} {za} .. {xb} {yb} {zb} is empty")
        return
    parts = []
    if busy:
        parts.append(f"blocks in layer(s) y={', '.join(str(y) for y in busy)}")
    if entities:
        parts.append(f"{entities} foreign entit{'y' if entities == 1 else 'ies'}")
    report.add(
        "footprint",
        "fail",
        f"box {xa} {ya} {za} .. {xb} {yb} {zb} holds "
        + " and ".join(parts)
        + "; the first build replaces them",
        "move worlds." + room.name + ".origin, or clear the box",
    )
