"""Record what a room's daemon asks of the sandbox game, then replay it against the bare game:
where the sandbox's time goes, and whether a changed sandbox still answers the same.

`record` runs one session against `Sandbox()` (trigger mode with the data pack installed, or
scan mode without it): the build of an N×N room, 10 s with nobody online, a player joining the
room, 8 s with the player standing there, a 10×10 patch of the east-edge layer replaced by
stone, then 20 clicks along the solution 0.2 s apart while the tamper guard narrows the patch
down and repairs it. Every call the game receives (commands with their replies and cost
counters, ticks, the player's joins, moves and clicks) is written as one JSON line, and a digest
of the whole game state at the end.

`replay` feeds the same calls to a fresh `Game` in this process, one after the other (no
threads, no sockets), times each command and tick, and checks every reply, every cost counter
and the final digest against the recording. Random UUIDs (dropped items) come from a seeded
generator in both, so the two runs agree.

Run:
    .venv/bin/python -m bench.sandbox_trace record 64 /tmp/trace64.jsonl [scan]
    .venv/bin/python -m bench.sandbox_trace replay /tmp/trace64.jsonl [--profile]
"""

from __future__ import annotations

import cProfile
import hashlib
import json
import pstats
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import nbtlib

from bench.detection_setup import BenchMode

__all__ = ["digest", "main", "record", "replay"]

_SERVER_THREAD = "Server thread"
_RECORDED = ("execute", "tick", "join", "move", "leave", "use_entity", "attack_entity")


@contextmanager
def seeded_uuids(seed: int = 7, only_thread: str | None = None) -> Iterator[None]:
    """uuid.uuid4 from a seeded generator (on `only_thread` only, when given)."""
    rng = random.Random(seed)
    original = uuid.uuid4

    def fake() -> uuid.UUID:
        if only_thread is not None and threading.current_thread().name != only_thread:
            return original()
        return uuid.UUID(int=rng.getrandbits(128), version=4)

    uuid.uuid4 = fake  # type: ignore[assignment]
    try:
        yield
    finally:
        uuid.uuid4 = original  # type: ignore[assignment]


