"""`pipesctl maps`: install the pipe pictures into a world, preview them, export them.

numpy, nbtlib and PIL load inside the commands (``controller.maps``), not at import, so that
``pipesctl --help`` stays quick.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from controller.cli.common import fail, guarded, os_error_text
from controller.errors import PipesError, UsageError
from controller.versions import SUPPORTED_RANGE
from controller.world.mapids import DEFAULT_MAP_ID_BASE, LAST_OFFSET, PICTURE_COUNT

if TYPE_CHECKING:
    from controller.maps import PlanItem, Target
    from controller.versions import Release

__all__ = ["app", "CACHE_WARNING", "DEFAULT_VERSION"]

DEFAULT_VERSION = "26.1"
MAX_MAP_ID = 2**31 - 1

CACHE_WARNING = (
    "Note: the server caches map lookups, misses included. Install before the server starts "
    "(or before anything has shown these ids), or pick an unused --base; a running server that "
    "already looked an id up keeps showing it blank until it restarts."
)

app = typer.Typer(
    name="maps",
    help="The map pictures the room's frames show: install, preview, export.",
    no_args_is_help=True,
    add_completion=False,
)

BaseOpt = Annotated[
    int | None,
    typer.Option(
        "--base",
        help=f"First map id (default: the world's map_id_base, else {DEFAULT_MAP_ID_BASE}).",
    ),
]
WorldOpt = Annotated[
    str | None,
    typer.Option(
        "--world", "-w", metavar="NAME", help="Take map_id_base and the version from this room."
    ),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", "-c", metavar="FILE", help="Configuration file (default: lookup)."),
]
VersionOpt = Annotated[
    str | None,
    typer.Option(
        "--version",
        metavar="V",
        help=f"The server's release, {SUPPORTED_RANGE} (default: the one that last saved "
        f"level.dat, else the room's server's `version`, else {DEFAULT_VERSION}).",
    ),
]
ForceOpt = Annotated[
    bool, typer.Option("--force", help="Replace map files at these ids that show other pictures.")
]
CreateOpt = Annotated[
    bool,
    typer.Option(
        "--create",
        help="Write into a world folder without level.dat (made if missing): a world the "
        "server has not generated yet.",
    ),
]
PackOpt = Annotated[
    bool,
    typer.Option(
        "--pack/--no-pack",
        help="Also write the companion data pack (datapacks/pipesctl) that detects turns.",
    ),
]


def _reach(world: str | None, config: Path | None) -> float | None:
    """How far the data pack's marks reach at least: the room's poll_reach, else the default
    (None: the server's reach rule alone)."""
    from controller.world.datapack import DatapackConfig

    if world is None:
        return DatapackConfig().reach
    from controller.config import load_config

    return load_config(config).world(world).poll_reach


def _pack_files(release: Release, reach: float | None) -> dict[str, bytes]:
    """The data pack's files for the release, built before anything is written."""
    from controller.world.datapack import DatapackConfig, build

    return build(release, DatapackConfig(reach=reach))


def _write_pack(root: Path, files: dict[str, bytes], release: Release) -> None:
    from controller.maps.datapack import PACK_FOLDER, install_pack

    folder = root / "datapacks" / PACK_FOLDER
    done = install_pack(folder, files)
    changed = [item for item in done if item.action != "unchanged"]
    typer.echo(
        f"data pack {folder} (file/{PACK_FOLDER}, for {release.name}, format {release.pack}): "
        + (f"{len(changed)} file(s) written or removed" if changed else "unchanged")
    )


@contextmanager
def _reported(what: str) -> Iterator[None]:
    """One `error: …` line and the documented exit code for pipesctl and file-system errors."""
    try:
        yield
    except PipesError as exc:
        raise fail(str(exc), exc.exit_code) from None
    except OSError as exc:
        named = exc.filename is not None and str(exc.filename) == what and exc.filename2 is None
        reason = (exc.strerror or str(exc)) if named else os_error_text(exc)
        raise fail(f"cannot write {what}: {reason}") from None


def _settings(base: int | None, world: str | None, config: Path | None) -> tuple[int, str]:
    """The map id base and the configured version (used without --version and level.dat), from
    the options and, with --world, the configuration."""
    version: str | None = None
    if world is not None:
        from controller.config import load_config

        cfg = load_config(config)
        if world not in cfg.worlds:
            known = ", ".join(sorted(cfg.worlds)) or "none"
            raise UsageError(f"no world {world!r} in {cfg.path or config} (known: {known})")
        room = cfg.worlds[world]
        if base is None:
            base = room.map_id_base
        server = cfg.servers.get(room.server)
        if server is not None and server.release is not None:
            version = server.release.name
    if base is None:
        base = DEFAULT_MAP_ID_BASE
    if not 0 <= base <= MAX_MAP_ID - LAST_OFFSET:
        raise UsageError(f"--base must be 0..{MAX_MAP_ID - LAST_OFFSET}, got {base}")
    return base, version or DEFAULT_VERSION


def _write(root: Path, base: int, target: Target, force: bool) -> list[PlanItem]:
    from controller.maps.install import install_pictures
    from controller.world.mapart import all_pictures, cross_pictures, sink_pictures
    from controller.world.paint.art import brush_pictures

    pipes, brushes, sinks = all_pictures(base), brush_pictures(base), sink_pictures(base)
    crosses = cross_pictures(base)
    plan = install_pictures(root, pipes | brushes | sinks | crosses, target, force=force)
    last = base + PICTURE_COUNT - 1
    typer.echo(f"map ids {base}..{last} ({target.reason}; layout {target.layout.value})")
    for ids in (pipes, crosses, brushes, sinks):
        counts = Counter(item.action for item in plan if item.map_id in ids)
        summary = ", ".join(f"{n} {action}" for action, n in sorted(counts.items()))
        if ids is brushes:
            typer.echo(f"paint brush map ids {min(ids)}..{max(ids)}")
        if ids is sinks:
            typer.echo(f"sink room map ids {min(ids)}..{max(ids)}")
        if ids is crosses:
            typer.echo(f"sink room cross map ids {min(ids)}..{max(ids)}")
        typer.echo(f"  {summary}")
    for item in plan:
        if item.action == "replace":
            typer.echo(f"  replaced a foreign map: {item.path}")
    return plan


@app.command()
@guarded
def install(
    world_dir: Annotated[
        Path, typer.Option("--world-dir", help="The world folder (the one holding level.dat).")
    ],
    world: WorldOpt = None,
    config: ConfigOpt = None,
    base: BaseOpt = None,
    version: VersionOpt = None,
    force: ForceOpt = False,
    pack: PackOpt = True,
    create: CreateOpt = False,
) -> None:
    """Write the map files and the data pack into a world, before the server first starts.

    Both are written for the server's release: --version, else the release that last saved
    level.dat. The world folder must hold level.dat unless --create is given. A running server
    picks a new data pack up with `reload` (then `datapack list enabled` shows
    `file/pipesctl`)."""
    from controller.maps import probe

    with _reported("map files"):
        if not create:
            probe.check_world_folder(world_dir)
        first, configured = _settings(base, world, config)
        target = probe.resolve_target(world_dir, version, configured)
        if probe.server_holds_world(world_dir):
            typer.echo(
                "warning: a server is running on this world (its session.lock is held): ids it "
                "has already looked up stay blank until it restarts",
                err=True,
            )
        counter = probe.read_counter(world_dir, target.layout)
        if counter is not None and counter >= first:
            typer.echo(
                f"warning: the server's map counter is at {counter}, inside or past the "
                f"picture range from {first}: its next maps may overwrite ours; pick a higher "
                "--base",
                err=True,
            )
        files = _pack_files(target.release, _reach(world, config)) if pack else None
        _write(world_dir, first, target, force)
        if files is not None:
            _write_pack(world_dir, files, target.release)
    typer.echo(CACHE_WARNING)


@app.command()
@guarded
def preview(
    out: Annotated[Path, typer.Option("--out", help="PNG file to write.")] = Path("maps.png"),
    base: BaseOpt = None,
    world: WorldOpt = None,
    config: ConfigOpt = None,
) -> None:
    """Draw every picture, labelled, into one PNG."""
    from controller.maps.png import preview_png

    with _reported(str(out)):
        first, _ = _settings(base, world, config)
        preview_png(out, first)
    typer.echo(f"wrote {out} ({PICTURE_COUNT} pictures, ids {first}..)")


@app.command()
@guarded
def export(
    directory: Annotated[Path, typer.Argument(help="Folder to write into (as a world folder).")],
    base: BaseOpt = None,
    world: WorldOpt = None,
    config: ConfigOpt = None,
    version: VersionOpt = None,
    force: ForceOpt = False,
    pack: PackOpt = True,
) -> None:
    """Write the map files under DIR/data/... and the data pack under DIR/datapacks/, for
    copying into a remote server's world folder; both for --version (else the room's server's
    `version`)."""
    from controller.maps.probe import resolve_target

    with _reported("map files"):
        first, configured = _settings(base, world, config)
        target = resolve_target(None, version, configured)
        files = _pack_files(target.release, _reach(world, config)) if pack else None
        _write(directory, first, target, force)
        if files is not None:
            _write_pack(directory, files, target.release)
    typer.echo(
        f"Copy {directory / 'data'} and {directory / 'datapacks'} into the world folder "
        "(merging with what is there)."
    )
    typer.echo(CACHE_WARNING)
