"""The ``Sandbox`` context manager: a game, its main thread and an RCON server on loopback.

Used by every end-to-end test and by ``make demo``::

    with Sandbox() as sb:
        client = MCRcon(sb.host, sb.password, sb.port)
        sb.join("Alex", (0.5, 64.0, 0.5))
        sb.tick(20)
"""

from __future__ import annotations

import importlib
import logging
import pathlib
import secrets
import tempfile
import uuid
from collections.abc import Callable
from types import TracebackType
from typing import Any, Literal, Protocol, TypeVar

from controller import versions
from controller.sandbox import heap
from controller.sandbox.mainthread import MainThread
from controller.sandbox.profile import playing, upgrades
from controller.sandbox.server import CommandLog, CommandLogEntry, RconServer
from controller.versions import Release

__all__ = ["GameFactory", "GameLike", "Sandbox", "SandboxGame"]

logger = logging.getLogger("controller.sandbox")

T = TypeVar("T")
Flavour = Literal["vanilla", "paper"]


class GameLike(Protocol):
    """The part of ``Game`` that the server and the main thread use."""

    def execute(self, command: str) -> list[str]:
        """Run one command as the Rcon source."""

    def tick(self) -> None:
        """Advance one game tick."""

    @property
    def last_cost(self) -> dict[str, int]:
        """Cost counters of the last execute()."""

    def save(self, directory: pathlib.Path) -> None:
        """Write the whole world to ``directory``."""


class GameFactory(Protocol):
    """Creates games: a class with ``__init__(flavour=..., version=...)`` and
    ``load(directory, flavour, version)`` (``version`` is passed only when one was asked for)."""

    def __call__(self, flavour: Flavour = ..., version: Release | None = ...) -> GameLike:
        """A fresh game."""

    def load(
        self, directory: pathlib.Path, flavour: str = ..., version: Release | None = ...
    ) -> GameLike:
        """A game read back from a saved folder."""


SandboxGame = Any  # the real Game; typed loosely so a fake game can be injected


def _default_factory() -> GameFactory:
    """``controller.sandbox.game.Game``, imported lazily."""
    factory: GameFactory = importlib.import_module("controller.sandbox.game").Game
    return factory


def _has_save(directory: pathlib.Path) -> bool:
    """Whether ``directory`` holds a saved world (anything besides its `datapacks` folder)."""
    return directory.is_dir() and any(p.name != "datapacks" for p in directory.iterdir())


