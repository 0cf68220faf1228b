"""The server side of data packs: the pack repository, reloads, advancements and functions.

Mirrors PackRepository + MinecraftServer.configurePackRepository/reloadResources,
PlayerAdvancements.award/revoke, AdvancementRewards.grant, ServerFunctionManager (execute, the
`#minecraft:load` and `#minecraft:tick` tags), CommandFunction/MacroFunction.instantiate and
CallFunction as docs/sandbox-datapacks.md describes them. Feedback of everything a function runs
is suppressed (the function source is ``withSuppressedOutput``).
"""

from __future__ import annotations

import logging
import pathlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from decimal import ROUND_HALF_EVEN, Context, Decimal
from typing import TYPE_CHECKING, Any

from nbtlib import tag as nbt

from controller.nbt.printer import compact

from .datapacks import (
    INTERACT_TRIGGER,
    VANILLA,
    Advancement,
    Content,
    EntityCondition,
    PackInfo,
    PlayerCondition,
    discover,
    load_content,
    macro_parameters,
    macro_template,
    substitute,
)
from .entities import Entity, Player
from .reader import CommandSyntaxError
from .registry import tr

if TYPE_CHECKING:
    from .commands import Ctx, Frame, Source
    from .game import Game

__all__ = ["InstantiationError", "PackManager", "macro_value"]

logger = logging.getLogger("controller.sandbox")

_MAX_FUNCTION_DEPTH = 64
LOAD_TAG = "minecraft:load"
TICK_TAG = "minecraft:tick"
_DECIMAL = Context(prec=1000, rounding=ROUND_HALF_EVEN)
_FIFTEEN_PLACES = Decimal(1).scaleb(-15)


