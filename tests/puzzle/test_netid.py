"""Net game ids: the parser against hand-made ids, round trips, and Net's own boards (the corpus
in tests/puzzle/data, generated with sgt-net) solved by deduction alone."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from controller.puzzle import solver
from controller.puzzle.deduce import ALL_RULES, DEADEND, masks_of
from controller.puzzle.generators import GeneratorParams, generate
from controller.puzzle.model import Direction, bit
from controller.puzzle.netid import (
    ARMS_TO_NET,
    NET_TO_ARMS,
    board_from_net_id,
    net_id,
    parse_net_id,
)
from tests.support.brute_force import brute_force_solutions

DATA = Path(__file__).parent / "data"


def corpus(name: str) -> list[str]:
    """The game ids of a corpus file (comment lines start with #)."""
    lines = (DATA / name).read_text(encoding="ascii").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def test_net_bits_map_to_our_directions() -> None:
    # Net: 1 right, 2 up, 4 left, 8 down.
    assert NET_TO_ARMS[1] == bit(Direction.E)
    assert NET_TO_ARMS[2] == bit(Direction.N)
    assert NET_TO_ARMS[4] == bit(Direction.W)
    assert NET_TO_ARMS[8] == bit(Direction.S)
    assert NET_TO_ARMS[0xB] == bit(Direction.E) | bit(Direction.N) | bit(Direction.S)
    assert all(ARMS_TO_NET[NET_TO_ARMS[v]] == v for v in range(16))


def test_parse_a_hand_made_id() -> None:
    # 3x3, row by row: a T pointing right-up-down in the middle of the left column, and so on.
    width, height, masks = parse_net_id("3x3:8c4b5a3e2")
    assert (width, height) == (3, 3)
    assert masks[0] == bit(Direction.S)  # 8 = down
    assert masks[1] == bit(Direction.S) | bit(Direction.W)  # c = left + down
    assert masks[3] == bit(Direction.E) | bit(Direction.N) | bit(Direction.S)  # b
    assert masks[8] == bit(Direction.N)  # 2 = up
    assert parse_net_id("3:8C4B5A3E2") == (3, 3, masks)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("3x3w:8c4b5a3e2", "wrapping"),
        ("3x3:8c4vb5a3e2", "barriers"),
        ("3x3:8c4b5a3e2h", "barriers"),
        ("3x3:8c4b5a3e", "expected 9 tiles"),
        ("3x3:8c4b5a3e22", "expected 9 tiles"),
        ("3x3:8c4b0a3e2", "blank"),
        ("3x3:8c4bfa3e2", "a cross"),
        ("3x3:8c4bza3e2", "not a hex digit"),
        ("9x9#12345", "random-seed"),
        ("2x3:8c4b5a", "width must be 3..128"),
        ("3x200:" + "1" * 600, "height must be 3..128"),
        ("huge:123", "parameters"),
        ("8c4b5a3e2", "expected WxH"),
    ],
)
def test_bad_ids_name_the_field(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=f"^net_id: .*{problem}"):
        parse_net_id(text)


def test_an_id_without_solution_is_refused() -> None:
    with pytest.raises(ValueError, match="^net_id: this puzzle has no solution"):
        board_from_net_id("3x3:111111111")


def test_round_trip_of_our_boards() -> None:
    for seed in range(5):
        board = generate(9, 7, seed=seed)
        back = board_from_net_id(net_id(board))
        assert (back.width, back.height) == (9, 7)
        assert back.shapes == board.shapes
        assert [back.mask(t) for t in range(back.size)] == [board.mask(t) for t in range(63)]
        assert [back.solved_mask(t) for t in range(63)] == [board.solved_mask(t) for t in range(63)]
        assert back.source == (4, 3) and back.generator == "net"


def test_corpus_has_the_promised_sizes() -> None:
    sizes = Counter(line.split(":")[0] for line in corpus("net_unique.txt"))
    assert sizes["31x31"] >= 30 and sizes["64x64"] >= 10
    assert {"5x5", "9x9", "13x11", "15x15", "20x20"} <= set(sizes)


def test_net_unique_boards_are_solved_by_deduction_alone() -> None:
    """Every unique Net board of the corpus (5x5 to 64x64): deduction alone fixes every tile,
    and the dead-end rule is what it takes on some of them."""
    needs_dead_ends = 0
    for text in corpus("net_unique.txt"):
        board = board_from_net_id(text)
        st = solver.deduction(board)
        assert st is not None and st.solved, text[:12]
        assert solver.is_solution(board, masks_of(st))
        weaker = solver.deduction(board, ALL_RULES & ~DEADEND)
        assert weaker is not None
        needs_dead_ends += not weaker.solved
    assert needs_dead_ends >= 5


def test_net_small_unique_boards_agree_with_brute_force() -> None:
    for text in corpus("net_unique.txt"):
        board = board_from_net_id(text)
        if board.size > 7 * 7:
            continue
        sols = brute_force_solutions(board)
        assert len(sols) == 1
        assert sols[0] == tuple(board.solved_mask(t) for t in range(board.size))


def test_net_ambiguous_boards_count_like_brute_force() -> None:
    ambiguous = 0
    for text in corpus("net_ambiguous.txt"):
        board = board_from_net_id(text)
        sols = brute_force_solutions(board)
        assert solver.count_solutions(board, limit=100_000) == len(sols)
        ambiguous += len(sols) > 1
    assert ambiguous >= 5


def test_generated_boards_read_back_through_net_ids() -> None:
    board = generate(12, 8, seed=3, params=GeneratorParams(generator="eller"))
    assert parse_net_id(net_id(board))[2] == [board.mask(t) for t in range(board.size)]
