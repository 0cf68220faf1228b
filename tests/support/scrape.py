"""Reading the daemon's HTTP endpoints as a client would: a Prometheus scrape parsed with the
client library's own parser, and plain GETs with their status, headers and body."""

from __future__ import annotations

import http.client
from dataclasses import dataclass

from prometheus_client.parser import text_string_to_metric_families

__all__ = ["Reply", "Samples", "request", "scrape"]


@dataclass(frozen=True)
class Reply:
    """One HTTP response."""

    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes


def request(port: int, path: str, method: str = "GET", host: str = "127.0.0.1") -> Reply:
    """One request on a fresh connection."""
    conn = http.client.HTTPConnection(host, port, timeout=10)
    try:
        conn.request(method, path)
        resp = conn.getresponse()
        body = resp.read()
        return Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, body)
    finally:
        conn.close()


class Samples:
    """A scrape's samples: `value(name, **labels)`; `names` is every sample name seen."""

    def __init__(self, text: str) -> None:
        self.rows: list[tuple[str, dict[str, str], float]] = []
        self.types: dict[str, str] = {}
        for family in text_string_to_metric_families(text):
            self.types[family.name] = family.type
            for s in family.samples:
                self.rows.append((s.name, dict(s.labels), s.value))

    @property
    def names(self) -> set[str]:
        return {name for name, _, _ in self.rows}

    def value(self, name: str, **labels: str) -> float:
        """The one sample of `name` whose labels include `labels`."""
        found = [v for n, ls, v in self.rows if n == name and labels.items() <= ls.items()]
        assert len(found) == 1, (name, labels, found)
        return found[0]


def scrape(port: int, host: str = "127.0.0.1") -> Samples:
    """GET /metrics and parse it."""
    reply = request(port, "/metrics", host=host)
    assert reply.status == 200, reply
    return Samples(reply.body.decode("utf-8"))
