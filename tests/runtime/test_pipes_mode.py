"""The room rules of each pipes mode (controller/runtime/pipes_mode.py)."""

from __future__ import annotations

from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.sink import sink_par_report
from controller.runtime.pipes_mode import rules_for
from controller.world.geometry import Room


def test_a_sink_room_announces_par_only_when_the_search_proved_it() -> None:
    """31×31 seed 4 once announced the bound 359 as par (the hints need 300)."""
    rules = rules_for("sink", Room("lobby", (0, 100, 0), 31, 31), 1_000_000)
    inexact = generate(31, 31, seed=4, params=GeneratorParams(mode="sink"))
    report = sink_par_report(inexact)
    assert not report.exact and report.lower < report.clicks
    assert rules.par(inexact) is None
    exact = generate(7, 7, seed=4, params=GeneratorParams(mode="sink"))
    assert sink_par_report(exact).exact
    assert rules.par(exact) == sink_par_report(exact).clicks
