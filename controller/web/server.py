"""The read-only web page of the rooms (`web_port`): stdlib `http.server` in its own threads.

GET and HEAD only (anything else: 405); no page changes anything. Every response carries a
strict Content-Security-Policy (no inline script or style: the page's script and style are
files of their own), `nosniff`, no referrer and no framing; live data is never cached.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import socket
import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from controller.errors import ListenError
from controller.runtime.clock import SYSTEM_CLOCK, Clock
from controller.runtime.daily import utc_date
from controller.web.documents import rooms_document, standings_document
from controller.web.live import LiveRooms
from controller.web.pictures import PictureCache
from controller.web.standings import Records

__all__ = ["SECURITY_HEADERS", "WebServer"]

log = logging.getLogger("controller.web")

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}
LIVE = "no-store"  # the rooms' data and pictures change every second
STATIC_CACHE = "no-cache"  # the page's own files: revalidated, they change with an upgrade

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
PICTURE = re.compile(r"/rooms/([a-z0-9_-]{1,32})\.png")  # room names: controller/config.py


def _static(name: str) -> bytes:
    return resources.files("controller.web").joinpath("static", name).read_bytes()


@dataclass
class Site:
    """What the pages are made of."""

    live: LiveRooms
    pictures: PictureCache
    clock: Clock
    records: Records | None = None  # the records store; None: the rooms' own state records

    def json(self, path: str) -> dict[str, Any] | None:
        """The JSON document at `path` (None: there is none)."""
        now = self.clock.time()
        if path == "/rooms.json":
            return rooms_document(self.live.views(), now)
        if path == "/standings.json":
            names = [v.name for v in self.live.views()]
            records = self.records if self.records is not None else self.live.records()
            return standings_document(records, names, utc_date(now))
        return None


class _Handler(BaseHTTPRequestHandler):
    """One request; `site` is set on a subclass per server."""

    site: Site
    protocol_version = "HTTP/1.1"
    timeout = 20  # seconds a connection may stay silent: an idle client does not keep a thread

    def version_string(self) -> str:
        """The `Server` header: the name only, no versions."""
        return "pipesctl"

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._answer(body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(body=False)

    def _not_allowed(self) -> None:
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.send_header("Cache-Control", LIVE)
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _not_allowed

    def end_headers(self) -> None:
        """Every response, errors included, carries the security headers."""
        for key, value in SECURITY_HEADERS.items():
            self.send_header(key, value)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        log.debug("web %s: " + format, self.client_address[0], *args)

    def _answer(self, *, body: bool) -> None:
        path = urlsplit(self.path).path
        if path == "/favicon.ico":  # the page has no icon: nothing, rather than a 404
            self.send_response(HTTPStatus.NO_CONTENT)
            self.send_header("Cache-Control", STATIC_CACHE)
            self.end_headers()
            return
        try:
            found = self._find(path)
        except Exception:  # noqa: BLE001 - a page's error never ends the server
            log.exception("web: %s failed", path)
            self.send_error(HTTPStatus.INTERNAL_SERVER_ERROR)
            return
        if found is None:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        data, kind, cache = found
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", cache)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _find(self, path: str) -> tuple[bytes, str, str] | None:
        if path in STATIC:
            name, kind = STATIC[path]
            return _static(name), kind, STATIC_CACHE
        document = self.site.json(path)
        if document is not None:
            data = json.dumps(document, ensure_ascii=True, separators=(",", ":")).encode()
            return data, "application/json", LIVE
        match = PICTURE.fullmatch(path)
        if match is not None:
            view = self.site.live.view(match.group(1))
            png = None if view is None else self.site.pictures.png(view)
            if png is not None:
                return png, "image/png", LIVE
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False


class _Server6(_Server):
    address_family = socket.AF_INET6


class WebServer:
    """The page on `bind`:`port` (port 0: any free port, for tests) until `close`."""

    def __init__(
        self,
        live: LiveRooms,
        bind: str = "127.0.0.1",
        port: int = 8080,
        clock: Clock = SYSTEM_CLOCK,
        records: Records | None = None,
    ) -> None:
        self.site = Site(live, PictureCache(), clock, records)
        handler = type("Handler", (_Handler,), {"site": self.site})
        kind = _Server6 if ipaddress.ip_address(bind).version == 6 else _Server
        try:
            self._httpd = kind((bind, port), handler)
        except OSError as exc:
            raise ListenError.of("web_port", bind, port, exc) from None
        self.bind = bind
        self.port: int = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="pipesctl-web", daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        """The page's address."""
        host = f"[{self.bind}]" if ":" in self.bind else self.bind
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        """Stop serving and free the port."""
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=2.0)
