"""The web page's server on a real daemon: read-only (GET and HEAD; 405 otherwise), the safe
headers on every response, the rooms' JSON, the board picture equal to `show --png`'s
rendering and drawn once per revision, and the standings with names and times only."""

from __future__ import annotations

import io
import json
import re
import socket
from typing import Any

import pytest
from PIL import Image

from controller.errors import ListenError
from controller.maps.png import board_image
from controller.puzzle.flow import compute_flow
from controller.puzzle.model import Board
from controller.puzzle.sink import route_progress
from controller.web.live import LiveRooms
from controller.web.pictures import tile_pixels
from controller.web.server import SECURITY_HEADERS, WebServer
from tests.support.scrape import Reply, request
from tests.support.web_site import Site

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def _safe(reply: Reply) -> None:
    for key, value in SECURITY_HEADERS.items():
        assert reply.headers[key.lower()] == value, key
    assert reply.headers["server"] == "pipesctl"


def _json(site: Site, path: str) -> Any:
    reply = request(site.web.port, path)
    assert reply.status == 200 and reply.headers["content-type"] == "application/json"
    assert reply.headers["cache-control"] == "no-store"
    _safe(reply)
    assert not UUID.search(reply.body.decode()) and b"uuid" not in reply.body.lower()
    return json.loads(reply.body)


def test_the_page_and_its_files(site: Site) -> None:
    page = request(site.web.port, "/")
    assert page.status == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
    _safe(page)
    assert "script-src 'self'" in page.headers["content-security-policy"]
    html = page.body.decode()
    assert '<html lang="en">' in html and "<title>pipesctl rooms</title>" in html
    assert re.findall(r"<script[^>]*>", html) == ['<script src="/app.js" defer>']  # no inline
    assert "<style" not in html and " style=" not in html and " on" not in html.replace("\n", " ")
    for path, kind in (("/app.js", "text/javascript"), ("/style.css", "text/css")):
        reply = request(site.web.port, path)
        assert reply.status == 200 and reply.headers["content-type"].startswith(kind)
        _safe(reply)
    head = request(site.web.port, "/", "HEAD")
    assert head.status == 200 and head.body == b""
    assert head.headers["content-length"] == str(len(page.body))
    icon = request(site.web.port, "/favicon.ico")
    assert icon.status == 204 and icon.body == b""


def test_nothing_but_reading(site: Site) -> None:
    room = site.harness.room
    before = (list(room.board.rotations), room.status())
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"):
        for path in ("/", "/rooms.json", "/rooms/lobby.png", "/standings.json"):
            reply = request(site.web.port, path, method)
            assert reply.status == 405 and reply.headers["allow"] == "GET, HEAD", (method, path)
            _safe(reply)
    assert (list(room.board.rotations), room.status()) == before


def test_unknown_addresses_are_not_found(site: Site) -> None:
    for path in (
        "/nope",
        "/rooms/hall.png",
        "/rooms/../app.js",
        "/rooms/LOBBY.png",
        "/static/app.js",
    ):
        reply = request(site.web.port, path)
        assert reply.status == 404, path
        _safe(reply)


def test_rooms_json_follows_the_room(site: Site) -> None:
    h = site.harness
    room = h.room
    assert room.play is not None and room.state is not None
    doc = _json(site, "/rooms.json")
    (lobby,) = doc["rooms"]
    assert lobby["name"] == "lobby" and lobby["server"] == "main" and lobby["size"] == [7, 7]
    assert lobby["water"] == [room.play.wet_count, 49] and lobby["solved"] is False
    assert lobby["started_at"] == room.state.started_at and lobby["solved_at"] is None
    assert lobby["picture"] == f"/rooms/lobby.png?rev={lobby['revision']}"
    h.click(0, 0)
    h.daemon.poll("main")
    again = _json(site, "/rooms.json?water=0")["rooms"][0]  # a query changes nothing
    assert again["revision"] > lobby["revision"]
    assert again["water"] == [room.play.wet_count, 49]


