"""The sandbox game: runs RCON commands against the world like a vanilla (or Paper) server of
one supported release (26.1 unless told otherwise; ``controller.sandbox.profile``).

``Game.execute`` is ``Commands.performPrefixedCommand`` for the Rcon source
(docs/server-behaviour.md, "The RCON command source" to "Empty replies"; sections are named below
in quotes): strip one `/`, parse with the command tree, report parse errors (two messages on
vanilla, one joined by ``\\n`` on Paper), then run the context chain. It is called only from the
main thread. Every public method runs as the game's release (``profile.playing``), so strings,
registries and NBT forms are that release's.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import pathlib
import uuid as uuidlib
from collections.abc import Callable
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

import nbtlib
from nbtlib import tag as nbt

from controller import versions
from controller.versions import Release

from .commands import Ctx, Frame, Node, Source, flatten, get_parse_exception, lit, parse, run_chain
from .current import CURRENT
from .entities import (
    GAME_MODES,
    INTERACT_BUFFER,
    Entity,
    ItemFrame,
    Player,
    create_entity,
    uuid_from_ints,
)
from .packmanager import PackManager
from .poses import Poses
from .profile import DEFAULT_RELEASE, SandboxVersion, playing, profile_of, upgrades
from .reader import CommandSyntaxError
from .registry import tr
from .world import DIMENSIONS, Objective, World

__all__ = ["Game", "Source", "offline_uuid"]

P = ParamSpec("P")
R = TypeVar("R")

logger = logging.getLogger("controller.sandbox")

_COST_KEYS = ("entities_examined", "nbt_serializations")


def offline_uuid(name: str) -> uuidlib.UUID:
    """UUIDUtil.createOfflinePlayerUUID: UUID.nameUUIDFromBytes("OfflinePlayer:" + name)."""
    digest = hashlib.md5(("OfflinePlayer:" + name).encode("utf-8")).digest()
    return uuidlib.UUID(bytes=digest, version=3)


def _as_release(method: Callable[Concatenate[Game, P], R]) -> Callable[Concatenate[Game, P], R]:
    """Run a Game method as the game's release (see ``controller.sandbox.current``)."""

    def run(game: Game, /, *args: P.args, **kwargs: P.kwargs) -> R:
        token = CURRENT.set(game.profile)
        try:
            return method(game, *args, **kwargs)
        finally:
            CURRENT.reset(token)

    run.__name__, run.__doc__ = method.__name__, method.__doc__
    run.__qualname__ = method.__qualname__
    return run


def _release(version: Release | str | None) -> Release:
    if version is None:
        return DEFAULT_RELEASE
    return version if isinstance(version, Release) else versions.release(version)