class InstantiationError(Exception):
    """FunctionInstantiationException: why a function could not be instantiated."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _decimal_format(value: float) -> str:
    """DecimalFormat("#") with 15 fraction digits, Locale.ROOT (MacroFunction.DECIMAL_FORMAT).

    Starts from the shortest decimal of the double (derived: DecimalFormat formats the digits
    of FloatingDecimal, which can differ from Python's repr in rare last-digit cases), rounds
    half-even to 15 places, and drops the integer zero (`0.5` → `.5`, the pattern has no
    minimum integer digit).
    """
    d = Decimal(repr(value)).quantize(_FIFTEEN_PLACES, context=_DECIMAL)
    text = format(d, "f")
    negative = text.startswith("-")
    digits = text.lstrip("-")
    if "." in digits:
        digits = digits.rstrip("0").rstrip(".")
    if digits.startswith("0."):
        digits = digits[1:]
    if digits in ("", "0"):
        digits = "0"
    return ("-" if negative else "") + digits


def macro_value(tag: Any) -> str:
    """MacroFunction.stringify: numbers without suffix, strings raw, other tags as SNBT."""
    if isinstance(tag, nbt.Float | nbt.Double):
        return _decimal_format(float(tag))
    if isinstance(tag, nbt.Byte | nbt.Short | nbt.Int | nbt.Long):
        return str(int(tag))
    if isinstance(tag, nbt.String):
        return str(tag)
    return compact(tag)


def _brigadier_message(error: CommandSyntaxError) -> str:
    """CommandSyntaxException.getMessage: the message, then ` at position N: …<--[HERE]`."""
    if error.command is None or error.cursor < 0:
        return error.message
    cursor = min(error.cursor, len(error.command))
    context = ("..." if cursor > 10 else "") + error.command[max(0, cursor - 10) : cursor]
    return f"{error.message} at position {cursor}: {context}<--[HERE]"


class PackManager:
    """Available and selected packs, the world's DataPacks config, and the loaded content."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.datapack_dir: pathlib.Path | None = None
        self.available: dict[str, PackInfo] = discover(None)
        self.selected: list[str] = [VANILLA]
        self.config_enabled: list[str] = [VANILLA]  # level.dat DataPacks.Enabled
        self.config_disabled: list[str] = []  # level.dat DataPacks.Disabled
        self.content = Content()
        self.pending: list[str] | None = None
        self.post_reload = False  # ServerFunctionManager.postReload: run #minecraft:load
        self._depth = 0
        # each plain function line's parse, made once when the function loads (vanilla's
        # CommandFunction.fromLines keeps the parsed entries): by line text
        self._parsed: dict[str, list[Ctx] | None] = {}

    # ------------------------------------------------------------------ repository
    def rescan(self) -> None:
        """PackRepository.reload: rediscover; selected packs that vanished drop out."""
        self.available = discover(self.datapack_dir, self.game.release)
        self.selected = [p for p in self.selected if p in self.available]

    def configure(self, datapack_dir: pathlib.Path | None) -> None:
        """MinecraftServer.configurePackRepository at start, then the first (blocking) load.

        Enabled packs of the saved config stay in order; every other available pack not in
        the Disabled list is added automatically (world and built-in sources add themselves).
        """
        self.datapack_dir = datapack_dir
        self.rescan()
        selected: list[str] = []
        for pid in self.config_enabled:
            if pid in self.available and pid not in selected:
                selected.append(pid)
            elif pid not in self.available:
                logger.warning("Missing data pack %s", pid)
        for pid in self.available:
            if pid not in self.config_disabled and pid not in selected:
                logger.info("Found new data pack %s, loading it automatically", pid)
                selected.append(pid)
        if not selected:
            logger.info("No datapacks selected, forcing vanilla")
            selected.append(VANILLA)
        self._apply(selected)

    def request_reload(self, selected: list[str]) -> None:
        """ReloadCommand.reloadPacks: the new selection takes effect when the reload completes.

        Vanilla reloads on worker threads and finishes on the main thread later; the sandbox
        completes it at the start of the next tick.
        """
        self.pending = list(selected)

    def discover_new(self) -> list[str]:
        """ReloadCommand.discoverNewPacks: the selection plus new packs not disabled."""
        self.rescan()
        out = list(self.selected)
        for pid in self.available:
            if pid not in self.config_disabled and pid not in out:
                out.append(pid)
        return out

    def finish_pending(self) -> None:
        """Complete a requested reload (called at the start of a tick)."""
        if self.pending is not None:
            selected, self.pending = self.pending, None
            self._apply([p for p in selected if p in self.available])

    def _apply(self, selected: list[str]) -> None:
        """reloadResources' main-thread step: select, record the config, swap the content."""
        self.selected = selected
        self.config_enabled = list(selected)
        self.config_disabled = [p for p in self.available if p not in selected]
        packs = [self.available[p] for p in selected]
        self._parsed = {}
        self.content = load_content(
            packs, self._check_line, self.game.profile.pack_folders, self.game.profile.release
        )
        self.post_reload = True
        known = self.content.advancements
        for progress in self.game.world.advancements.values():
            for aid in [a for a in progress if a not in known]:
                del progress[aid]

    def _check_line(self, line: str) -> str | None:
        """Parse one function line with the command tree, kept for every call of the function;
        the error text, or None."""
        from .commands import flatten, get_parse_exception, parse

        result = parse(self.game.root, line)
        error = get_parse_exception(result)
        chain = flatten(result.ctx) if error is None else None
        if error is None and chain is None:
            return "Unknown or incomplete command"
        if error is None:
            self._parsed[line] = chain
        return error.message if error is not None else None

    # ------------------------------------------------------------------ saving
    def to_json(self) -> dict[str, list[str]]:
        """The DataPacks compound of level.dat."""
        return {"Enabled": list(self.config_enabled), "Disabled": list(self.config_disabled)}

    def from_json(self, data: dict[str, Any]) -> None:
        """Read the DataPacks config back (applied by the next configure)."""
        self.config_enabled = [str(p) for p in data.get("Enabled", [VANILLA])]
        self.config_disabled = [str(p) for p in data.get("Disabled", [])]

    # ------------------------------------------------------------------ advancements
    def progress(self, player: Player) -> dict[str, dict[str, int]]:
        """The player's obtained criteria by advancement (criterion → tick obtained)."""
        return self.game.world.advancements.setdefault(player.name, {})

    def is_done(self, player: Player, adv: Advancement) -> bool:
        """AdvancementProgress.isDone for this player."""
        return adv.is_done(self.progress(player).get(adv.id, {}))

    def award(self, player: Player, adv: Advancement, criterion: str) -> bool:
        """PlayerAdvancements.award: grant one criterion; rewards when it completes."""
        done_before = self.is_done(player, adv)
        obtained = self.progress(player).setdefault(adv.id, {})
        if criterion in obtained:
            return False
        obtained[criterion] = self.game.world.tick_count
        if not done_before and self.is_done(player, adv) and adv.function is not None:
            self.reward(player, adv.function)
        return True

    def revoke(self, player: Player, adv: Advancement, criterion: str) -> bool:
        """PlayerAdvancements.revoke: remove one obtained criterion."""
        obtained = self.progress(player).get(adv.id, {})
        if criterion not in obtained:
            return False
        del obtained[criterion]
        if not obtained:
            self.progress(player).pop(adv.id, None)
        return True

    def interacted(self, player: Player, target: Entity) -> list[str]:
        """PlayerInteractTrigger.trigger: award every listening criterion whose entity matches.

        Listeners exist for criteria not yet obtained of advancements not yet done; all of
        them are tested before any is awarded (SimpleCriterionTrigger.trigger). Returns the
        advancements that got a criterion.
        """
        matched: list[tuple[Advancement, str]] = []
        for adv in list(self.content.advancements.values()):
            if self.is_done(player, adv):
                continue
            obtained = self.progress(player).get(adv.id, {})
            for name, crit in adv.criteria.items():
                if crit.trigger != INTERACT_TRIGGER or name in obtained or not crit.checkable:
                    continue
                # SimpleCriterionTrigger.trigger: the entity (and item) first, then the player
                if crit.entity is not None and not self._entity_matches(crit.entity, target):
                    continue
                if crit.player is None or self.player_matches(crit.player, player):
                    matched.append((adv, name))
        awarded: list[str] = []
        for adv, name in matched:
            if adv.id in self.content.advancements and self.award(player, adv, name):
                awarded.append(adv.id)
        return awarded

    @staticmethod
    def _id(item: str) -> str:
        return item if ":" in item else "minecraft:" + item

    def player_matches(self, cond: PlayerCondition, player: Player) -> bool:
        """EntityPredicate.matches for the clicker: `flags.is_sneaking` against the crouching
        pose, `equipment.mainhand` against the held stack's id (no serialization)."""
        if cond.sneaking is not None and self.game.poses.is_crouching(player.name) != cond.sneaking:
            return False
        if cond.mainhand is not None:
            held = player.held_item
            item = None if held is None else str(held.get("id", ""))
            return item is not None and self._id(item) in cond.mainhand
        return True

    def _entity_matches(self, cond: EntityCondition, e: Entity) -> bool:
        """EntityPredicate.matches: type first; nbt last (one serialization, like nbt=)."""
        from .selectors import compare_nbt

        if cond.types is not None and e.type_id not in cond.types:
            return False
        if cond.nbt is not None:
            return bool(compare_nbt(cond.nbt, self.game.serialize(e)))
        return True

    # ------------------------------------------------------------------ functions
    def function_ids(self, name: str, is_tag: bool) -> list[str]:
        """The functions of `name` (or of tag `#name`); KeyError when unknown."""
        if not is_tag:
            if name not in self.content.functions:
                raise KeyError(name)
            return [name]
        if name not in self.content.function_tags:
            raise KeyError(name)
        out: list[str] = []
        for v in self.content.function_tags[name]:
            ids = self.function_ids(v[1:], True) if v.startswith("#") else [v]
            out.extend(i if ":" in i else "minecraft:" + i for i in ids)
        return [i for i in out if i in self.content.functions]

    def reward(self, player: Player, function: str) -> None:
        """AdvancementRewards.grant: run the function as the player, at the player, silently."""
        if function not in self.content.functions:
            return
        source = self.game.rcon_source().with_entity(player).at(player)
        self.execute_function(function, source)

    def tick_functions(self) -> None:
        """ServerFunctionManager.tick: `#minecraft:load` after a (re)load, `#minecraft:tick`."""
        if self.post_reload:
            self.post_reload = False
            self._run_tag(LOAD_TAG)
        self._run_tag(TICK_TAG)

    def _run_tag(self, tag: str) -> None:
        """executeTagFunctions with the game loop sender (the server's source, suppressed)."""
        if tag not in self.content.function_tags:
            return
        for fid in self.function_ids(tag, True):
            self.execute_function(fid, self.game.rcon_source())

    def execute_function(self, function: str, source: Source) -> None:
        """ServerFunctionManager.execute: instantiate without arguments and run, silently.

        A macro function fails to instantiate and is skipped. Vanilla queues the call into a
        command that is running (depth 0 of its context); the sandbox runs it at once in a
        frame of its own (unverified for a `return` inside such a call).
        """
        from .commands import Frame, ignore_result

        if function not in self.content.functions:
            return
        try:
            chains = self.instantiate(function, None)
        except InstantiationError:
            return
        depth = self.game.frames[-1].depth + 1 if self.game.frames else 0
        frame = Frame(depth, ignore_result, depth)
        self.call(chains, replace(source, silent=True, callbacks=()), frame)

    def instantiate(self, function: str, arguments: Any) -> list[list[Ctx] | None]:
        """CommandFunction.instantiate: each line's parsed chain, macro lines substituted.

        A plain function ignores `arguments`. A macro function needs a compound holding every
        variable; the substituted lines are parsed now (InstantiationError with vanilla's
        `commands.function.error.*` messages).
        """
        from .commands import flatten, get_parse_exception, parse

        lines = self.content.functions[function]
        parameters = macro_parameters(lines)
        values: dict[str, str] = {}
        if parameters is not None:
            if arguments is None:
                raise InstantiationError(tr("commands.function.error.missing_arguments", function))
            for name in parameters:
                if name not in arguments:
                    raise InstantiationError(
                        tr("commands.function.error.missing_argument", function, name)
                    )
                values[name] = macro_value(arguments[name])
        chains: list[list[Ctx] | None] = []
        for line in lines:
            macro = line.startswith("$")
            if not macro and line in self._parsed:  # parsed when the function loaded
                chains.append(self._parsed[line])
                continue
            text = substitute(*macro_template(line[1:]), values) if macro else line
            result = parse(self.game.root, text)
            error = get_parse_exception(result)
            chain = flatten(result.ctx) if error is None else None
            if error is None and chain is None:
                error = result.reader.error(tr("command.unknown.command"))
            if error is not None and macro:
                raise InstantiationError(
                    tr("commands.function.error.parse", function, text, _brigadier_message(error))
                )
            chains.append(chain)
        return chains

    def call(self, chains: list[list[Ctx] | None], source: Source, frame: Frame) -> None:
        """CallFunction: run the lines in a new frame with output suppressed, until discarded.

        A failing line does not stop the function. Nesting deeper than 64 calls is refused
        (a sandbox limit; vanilla bounds the commands run instead, maxCommandChainLength).
        """
        from .commands import run_chain

        if self._depth >= _MAX_FUNCTION_DEPTH:
            logger.warning("function nested too deep; not run")
            return
        self._depth += 1
        self.game.frames.append(frame)
        epoch = frame.epoch
        try:
            with self.suppressed():
                for chain in chains:
                    if frame.epoch != epoch:
                        break
                    if chain is None:
                        continue
                    try:
                        run_chain(self.game, chain, source)
                    except CommandSyntaxError:
                        pass
        finally:
            self.game.frames.pop()
            self._depth -= 1

    @contextmanager
    def suppressed(self) -> Iterator[None]:
        """CommandSourceStack.withSuppressedOutput: feedback goes nowhere."""
        saved = self.game.out
        self.game.out = []
        try:
            yield
        finally:
            self.game.out = saved