def digest(game: Any) -> dict[str, str]:
    """Hashes of everything the game could show, by part: entities (in level order, with their
    NBT and tick counters), blocks, scores, storage, logs, sounds, events, inboxes, costs."""
    from controller.sandbox.profile import playing

    w = game.world
    ents = hashlib.sha256()
    with playing(game.profile):
        for e in w.entities.values():
            counters = (getattr(e, "age", None), getattr(e, "check_interval", None))
            ents.update(f"{e.uuid} {e.removed} {e.stored} {counters}".encode())
            ents.update(nbtlib.serialize_tag(e.to_nbt()).encode())
    blocks = hashlib.sha256()
    for dim in sorted(w.blocks):
        for pos, state in sorted(w.blocks[dim].items()):
            blocks.update(f"{dim}{pos}{state}".encode())
    parts: dict[str, Any] = {
        "scores": w.scores,
        "objectives": sorted(w.objectives),
        "storage": {k: nbtlib.serialize_tag(v) for k, v in w.storage.items()},
        "server_log": w.server_log,
        "sounds": w.sounds,
        "events": w.events,
        "inboxes": {name: p.inbox for name, p in w.players.items()},
        "costs": [game.total_cost, game.background_cost],
        "tick": w.tick_count,
        "levels": sorted((str(k), v) for k, v in w.levels.items()),
        "entity_status": sorted((str(k), v) for k, v in w.entity_status.items()),
    }
    out = {"entities": ents.hexdigest(), "blocks": blocks.hexdigest()}
    for key, value in parts.items():
        text = json.dumps(value, sort_keys=True, default=str)
        out[key] = hashlib.sha256(text.encode()).hexdigest()
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, uuid.UUID):
        return {"uuid": str(value)}
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"uuid"}:
        return uuid.UUID(value["uuid"])
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def _wrap_game(log: list[dict[str, Any]]) -> Callable[[], None]:
    """Record the Game's calls (outermost only) into `log`; returns the undo."""
    from controller.sandbox.game import Game

    depth = [0]
    saved = {name: getattr(Game, name) for name in _RECORDED}

    def wrapper(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def run(game: Any, *args: Any) -> Any:
            depth[0] += 1
            error: BaseException | None = None
            result = None
            try:
                result = method(game, *args)
            except BaseException as exc:  # recorded, then raised again
                error = exc
            finally:
                depth[0] -= 1
            if depth[0] == 0:
                entry: dict[str, Any] = {"op": name, "args": _jsonable(list(args))}
                if error is not None:
                    entry["error"] = repr(error)
                if name == "execute":
                    entry["out"] = result
                    entry["cost"] = dict(game.last_cost)
                elif name == "tick":
                    entry["cost"] = dict(game.total_cost)
                else:
                    entry["result"] = _jsonable(result)
                log.append(entry)
            if error is not None:
                raise error
            return result

        return run

    for name, method in saved.items():
        setattr(Game, name, wrapper(name, method))

    def undo() -> None:
        for name, method in saved.items():
            setattr(Game, name, method)

    return undo


def record(size: int, path: Path, mode: BenchMode = "trigger") -> None:
    """Run the session against a Sandbox (the daemon in `mode`) and write its trace to
    `path`."""
    from bench.detection_setup import on_room, setup, turns_applied
    from controller.runtime.demo import next_click, solution_order

    log: list[dict[str, Any]] = []
    undo = _wrap_game(log)
    started = time.perf_counter()
    try:
        with seeded_uuids(only_thread=_SERVER_THREAD), setup(mode, size) as s:
            built = time.perf_counter() - started
            sb, room, daemon = s.sb, s.room, s.daemon
            stop = threading.Event()
            loop = threading.Thread(target=daemon.run, args=(stop,), daemon=True)
            loop.start()
            time.sleep(10.0)
            sb.join("Alex", on_room(0, 1, size))
            time.sleep(8.0)
            y = room.geom.y0 - 2
            sb.call(lambda g: g.execute(f"fill 2 {y} 2 11 {y} 11 minecraft:stone"))
            order = solution_order(room.board)
            latencies: list[float] = []
            with turns_applied(room) as done_at:
                for _ in range(20):
                    idx = next_click(room.board, order)
                    if idx is None:
                        break
                    x, fy, z = room.geom.frame_pos(idx % size, idx // size)
                    sb.move("Alex", (x + 0.5, fy + 1, z + 0.5))
                    n, t_click = len(done_at), time.perf_counter()
                    sb.use_entity("Alex", room.uuids[idx])
                    while len(done_at) == n and time.perf_counter() - t_click < 5.0:
                        time.sleep(0.0005)
                    if len(done_at) > n:
                        latencies.append(done_at[-1][1] - t_click)
                    time.sleep(0.2)
            time.sleep(2.0)
            stop.set()
            loop.join()
            # the log so far and the state now, taken together on the server thread
            final, upto = sb.call(lambda g: (digest(g), len(log)))
    finally:
        undo()
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps({"op": "setup", "mode": mode}) + "\n")
        for entry in log[:upto]:
            f.write(json.dumps(entry) + "\n")
        f.write(json.dumps({"op": "digest", "value": final}) + "\n")
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000 if ordered else 0.0
    print(
        f"{size}×{size}: build {built:.1f} s; {upto} calls; clicks applied "
        f"{len(latencies)}, p50 {statistics.median(ordered) * 1000 if ordered else 0:.0f} ms, "
        f"p95 {p95:.0f} ms"
    )


def _kind(command: str) -> str:
    """A command with its numbers and UUIDs blanked, for grouping."""
    text = re.sub(r"#pipes\.\w+\.owner pipes_lease matches -?\d+ run ", "… ", command)
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27}", "U", text)
    return re.sub(r"-?\d+(\.\d+)?", "N", text)[:100]


