"""The web page in a real headless browser (Debian's Chromium driven by playwright): it shows
the board's picture, follows a click in the game without reloading, escapes names, breaks no
rule of its Content-Security-Policy, and meets the accessibility basics (a title, `lang`, alt
text on every image, WCAG AA contrast of every text)."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from controller.maps.png import board_image
from controller.puzzle.flow import compute_flow
from controller.puzzle.sink import route_progress
from controller.runtime.records import PlayerRecord
from controller.web.pictures import tile_pixels
from tests.support.web_site import Site

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "Debian's Chromium is not installed (/usr/bin/chromium; `apt-get install chromium`)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ODD_NAME = '<img src=x onerror="window.hacked=1">&amp;'  # never an account name: escaping

# Every element with text of its own: its colours, its font, and the first opaque background
# behind it (the page's default is white).
CONTRAST_JS = """() => {
  const rgba = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") continue;
    let bg = [255, 255, 255, 1];
    for (let node = el; node; node = node.parentElement) {
      const c = rgba(getComputedStyle(node).backgroundColor);
      if (c.length === 4 ? c[3] > 0 : c.length === 3) { bg = c; break; }
    }
    out.push({text: el.textContent.trim().slice(0, 40), fg: rgba(style.color), bg,
              size: parseFloat(style.fontSize), weight: parseInt(style.fontWeight, 10)});
  }
  return out;
}"""


def _luminance(rgb: list[float]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: list[float], bg: list[float]) -> float:
    """The WCAG contrast ratio (a translucent text colour blended over its background)."""
    alpha = fg[3] if len(fg) == 4 else 1.0
    blended = [alpha * f + (1 - alpha) * b for f, b in zip(fg[:3], bg[:3], strict=True)]
    hi, lo = sorted((_luminance(blended), _luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=ARGS,
            viewport={"width": 1280, "height": 900},
            device_scale_factor=1,
        )
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()


@pytest.fixture
def running(site: Site) -> Iterator[Site]:
    """The daemon's own loop in its thread (it polls, applies clicks, runs its timers)."""
    yield from _run(site)


@pytest.fixture
def running_sink(sink_site: Site) -> Iterator[Site]:
    """The same for a sink room."""
    yield from _run(sink_site)


def _run(site: Site) -> Iterator[Site]:
    stop = threading.Event()
    thread = threading.Thread(target=site.harness.daemon.run, args=(stop,), daemon=True)
    thread.start()
    try:
        yield site
    finally:
        stop.set()
        thread.join(10)


def _water_changing_tile(site: Site) -> tuple[int, int, int]:
    """A tile whose quarter turn changes how far the water reaches, and the water then."""
    board = site.harness.room.board
    now = compute_flow(board).wet_count
    for idx in range(board.size):
        turned = board.copy()
        turned.rotations[idx] = (turned.rotations[idx] + 1) % 4
        wet = compute_flow(turned).wet_count
        if wet != now:
            return idx % board.width, idx // board.width, wet
    raise AssertionError("no single turn changes the water")


def test_the_page_shows_the_board_and_follows_a_click(running: Site, page: Any) -> None:
    site, room = running, running.harness.room
    assert room.state is not None
    room.state.players[ODD_NAME] = PlayerRecord(2, 31.5, [31.5, 40.0])
    room.notify()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("dialog", lambda d: problems.append(f"dialog {d.message}"))
    page.goto(site.web.url)
    card = page.locator('article[data-room="lobby"]')
    image = card.locator("img")
    page.wait_for_function(
        "() => { const i = document.querySelector('article[data-room=lobby] img');"
        " return i && i.complete && i.naturalWidth > 0; }"
    )
    water = card.locator("dd.water")
    assert water.text_content() == f"{room.play_state.wet_count} / 49"

    # The picture region of a screenshot is the board as `show --png` draws it.
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    box = image.bounding_box()
    region = shot.crop(
        (
            round(box["x"]),
            round(box["y"]),
            round(box["x"] + box["width"]),
            round(box["y"] + box["height"]),
        )
    )
    want = board_image(room.board, room.play_state.classes, tile_pixels(7, 7)).resize(region.size)
    assert len(want.getcolors(1 << 16) or []) > 4  # a real picture, not a blank
    diff = ImageStat.Stat(ImageChops.difference(region, want)).mean
    assert max(diff) < 4, diff
    off = ImageChops.difference(region, want).convert("L").point(lambda v: 255 if v > 48 else 0)
    assert (ImageStat.Stat(off).mean[0] / 255) < 0.01

    # A click in the game shows on the page without a reload: the water, then a new picture.
    page.evaluate("() => { window.sameDocument = true; }")
    shown = image.get_attribute("src") or ""
    assert "rev=" in shown
    i, j, wet = _water_changing_tile(site)
    site.harness.click(i, j)
    page.wait_for_function(
        "(want) => document.querySelector('article[data-room=lobby] dd.water')"
        ".textContent === want",
        arg=f"{wet} / 49",
        timeout=15000,
    )
    page.wait_for_function(
        "(old) => document.querySelector('article[data-room=lobby] img').getAttribute('src')"
        " !== old",
        arg=shown,
        timeout=15000,
    )
    assert page.evaluate("() => window.sameDocument") is True
    assert f"{wet} of 49" in (image.get_attribute("alt") or "")

    # Names are text, never markup.
    page.wait_for_function("() => document.querySelectorAll('#boards td').length > 0")
    cells = page.locator("#boards td").all_text_contents()
    assert ODD_NAME in cells
    assert page.evaluate("() => window.hacked") is None
    assert page.locator("img").count() == 1
    assert problems == []


def test_accessibility_basics(running: Site, page: Any) -> None:
    page.goto(running.web.url)
    page.wait_for_selector('article[data-room="lobby"] img[src]')
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Live')")
    assert page.title() == "pipesctl rooms"
    assert page.evaluate("() => document.documentElement.lang") == "en"
    alts = page.evaluate("() => [...document.images].map((i) => i.getAttribute('alt'))")
    assert alts and all(a and a.strip() for a in alts), alts
    assert page.locator("h1").count() == 1
    texts = page.evaluate(CONTRAST_JS)
    assert len(texts) > 10
    for t in texts:
        large = t["size"] >= 24 or (t["size"] >= 18.66 and t["weight"] >= 700)
        ratio = contrast(t["fg"], t["bg"])
        assert ratio >= (3.0 if large else 4.5), (t, ratio)


def test_contrast_formula_against_known_pairs() -> None:
    assert contrast([0, 0, 0], [255, 255, 255]) == pytest.approx(21.0)
    assert contrast([255, 255, 255], [255, 255, 255]) == pytest.approx(1.0)
    assert contrast([118, 118, 118], [255, 255, 255]) == pytest.approx(4.54, abs=0.01)  # #767676


def test_a_sink_room_shows_route_progress(running_sink: Site, page: Any) -> None:
    room = running_sink.harness.room
    play = room.play_state
    route = route_progress(room.board, play.classes, play.axes)
    assert route is not None
    sink = " + sink" if route.sink else ""
    want = f"{route.reached} / {route.length}{sink} ({route.connectivity:.2f})"
    page.goto(running_sink.web.url)
    card = page.locator('article[data-room="lobby"]')
    page.wait_for_function(
        "(want) => { const d = document.querySelector('article[data-room=lobby] dd.water');"
        " return d && d.textContent === want; }",
        arg=want,
    )
    assert card.locator("dt").first.text_content() == "Route"
    alt = card.locator("img").get_attribute("alt") or ""
    assert f"water along {route.reached} of {route.length} route steps" in alt
