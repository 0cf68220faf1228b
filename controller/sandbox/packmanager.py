"""The server side of data packs: the pack repository, reloads, advancements and functions.

Mirrors PackRepository + MinecraftServer.configurePackRepository/reloadResources,
PlayerAdvancements.award/revoke, AdvancementRewards.grant and ServerFunctionManager.execute as
docs/sandbox-datapacks.md describes them. Feedback of everything a function runs is suppressed
(the function source is ``withSuppressedOutput``).
"""

from __future__ import annotations

import logging
import pathlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .datapacks import (
    INTERACT_TRIGGER,
    VANILLA,
    Advancement,
    Content,
    EntityCondition,
    PackInfo,
    discover,
    load_content,
)
from .entities import Entity, Player
from .reader import CommandSyntaxError

if TYPE_CHECKING:
    from .commands import Source
    from .game import Game

__all__ = ["PackManager"]

logger = logging.getLogger("controller.sandbox")

_MAX_FUNCTION_DEPTH = 64


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
        self._depth = 0

    # ------------------------------------------------------------------ repository
    def rescan(self) -> None:
        """PackRepository.reload: rediscover; selected packs that vanished drop out."""
        self.available = discover(self.datapack_dir)
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
        self.content = load_content(packs, self._check_line)
        known = self.content.advancements
        for progress in self.game.world.advancements.values():
            for aid in [a for a in progress if a not in known]:
                del progress[aid]

    def _check_line(self, line: str) -> str | None:
        """Parse one function line with the command tree; the error text, or None."""
        from .commands import flatten, get_parse_exception, parse

        result = parse(self.game.root, line)
        error = get_parse_exception(result)
        if error is None and flatten(result.ctx) is None:
            return "Unknown or incomplete command"
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
                if crit.entity is None or self._entity_matches(crit.entity, target):
                    matched.append((adv, name))
        awarded: list[str] = []
        for adv, name in matched:
            if adv.id in self.content.advancements and self.award(player, adv, name):
                awarded.append(adv.id)
        return awarded

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
        self.run_function(function, source)

    def run_function(self, function: str, source: Source) -> int:
        """ServerFunctionManager.execute: each line through the dispatcher, output suppressed."""
        from .commands import flatten, get_parse_exception, parse, run_chain

        lines = self.content.functions.get(function, [])
        if self._depth >= _MAX_FUNCTION_DEPTH:
            logger.warning("function %s nested too deep; not run", function)
            return 0
        self._depth += 1
        ran = 0
        try:
            with self.suppressed():
                for line in lines:
                    result = parse(self.game.root, line)
                    chain = flatten(result.ctx) if get_parse_exception(result) is None else None
                    if chain is None:
                        continue
                    try:
                        run_chain(self.game, chain, source)
                    except CommandSyntaxError:
                        pass
                    ran += 1
        finally:
            self._depth -= 1
        return ran

    @contextmanager
    def suppressed(self) -> Iterator[None]:
        """CommandSourceStack.withSuppressedOutput: feedback goes nowhere."""
        saved = self.game.out
        self.game.out = []
        try:
            yield
        finally:
            self.game.out = saved