class Sandbox:
    """A loopback RCON server in front of a simulated game, with test helpers and fault switches.

    ``world_dir``: if it already holds a saved world, the game is loaded from it; the world is
    saved there on ``stop()`` and by ``restart()``. Without it, ``restart()`` goes through a
    temporary folder. Data packs are read from ``<world_dir>/datapacks/`` at every start (new
    ones are enabled, as vanilla does) and on ``reload`` (docs/sandbox-datapacks.md).

    ``version``: the release to play (a ``Release`` or its name; UnsupportedVersion for any
    other); None plays 26.1, or the release a saved world was saved by.
    """

    def __init__(
        self,
        port: int = 0,
        password: str | None = None,
        flavour: Flavour = "vanilla",
        world_dir: pathlib.Path | str | None = None,
        log_commands: pathlib.Path | str | None = None,
        host: str = "127.0.0.1",
        game_factory: GameFactory | None = None,
        version: Release | str | None = None,
    ) -> None:
        if flavour not in ("vanilla", "paper"):
            raise ValueError(f"unknown flavour {flavour!r} (vanilla or paper)")
        self.version: Release | None = (
            versions.release(version) if isinstance(version, str) else version
        )
        self.port = port
        self.password = password if password else secrets.token_urlsafe(12)
        self.flavour: Flavour = flavour
        self.host = host
        self.world_dir = pathlib.Path(world_dir) if world_dir is not None else None
        self.command_log = CommandLog(log_commands)
        self._factory = game_factory
        self._game: SandboxGame | None = None
        self._main: MainThread | None = None
        self._server: RconServer | None = None
        self._away: SandboxGame | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def _factory_or_default(self) -> GameFactory:
        """The game factory, resolving the default lazily."""
        if self._factory is None:
            self._factory = _default_factory()
        return self._factory

    @property
    def datapack_dir(self) -> pathlib.Path | None:
        """`<world_dir>/datapacks`, where packs are found (None without a world_dir)."""
        return self._datapack_dir()

    def _datapack_dir(self) -> pathlib.Path | None:
        """`<world_dir>/datapacks`, where vanilla's FolderRepositorySource looks for packs."""
        return self.world_dir / "datapacks" if self.world_dir is not None else None

    def _boot(self, game: SandboxGame) -> None:
        """Start the main thread, then the RCON listener.

        Vanilla's start-up order: docs/server-behaviour.md, "RCON listener and start-up".
        """
        configure = getattr(game, "configure_datapacks", None)
        if configure is not None:  # the packs load before the server accepts connections
            configure(self._datapack_dir())
        main = MainThread(game, self.flavour)
        main.start()
        server = RconServer(
            main, game, self.password, self.host, self.port, self.flavour, self.command_log
        )
        try:
            server.start()
        except BaseException:
            main.stop()
            raise
        heap.hold()
        self._game, self._main, self._server = game, main, server
        self.port = server.port

    def start(self) -> Sandbox:
        """Create (or load) the game and start serving; returns self."""
        if self._server is not None:
            raise RuntimeError("sandbox already started")
        factory = self._factory_or_default()
        if self.world_dir is not None and _has_save(self.world_dir):
            game = self._load(factory, self.world_dir)
        elif self.version is not None:
            game = factory(flavour=self.flavour, version=self.version)
        else:
            game = factory(flavour=self.flavour)
        self._boot(game)
        return self

    def _load(self, factory: GameFactory, directory: pathlib.Path) -> SandboxGame:
        """A saved game, checked against the asked-for release when there is one."""
        if self.version is not None:
            return factory.load(directory, self.flavour, self.version)
        return factory.load(directory, self.flavour)

    def _halt(self) -> SandboxGame:
        """Stop RCON (dropping connections) and the main thread; returns the game."""
        server, main, game = self._server, self._main, self._game
        if server is None or main is None:
            raise RuntimeError("sandbox is not running")
        server.stop()
        main.stop()
        heap.release()
        self._server = self._main = None
        return game

    def stop(self) -> None:
        """Stop serving; saves the world to ``world_dir`` when one is set."""
        if self._server is None:
            return
        game = self._halt()
        if self.world_dir is not None:
            self._save_game(game, self.world_dir)
        self.command_log.close()

    @staticmethod
    def _save_game(game: SandboxGame, directory: pathlib.Path) -> None:
        """Create the folder if needed and let the game write its save into it."""
        directory.mkdir(parents=True, exist_ok=True)
        game.save(directory)

    def restart(self, version: Release | str | None = None) -> None:
        """Fault: stop (drop connections, save the world), then start again from disk, same port.

        ``version``: come back on that release, the server upgraded; only to a newer release
        that saves the world in the same forms (``Game.load``), ValueError otherwise.
        """
        if version is not None:
            newer = versions.release(version) if isinstance(version, str) else version
            playing_now = getattr(self.game, "release", None)
            if isinstance(playing_now, Release) and not upgrades(playing_now, newer):
                raise ValueError(f"a world of Minecraft {playing_now} cannot come back as {newer}")
            self.version = newer
        game = self._halt()
        factory = self._factory_or_default()
        if self.world_dir is not None:
            self._save_game(game, self.world_dir)
            loaded = self._load(factory, self.world_dir)
        else:
            with tempfile.TemporaryDirectory(prefix="sandbox-world-") as tmp:
                folder = pathlib.Path(tmp) / "world"
                self._save_game(game, folder)
                loaded = self._load(factory, folder)
        self._boot(loaded)

    def go_down(self) -> None:
        """Fault: the server goes away (connections dropped, the port closed); the world is kept
        in memory for `come_back`."""
        self._away = self._halt()

    def come_back(self) -> None:
        """Serve again after `go_down`: the same world, on the same port."""
        away = self._away
        if away is None:
            raise RuntimeError("sandbox is not down")
        self._away = None
        self._boot(away)

    def __enter__(self) -> Sandbox:
        """Start the sandbox."""
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the sandbox."""
        self.stop()

    # -- state -------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether the sandbox is serving."""
        return self._server is not None

    @property
    def game(self) -> SandboxGame:
        """The current game (a new object after ``restart()``)."""
        if self._game is None:
            raise RuntimeError("sandbox not started")
        return self._game

    @property
    def world(self) -> object:
        """The game's world model (blocks, chunks, entities); read it through `call`."""
        return getattr(self.game, "world", None)

    @property
    def server(self) -> RconServer:
        """The RCON server."""
        if self._server is None:
            raise RuntimeError("sandbox is not running")
        return self._server

    @property
    def main_thread(self) -> MainThread:
        """The tick loop."""
        if self._main is None:
            raise RuntimeError("sandbox is not running")
        return self._main

    @property
    def total_cost(self) -> dict[str, int]:
        """Summed cost counters of every logged command."""
        return self.command_log.total_cost

    def log_entries(self) -> list[CommandLogEntry]:
        """A snapshot of the command log."""
        return self.command_log.entries()

    # -- running things on the main thread ---------------------------------------------------

    def call(self, fn: Callable[[SandboxGame], T], timeout: float | None = 30.0) -> T:
        """Run ``fn(game)`` on the main thread (between ticks) and return its result, as the
        game's release (``controller.sandbox.current``)."""
        game = self.game
        profile = getattr(game, "profile", None)
        if profile is None:  # a fake game
            return self.main_thread.call(lambda: fn(game), timeout)

        def run() -> T:
            with playing(profile):
                return fn(game)

        return self.main_thread.call(run, timeout)

    def tick(self, n: int = 1, timeout: float | None = 60.0) -> int:
        """Wait until ``n`` more ticks have passed; returns the main thread's tick count."""
        return self.main_thread.wait_ticks(n, timeout)

    def save(self, directory: pathlib.Path | str) -> None:
        """Save the world to ``directory`` (on the main thread, so between ticks)."""
        folder = pathlib.Path(directory)
        self.call(lambda game: self._save_game(game, folder))

    # -- simulated players -------------------------------------------------------------------

    def join(
        self,
        name: str,
        pos: tuple[float, float, float],
        dimension: str = "minecraft:overworld",
        display: str = "",
    ) -> None:
        """A simulated player joins at ``pos`` (``display``: the name as a team decorates it)."""
        if display:
            self.call(lambda game: game.join(name, pos, dimension, display))
        else:
            self.call(lambda game: game.join(name, pos, dimension))

    def set_team_affixes(self, name: str, prefix: str = "", suffix: str = "") -> None:
        """Give a simulated player a team prefix/suffix (their display name changes)."""
        self.call(lambda game: game.set_team_affixes(name, prefix, suffix))

    def trigger(self, player: str, objective: str, value: int | None = None) -> str:
        """The player types `/trigger <objective> [set <value>]`; the message they see."""
        message: str = self.call(lambda game: game.trigger(player, objective, value))
        return message

    def leave(self, name: str) -> None:
        """A simulated player leaves."""
        self.call(lambda game: game.leave(name))

    def move(self, name: str, pos: tuple[float, float, float]) -> None:
        """Move a simulated player."""
        self.call(lambda game: game.move(name, pos))

    def use_entity(self, player: str, entity: uuid.UUID) -> bool:
        """The player right-clicks an entity (vanilla semantics, the server's reach check
        included); whether anything happened."""
        return bool(self.call(lambda game: game.use_entity(player, entity)))

    def frame_at(self, x: int, y: int, z: int) -> uuid.UUID | None:
        """The UUID of the item frame hanging in that block, if any."""
        found: uuid.UUID | None = self.call(lambda game: game.frame_at(x, y, z))
        return found

    def use_frame_at(self, player: str, x: int, y: int, z: int) -> bool:
        """The player right-clicks the item frame in that block; False when there is none."""

        def use(game: SandboxGame) -> bool:
            frame = game.frame_at(x, y, z)
            return frame is not None and bool(game.use_entity(player, frame))

        return self.call(use)

    def inbox(self, name: str) -> list[dict[str, object]]:
        """Titles, action bars, tellraw messages and sounds the player received."""
        received: list[dict[str, object]] = self.call(lambda game: list(game.inbox(name)))
        return received

    def attack_entity(self, player: str, entity: uuid.UUID) -> bool:
        """The player left-clicks an entity with its game mode's rules; whether it was hurt."""
        return bool(self.call(lambda game: game.attack_entity(player, entity)))

    def set_game_mode(self, player: str, mode: str) -> None:
        """Set a simulated player's game mode (survival, creative, adventure, spectator); its
        creative reach bonus applies from the next tick on, as on a server."""
        self.call(lambda game: game.set_game_mode(player, mode))

    def set_entity_interaction_range(self, player: str, base: float) -> None:
        """Set the base of a player's `minecraft:entity_interaction_range` attribute (3.0 by
        default), as `attribute … base set` does on a server."""
        self.call(lambda game: game.set_entity_interaction_range(player, base))

    def give(self, player: str, item: object | None) -> None:
        """Put an item stack (an NBT compound) in the player's hand; None empties it."""
        self.call(lambda game: game.give(player, item))

    def sneak(self, player: str, on: bool = True) -> None:
        """The player holds (or lets go of) its sneak key; it crouches from the next tick on,
        as on a server (`controller.sandbox.poses`)."""
        self.call(lambda game: game.sneak(player, on))

    def hold(self, player: str, item: str | None, count: int = 1) -> None:
        """Put an item id (`minecraft:stick`) in the player's main hand; None empties it."""
        self.call(lambda game: game.hold(player, item, count))

    def sounds(self) -> list[dict[str, object]]:
        """Every sound the server played so far, with position and who heard it."""
        played: list[dict[str, object]] = self.call(lambda game: list(game.world.sounds))
        return played

    # -- fault switches ----------------------------------------------------------------------

    def drop_connections(self) -> int:
        """Close every RCON connection now; returns how many there were."""
        return self.server.drop_connections()

    def refuse_connections(self, seconds: float) -> None:
        """Refuse new connections for ``seconds`` (the listener is closed, then reopened)."""
        self.server.refuse_connections(seconds)

    def set_tick_ms(self, ms: float) -> None:
        """Lag: make every tick take ``ms`` milliseconds (0 = normal)."""
        self.main_thread.set_tick_ms(ms)