def _picture(site: Site) -> Image.Image:
    reply = request(site.web.port, "/rooms/lobby.png?rev=1")
    assert reply.status == 200 and reply.headers["content-type"] == "image/png"
    assert reply.headers["cache-control"] == "no-store"
    _safe(reply)
    return Image.open(io.BytesIO(reply.body)).convert("RGB")


def test_the_picture_is_the_boards_rendering_drawn_once_per_revision(site: Site) -> None:
    h = site.harness
    room = h.room
    cache_of = site.web.site.pictures

    def expected() -> Image.Image:
        assert room.play is not None
        return board_image(room.board, room.play.classes, tile_pixels(7, 7))

    first = _picture(site)
    assert first.tobytes() == expected().tobytes()
    drawn = cache_of.renders
    _picture(site)
    assert cache_of.renders == drawn  # the same revision: from the cache
    h.click(0, 0)
    h.daemon.poll("main")
    second = _picture(site)
    assert cache_of.renders == drawn + 1
    assert second.tobytes() == expected().tobytes() != first.tobytes()


def test_standings_show_names_and_times_only(site: Site) -> None:
    h = site.harness
    h.solve()
    room = h.room
    assert room.state is not None and room.state.solved_at is not None
    record = room.state.players["Alex"]
    doc = _json(site, "/standings.json")
    alex = {"rank": 1, "name": "Alex", "solves": 1, "best_s": record.best, "server": "main"}
    assert doc["overall"]["solves"] == [alex] and doc["overall"]["best_time"] == [alex]
    assert doc["rooms"] == [{"name": "lobby", "solves": [alex], "best_time": [alex]}]
    assert doc["daily"] == []  # not a daily room
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", doc["day"])
    assert _json(site, "/rooms.json")["rooms"][0]["solved"] is True


def test_a_web_port_in_use_is_a_clear_error(site: Site) -> None:
    with pytest.raises(
        ListenError,
        match=rf"web_port: cannot listen on 127.0.0.1 port {site.web.port}: the port is in use",
    ):
        WebServer(LiveRooms({}), "127.0.0.1", site.web.port)
    with socket.socket(socket.AF_INET6) as probe:
        try:
            probe.bind(("::1", 0))
        except OSError:
            return  # no IPv6 loopback here
    six = WebServer(LiveRooms({}), "::1", 0)
    try:
        assert six.url == f"http://[::1]:{six.port}/"
        assert request(six.port, "/rooms.json", host="::1").status == 200
    finally:
        six.close()


def _route(board: Board) -> dict[str, Any] | None:
    flow = compute_flow(board)
    route = route_progress(board, flow.classes, flow.axes)
    if route is None:
        return None
    return {
        "reached": route.reached,
        "length": route.length,
        "sink": route.sink,
        "connectivity": round(route.connectivity, 4),
    }


def test_a_tree_room_has_no_route(site: Site) -> None:
    assert _json(site, "/rooms.json")["rooms"][0]["route"] is None


def test_a_sink_room_shows_its_route_progress(sink_site: Site) -> None:
    h = sink_site.harness
    board = h.room.board
    (lobby,) = _json(sink_site, "/rooms.json")["rooms"]
    assert lobby["route"] is not None and lobby["route"] == _route(board)
    assert lobby["route"]["length"] > 1
    # A turn that changes how far the water gets along the route shows in the next document.
    for idx in sorted(set(range(board.size)) - board.fixed):
        turned = board.copy()
        turned.rotations[idx] = (turned.rotations[idx] + 1) % 4
        if _route(turned) != lobby["route"]:
            break
    else:
        raise AssertionError("no single turn changes the route progress")
    h.click(idx % board.width, idx // board.width)
    h.daemon.poll("main")
    again = _json(sink_site, "/rooms.json")["rooms"][0]
    assert again["route"] == _route(turned) == _route(h.room.board)