def replay(path: Path, profile: bool = False) -> bool:
    """Replay a trace against a fresh Game; print timings; True when everything matched."""
    from controller.maps.datapack import PACK_FOLDER, install_pack
    from controller.sandbox.game import Game
    from controller.versions import release
    from controller.world.datapack import build

    entries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    mismatches: list[str] = []
    times: dict[str, list[float]] = {}
    playing: dict[str, list[float]] = {}  # the commands from the player's join on
    first = times
    tick_times: list[float] = []
    prof = cProfile.Profile() if profile else None
    with tempfile.TemporaryDirectory(prefix="pipesctl-trace-") as tmp, seeded_uuids():
        packs = Path(tmp) / "world" / "datapacks"
        if entries[0] == {"op": "setup", "mode": "trigger"}:
            install_pack(packs / PACK_FOLDER, build(release("26.1")))
        game = Game()
        game.configure_datapacks(packs)
        if prof is not None:
            prof.enable()
        for n, entry in enumerate(entries):
            op = entry["op"]
            if op == "setup":
                continue
            if op == "digest":
                now = digest(game)
                for part, value in entry["value"].items():
                    if now.get(part) != value:
                        mismatches.append(f"final state differs: {part}")
                continue
            args = [_from_json(a) for a in entry["args"]]
            t = time.perf_counter()
            try:
                result = getattr(game, op)(*args)
            except Exception as exc:
                result = None
                if repr(exc) != entry.get("error"):
                    mismatches.append(f"#{n} {op}: raised {exc!r}, not {entry.get('error')}")
            elapsed = time.perf_counter() - t
            if op == "join":
                times = playing
            if op == "execute":
                times.setdefault(_kind(args[0]), []).append(elapsed)
                if result != entry["out"] or game.last_cost != entry["cost"]:
                    mismatches.append(
                        f"#{n} {args[0][:120]}: {result} {game.last_cost} != "
                        f"{entry['out']} {entry['cost']}"
                    )
            elif op == "tick":
                tick_times.append(elapsed)
                if game.total_cost != entry["cost"]:
                    mismatches.append(f"#{n} tick: {game.total_cost} != {entry['cost']}")
            elif _jsonable(result) != entry["result"]:
                mismatches.append(f"#{n} {op}{tuple(args)}: {result} != {entry['result']}")
        if prof is not None:
            prof.disable()
    print(f"{path}: {len(tick_times)} ticks in {sum(tick_times):.2f} s")
    for title, table in (("before the join", first), ("from the join on", playing)):
        total = sum(sum(v) for v in table.values())
        count = sum(len(v) for v in table.values())
        print(f"\n{title}: {count} commands in {total:.2f} s\n")
        print("| total s | count | mean ms | median ms | max ms | command |")
        print("|---:|---:|---:|---:|---:|---|")
        for kind, ts in sorted(table.items(), key=lambda kv: -sum(kv[1]))[:20]:
            print(
                f"| {sum(ts):.3f} | {len(ts)} | {statistics.fmean(ts) * 1000:.2f} "
                f"| {statistics.median(ts) * 1000:.2f} | {max(ts) * 1000:.2f} | `{kind}` |"
            )
    for line in mismatches[:20]:
        print("MISMATCH", line)
    print(f"{len(mismatches)} mismatches")
    if prof is not None:
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    return not mismatches


def main() -> None:
    """`record <size> <path> [scan]` or `replay <path> [--profile]`."""
    args = sys.argv[1:]
    if args[:1] == ["record"] and len(args) in (3, 4):
        record(int(args[1]), Path(args[2]), "scan" if args[3:] == ["scan"] else "trigger")
    elif args[:1] == ["replay"] and len(args) >= 2:
        ok = replay(Path(args[1]), "--profile" in args)
        sys.exit(0 if ok else 1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