class Game:
    """World + command tree + per-command output and cost counters, for one release.

    ``version``: a supported release (or its name; UnsupportedVersion otherwise), 26.1 when
    None. Its profile is looked up once here.
    """

    def __init__(
        self,
        flavour: Literal["vanilla", "paper"] | str = "vanilla",
        version: Release | str | None = None,
    ) -> None:
        if flavour not in ("vanilla", "paper"):
            raise ValueError(f"unknown flavour {flavour!r}")
        self.profile: SandboxVersion = profile_of(_release(version))
        with playing(self.profile):
            self._setup(flavour)

    def _setup(self, flavour: str) -> None:
        self.flavour = flavour
        self.world = World(flavour=flavour)
        self.world.gamerules = self.profile.default_rules()
        self.world.rule_names = self.profile.rule_names
        self.out: list[str] = []
        self.cost: dict[str, int] = dict.fromkeys(_COST_KEYS, 0)
        self.last_cost: dict[str, int] = dict.fromkeys(_COST_KEYS, 0)
        self.total_cost: dict[str, int] = dict.fromkeys(_COST_KEYS, 0)
        # costs of work no command asked for (advancement checks on clicks)
        self.background_cost: dict[str, int] = dict.fromkeys(_COST_KEYS, 0)
        self.packs = PackManager(self)
        self.poses = Poses()  # sneak keys and crouching poses (docs/sandbox-datapacks.md)
        self.frames: list[Frame] = []  # the running function calls (ExecutionContext frames)
        self.root = self._build_tree()

    # ------------------------------------------------------------------ tree
    def _build_tree(self) -> Node:
        from .commands import (
            attribute,
            blocks,
            chat,
            data,
            entity,
            execute,
            help,
            packs,
            scoreboard,
        )

        root = Node("")
        for module in (attribute, blocks, chat, data, entity, help, packs, scoreboard):
            module.register(root, self)
        execute.register(root, self)
        if self.profile.has_version_command:  # on Paper `minecraft:version` ("Feedback: version")
            root.then(lit("version", run=self._vanilla_version))
        if self.flavour == "paper":
            for name, node in list(root.children.items()):
                alias = Node("minecraft:" + name)
                alias.children = node.children
                alias.command = node.command
                alias.redirect, alias.modifier, alias.fork = node.redirect, node.modifier, node.fork
                root.children[alias.name] = alias
            for name in ("version", "ver", "about"):  # Paper's own replaces the plain `version`
                root.then(lit(name, run=self._paper_version))
        return root

    def _vanilla_version(self, ctx: Ctx, source: Source) -> int:
        """VersionCommand (from 1.21.6): the header, then one line per field of the running
        version (docs/server-behaviour.md, "Feedback: version"); sendSystemMessage, result 1."""
        self.send(tr("commands.version.header"))
        for key, args in self.profile.version_fields:
            self.send(tr(key, *args))
        return 1

    def _paper_version(self, ctx: Ctx, source: Source) -> int:
        """Paper's PaperVersionCommand ("Paper: plugin command output")."""
        # A Bukkit-sender message: legacy `§` codes and a trailing newline. The version text
        # itself comes later from another thread and never reaches the RCON reply.
        self.send(self.profile.paper_version_text)
        return 1

    @property
    def release(self) -> Release:
        """The release this game plays."""
        return self.profile.release

    # ------------------------------------------------------------------ properties
    @property
    def tick_count(self) -> int:
        """Game ticks since the world was created."""
        return self.world.tick_count

    def send(self, message: str) -> None:
        """sendSuccess/sendFailure to the Rcon source: append one message."""
        self.out.append(message)

    def rcon_source(self) -> Source:
        """The Rcon CommandSourceStack: lower corner of spawn, overworld, no entity."""
        x, y, z = self.world.spawn
        return Source(None, (float(x), float(y), float(z)), (0.0, 0.0), "minecraft:overworld")

    def serialize(self, e: Entity, mutable: bool = False) -> nbt.Compound:
        """Entity.saveWithoutId for commands (counted as one NBT serialization).

        Read-only callers get a compound cached on the entity until it changes; callers that
        edit the result must ask for a `mutable` fresh one.
        """
        self.cost["nbt_serializations"] += 1
        if self.flavour == "vanilla" and not mutable:
            cached = e.nbt_cache
            if cached is None:
                cached = e.to_nbt()
                e.nbt_cache = cached
            return cached
        c = copy.deepcopy(e.to_nbt()) if mutable else e.to_nbt()  # never alias entity state
        if self.flavour == "paper" and not isinstance(e, Player):
            # Paper's saveWithoutId writes its keys right after Invulnerable, and the origin
            # keys last ("Paper: entity dumps and key order": insertion order decides the order).
            paper_keys = {
                "WorldUUIDLeast": nbt.Long(-5000000000000000000),
                "WorldUUIDMost": nbt.Long(4000000000000000000),
                "Bukkit.updateLevel": nbt.Int(2),
                "Spigot.ticksLived": nbt.Int(e.age),
            }
            ordered = nbt.Compound()
            for key, value in c.items():
                ordered[key] = value
                if key == "Invulnerable":
                    ordered.update(paper_keys)
            ordered.update({k: v for k, v in paper_keys.items() if k not in ordered})
            ordered["Paper.OriginWorld"] = nbt.IntArray([1, 2, 3, 4])
            ordered["Paper.Origin"] = nbt.List[nbt.Double]([nbt.Double(v) for v in e.pos])
            ordered["Paper.SpawnReason"] = nbt.String("COMMAND")
            c = ordered
        return c

    # ------------------------------------------------------------------ execution
    @_as_release
    def execute(self, command: str) -> list[str]:
        """Run one command as the Rcon source and return its feedback messages in order."""
        self.out = []
        self.cost = dict.fromkeys(_COST_KEYS, 0)
        body = command[1:] if command.startswith("/") else command
        try:
            self._perform(body)
        except CommandSyntaxError as ex:
            self.send(ex.message)
        except Exception:  # vanilla reports any other exception this way (and logs it)
            logger.exception("Command exception: /%s", body)
            self.send(tr("command.failed"))
        self.last_cost = dict(self.cost)
        for k in _COST_KEYS:
            self.total_cost[k] += self.cost[k]
        return self.out

    def _perform(self, body: str) -> None:
        result = parse(self.root, body)
        error = get_parse_exception(result)
        chain = None
        if error is None:
            chain = flatten(result.ctx)
            if chain is None:
                error = result.reader.error(tr("command.unknown.command"))
        if error is not None:
            context = error.context() or ""
            if self.flavour == "paper":
                self.send(error.message + ("\n" + context if context else ""))
            else:
                self.send(error.message)
                if context:
                    self.send(context)
            return
        assert chain is not None
        run_chain(self, chain, self.rcon_source())

    @_as_release
    def tick(self) -> None:
        """Advance one game tick (20 per second).

        A requested data pack reload completes first; then ServerFunctionManager.tick runs
        `#minecraft:load` once after a (re)load and `#minecraft:tick` every tick, before the
        world's levels tick (MinecraftServer.tickChildren order), not while the server is paused.
        Their costs count as background.
        """
        self.packs.finish_pending()
        self.world.tick(before_levels=self._tick_functions)
        if not self.world.paused:  # the players' ticks: the pose follows the sneak key
            self.poses.tick((p.name, p.game_mode) for p in self.world.players.values())

    def _tick_functions(self) -> None:
        saved = self._background()
        try:
            self.packs.tick_functions()
        finally:
            self._end_background(saved)

    @_as_release
    def configure_datapacks(self, datapack_dir: pathlib.Path | None) -> None:
        """Server start: discover `<world>/datapacks`, select packs, load them (blocking)."""
        self.packs.configure(datapack_dir)

    def _background(self) -> dict[str, int]:
        """Start counting costs outside a command; returns the command counters to restore."""
        saved = self.cost
        self.cost = dict.fromkeys(_COST_KEYS, 0)
        return saved

    def _end_background(self, saved: dict[str, int]) -> None:
        for k in _COST_KEYS:
            self.background_cost[k] += self.cost[k]
            self.total_cost[k] += self.cost[k]
        self.cost = saved

    # ------------------------------------------------------------------ players
    @_as_release
    def join(
        self,
        name: str,
        pos: tuple[float, float, float],
        dimension: str = "minecraft:overworld",
        display: str = "",
    ) -> None:
        """A simulated player joins at pos (chunks around load at the next tick); `display`
        stands for a team's prefix/suffix around the name in feedback."""
        if name in self.world.players:
            return
        uid = offline_uuid(name)
        p = Player("minecraft:player", uid, dimension, name=name, display=display)
        p.pos = (float(pos[0]), float(pos[1]), float(pos[2]))
        self.world.players[name] = p
        self.world.add_entity(p)
        self.world.levels_dirty = True

    @_as_release
    def set_team_affixes(self, name: str, prefix: str = "", suffix: str = "") -> None:
        """The player's team prefix and suffix (shown around the name in display names)."""
        p = self.world.players[name]
        p.team_prefix, p.team_suffix = prefix, suffix
        p.nbt_cache = None

    @_as_release
    def trigger(self, name: str, objective: str, value: int | None = None) -> str:
        """The player runs `/trigger` (vanilla TriggerCommand); the message the player sees."""
        from .commands.scoreboard import player_trigger

        return player_trigger(self, name, objective, value)

    @_as_release
    def sneak(self, name: str, on: bool = True) -> None:
        """The player holds (or lets go of) its sneak key; it crouches from the next tick on
        (`controller.sandbox.poses`)."""
        if name not in self.world.players:
            raise KeyError(name)
        self.poses.sneak(name, on)

    @_as_release
    def hold(self, name: str, item: str | None, count: int = 1) -> None:
        """Put `count` of an item id (`minecraft:stick`) in the player's main hand; None empties
        it."""
        stack = None
        if item is not None:
            stack = nbtlib.Compound({"id": nbt.String(item), "count": nbt.Int(count)})
        self.world.players[name].held_item = stack

    @_as_release
    def leave(self, name: str) -> None:
        """A player leaves."""
        self.poses.forget(name)
        p = self.world.players.pop(name, None)
        if p is not None:
            self.world.remove_entity(p)
            self.world.levels_dirty = True

    @_as_release
    def move(self, name: str, pos: tuple[float, float, float]) -> None:
        """Move a player (ticket changes apply at the next tick)."""
        p = self.world.players[name]
        self.world.move_entity(p, (float(pos[0]), float(pos[1]), float(pos[2])))
        self.world.levels_dirty = True

    @_as_release
    def give(self, name: str, item: nbt.Compound | None) -> None:
        """Put an item (an NBT item stack) in a player's hand."""
        self.world.players[name].held_item = item

    @_as_release
    def set_game_mode(self, name: str, mode: str) -> None:
        """A player's game mode (survival, creative, adventure, spectator); the creative reach
        bonus follows at the player's next tick (`Player.update_attributes`)."""
        if mode not in GAME_MODES:
            raise ValueError(f"unknown game mode {mode!r} ({', '.join(GAME_MODES)})")
        self.world.players[name].game_mode = mode

    @_as_release
    def set_entity_interaction_range(self, name: str, base: float) -> None:
        """The base of a player's `minecraft:entity_interaction_range` attribute, as
        `attribute <player> minecraft:entity_interaction_range base set <base>` sets it."""
        self.world.players[name].interaction_range_base = float(base)

    @_as_release
    def interact(self, name: str, uid: uuidlib.UUID) -> str:
        """ServerGamePacketListenerImpl.handleInteract, then Player.interactOn +
        ItemFrame.interact: `success`, `pass` or `fail`; `ignored` when the server drops the
        packet (no such player or loaded entity in the player's level, or the entity's box
        farther than the player's entity interaction range + 3 from the eyes: nothing happens).

        A success fires the player_interacted_with_entity trigger; docs/sandbox-datapacks.md
        and docs/server-behaviour.md, "Entity interaction reach".
        """
        p = self.world.players.get(name)
        e = self.world.get_entity(uid)
        if p is None or e is None or e.dimension != p.dimension:
            return "ignored"
        if not p.within_entity_interaction_range(e.bounding_box(), INTERACT_BUFFER):
            return "ignored"
        if p.game_mode == "spectator":
            return "pass"
        if not isinstance(e, ItemFrame) or e.fixed:
            return "pass"
        if e.item is None:
            if p.held_item is None or e.removed:
                return "pass"
            e.set_item(nbtlib.Compound(p.held_item))
            self.world.flush_sounds(e)
            if not p.infinite_materials:  # ItemStack.consume(1, player)
                left = int(p.held_item.get("count", 1)) - 1
                if left > 0:
                    p.held_item = nbtlib.Compound(p.held_item)
                    p.held_item["count"] = nbt.Int(left)
                else:
                    p.held_item = None
        else:
            self.world.entity_sound(e, e.sound("rotate_item"))
            e.set_rotation(e.item_rotation + 1)
        saved = self._background()
        try:
            self.packs.interacted(p, e)
        finally:
            self._end_background(saved)
        return "success"

    def use_entity(self, name: str, uid: uuidlib.UUID) -> bool:
        """Right-click an entity; True when the interaction succeeded (docs/server-behaviour.md,
        "Item frames: ItemRotation")."""
        return self.interact(name, uid) == "success"

    @_as_release
    def attack_entity(self, name: str, uid: uuidlib.UUID) -> bool:
        """Left-click an entity: Player.attack → ItemFrame.hurtServer; True when it took damage.

        Survival/adventure players cannot hurt an Invulnerable or Fixed frame; creative players
        can (isInvulnerableToBase, canHurtWhenFixed). A frame holding an item loses the item
        (dropped, except for creative players) and plays `remove_item`; an empty frame, or a
        Fixed one hit by a creative player, breaks (docs/sandbox-datapacks.md).
        """
        p = self.world.players.get(name)
        e = self.world.get_entity(uid)
        if p is None or e is None or p.game_mode == "spectator" or not isinstance(e, ItemFrame):
            return False
        creative = p.infinite_materials
        if e.removed or (e.invulnerable and not creative) or (e.fixed and not creative):
            return False
        if not e.fixed and e.item is not None:
            self.world.drop_frame_item(e, p, False)
            self.world.entity_sound(e, e.sound("remove_item"))
            return True
        self.world.remove_entity(e)  # ItemFrame.kill, then dropItem(level, player)
        self.world.break_frame(e, p)
        return True

    @_as_release
    def frame_at(self, x: int, y: int, z: int) -> uuidlib.UUID | None:
        """The item frame hanging in block (x, y, z), if any loaded one does."""
        for e in self.world.entities.values():
            if isinstance(e, ItemFrame) and e.attached == (x, y, z) and self.world.is_visible(e):
                return e.uuid
        return None

    @_as_release
    def inbox(self, name: str) -> list[dict[str, object]]:
        """What a player received (titles, action bars, tellraw, sounds, chat)."""
        p = self.world.players.get(name)
        return list(p.inbox) if p is not None else []

    # ------------------------------------------------------------------ views
    @_as_release
    def block(self, x: int, y: int, z: int, dimension: str = "minecraft:overworld") -> str:
        """The block state string at a position."""
        return self.world.get_block(dimension, (x, y, z))

    @_as_release
    def entity_nbt(self, uid: uuidlib.UUID) -> nbt.Compound | None:
        """The full NBT of an entity (loaded or not), without counting a serialization."""
        e = self.world.entities.get(uid)
        return e.to_nbt() if e is not None else None

    # ------------------------------------------------------------------ save / load
    @_as_release
    def save(self, directory: pathlib.Path) -> None:
        """Write the whole world to a folder (JSON + one NBT file of entities)."""
        directory = pathlib.Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        w = self.world
        state: dict[str, Any] = {
            "flavour": self.flavour,
            "version": self.profile.name,
            "tick_count": w.tick_count,
            "spawn": list(w.spawn),
            "blocks": {
                d: [[x, y, z, s] for (x, y, z), s in sorted(blocks.items())]
                for d, blocks in w.blocks.items()
            },
            "forced": {d: sorted([list(c) for c in cs]) for d, cs in w.forced.items()},
            "objectives": [
                [o.name, o.criteria, nbtlib.serialize_tag(o.display_name), o.render_type]
                for o in w.objectives.values()
            ],
            "scores": w.scores,
            "unlocked": {k: sorted(v) for k, v in w.unlocked.items() if v},
            "display_slots": w.display_slots,
            "gamerules": w.gamerules,
            "datapacks": self.packs.to_json(),
            "advancements": w.advancements,
        }
        (directory / "world.json").write_text(json.dumps(state, indent=1), encoding="utf-8")
        ents = nbtlib.tag.List[nbtlib.Compound]()
        for e in w.entities.values():
            if isinstance(e, Player):
                continue
            c = e.to_nbt()
            c["id"] = nbt.String(e.type_id)
            c["sandbox.dimension"] = nbt.String(e.dimension)
            ents.append(c)
        storage = nbtlib.Compound(dict(w.storage))
        root = nbtlib.File({"entities": ents, "storage": storage})
        root.save(str(directory / "entities.dat"), gzipped=True)

    @classmethod
    def load(
        cls,
        directory: pathlib.Path,
        flavour: str = "vanilla",
        version: Release | str | None = None,
    ) -> Game:
        """Read a folder written by :meth:`save` (players are not saved: they re-join).

        The world plays the release it was saved by (26.1 for saves that do not say);
        ``version``, when given, must be that release or a newer one that saves the world in
        the same forms (an upgrade that needs no data fixer, such as 26.1 to 26.2): ValueError
        otherwise (the sandbox has no data fixers).
        """
        directory = pathlib.Path(directory)
        state = json.loads((directory / "world.json").read_text(encoding="utf-8"))
        saved = _release(state.get("version"))
        playing_as = saved if version is None else _release(version)
        if playing_as != saved and not upgrades(saved, playing_as):
            raise ValueError(
                f"the world in {directory} was saved by Minecraft {saved}, not {playing_as}"
            )
        game = cls(flavour, playing_as)
        with playing(game.profile):
            game._restore(directory, state)
        return game

    def _restore(self, directory: pathlib.Path, state: dict[str, Any]) -> None:
        game = self
        w = game.world
        w.tick_count = int(state["tick_count"])
        sx, sy, sz = state["spawn"]
        w.spawn = (int(sx), int(sy), int(sz))
        for d, rows in state["blocks"].items():
            w.blocks[d] = {(x, y, z): s for x, y, z, s in rows}
        for d, cs in state["forced"].items():
            w.forced[d] = {(cx, cz) for cx, cz in cs}
        for name, criteria, display, render in state["objectives"]:
            w.objectives[name] = Objective(name, criteria, nbtlib.parse_nbt(display), render)
        w.scores = {k: dict(v) for k, v in state["scores"].items()}
        w.unlocked = {k: set(v) for k, v in state.get("unlocked", {}).items()}
        w.display_slots = dict(state["display_slots"])
        w.gamerules.update(state["gamerules"])
        game.packs.from_json(state.get("datapacks", {}))
        w.advancements = {
            name: {aid: dict(crit) for aid, crit in advs.items()}
            for name, advs in state.get("advancements", {}).items()
        }
        root = nbtlib.load(str(directory / "entities.dat"))
        for c in root["entities"]:
            dim = str(c.pop("sandbox.dimension"))
            c.pop("sandbox.check", None)  # saves of older sandboxes; checkInterval is not saved
            e = create_entity(str(c["id"]), uuid_from_ints(list(c["UUID"])), dim)
            e.load_nbt(c)
            if isinstance(e, ItemFrame):
                e.pending_sounds.clear()  # loading from storage: nobody is there to hear it
                e.pending_log.clear()  # the sandbox's own save: block_pos is always consistent
            e.stored = True
            w.add_entity(e)
        for k, v in root["storage"].items():
            w.storage[k] = v
        w.update_levels()

    @staticmethod
    def dimensions() -> tuple[str, ...]:
        """Known dimension ids."""
        return DIMENSIONS
