"""Properties of grid scoring, checked on generated grids and rulesets (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    PRESETS,
    RANKS,
    Card,
    Grid,
    RulesError,
    Ruleset,
    check_grid_cards,
    grid_total,
    resolve_ruleset,
    score_grid,
    score_hole,
)
from scoring.rules.grid import prepare_grid

from .reference import is_maximal, lowest_maximal_score, present_matches

SHAPES = [(2, 2), (2, 3), (2, 4), (2, 5), (3, 3)]
# A few ranks often, so that grids hold many possible matches; all ranks sometimes.
RANK = st.one_of(st.sampled_from(["Q", "2", "X", "K", "5"]), st.sampled_from(RANKS))


@st.composite
def rulesets(draw: st.DrawFn, blocks: bool = False, shapes: list[tuple[int, int]] = SHAPES) -> Ruleset:
    """Any legal ruleset, with packs enough that any grid of up to 10 cards is legal."""
    rows, cols = draw(st.sampled_from(shapes))
    lines = draw(
        st.one_of(
            st.just(["anywhere"]),
            st.lists(
                st.sampled_from(
                    ["columns", "rows", "diagonals"]
                    if (rows, cols) in ((2, 2), (3, 3))
                    else ["columns", "rows"]
                ),
                unique=True,
            ),
        )
    )
    spec = {
        "preset": draw(st.sampled_from(list(PRESETS))),
        "rows": rows,
        "cols": cols,
        "face_up_at_start": 2,
        "match_lines": lines,
        "jokers": 2,
        "decks": 8,
        "jokers_wild": draw(st.booleans()),
        "negative_matches": draw(st.sampled_from(["keep", "zero"])),
        "values": draw(st.dictionaries(st.sampled_from(RANKS), st.integers(-5, 15), max_size=4)),
    }
    if blocks and rows == 2:
        spec["four_of_a_kind_block"] = draw(
            st.one_of(st.none(), st.builds(dict, points=st.integers(-20, 10), others_add=st.integers(0, 10)))
        )
    return resolve_ruleset(spec)


@st.composite
def ruleset_and_grid(draw: st.DrawFn, blocks: bool = False, shapes: list[tuple[int, int]] = SHAPES) -> tuple:
    ruleset = draw(rulesets(blocks=blocks, shapes=shapes))
    grid = tuple(tuple(Card(draw(RANK)) for _ in range(ruleset.cols)) for _ in range(ruleset.rows))
    return ruleset, grid


@settings(max_examples=400, deadline=None)
@given(ruleset_and_grid(shapes=[(2, 2), (2, 3), (3, 3), (2, 4)]))
def test_it_agrees_with_a_brute_force_search_of_maximal_match_sets(case: tuple[Ruleset, Grid]) -> None:
    ruleset, grid = case
    assert score_grid(grid, ruleset).total == lowest_maximal_score(grid, ruleset)


@settings(max_examples=300, deadline=None)
@given(ruleset_and_grid())
def test_it_counts_a_maximal_set_of_non_overlapping_matches(case: tuple[Ruleset, Grid]) -> None:
    ruleset, grid = case
    result = score_grid(grid, ruleset)
    chosen = [tuple(match.positions) for match in result.matches]
    cells = [cell for line in chosen for cell in line]
    assert len(cells) == len(set(cells)), "a card takes part in one match at most"
    assert is_maximal(present_matches(grid, ruleset), chosen)
    for match in result.matches:
        assert tuple(match.positions) in present_matches(grid, ruleset)


@settings(max_examples=300, deadline=None)
@given(ruleset_and_grid(blocks=True))
def test_it_gives_the_same_total_with_and_without_the_breakdown(case: tuple[Ruleset, Grid]) -> None:
    ruleset, grid = case
    result = score_grid(grid, ruleset)
    assert grid_total(grid, ruleset) == result.total
    assert result.total == sum(c.points for c in result.cards) + sum(b.points for b in result.blocks)
    assert len(result.cards) == ruleset.rows * ruleset.cols
    assert result.explanation[-1].startswith("Grid score:")


@settings(max_examples=300, deadline=None)
@given(ruleset_and_grid(), st.randoms(use_true_random=False))
def test_it_ignores_column_order_and_row_order_when_only_columns_match(case: tuple, random) -> None:
    ruleset, grid = case
    ruleset = resolve_ruleset({**ruleset.to_dict(), "match_lines": ["columns"]})
    columns = list(zip(*grid, strict=True))
    random.shuffle(columns)
    shuffled = tuple(zip(*columns, strict=True))
    rows = list(shuffled)
    random.shuffle(rows)
    assert score_grid(tuple(rows), ruleset).total == score_grid(grid, ruleset).total
    assert score_grid(tuple(reversed(grid)), ruleset).total == score_grid(grid, ruleset).total


@settings(max_examples=300, deadline=None)
@given(ruleset_and_grid())
def test_it_stays_between_the_negative_and_positive_card_sums(case: tuple[Ruleset, Grid]) -> None:
    ruleset, grid = case
    values = [ruleset.value_of(card.rank) for row in grid for card in row]
    total = score_grid(grid, ruleset).total
    assert sum(v for v in values if v < 0) <= total <= sum(v for v in values if v > 0)


@settings(max_examples=200, deadline=None)
@given(ruleset_and_grid(blocks=True))
def test_it_takes_blocks_before_pairs_and_never_overlaps_them(case: tuple[Ruleset, Grid]) -> None:
    ruleset, grid = case
    result = score_grid(grid, ruleset)
    block_cells = [cell for block in result.blocks for cell in block.positions]
    match_cells = [cell for match in result.matches for cell in match.positions]
    assert len(block_cells) == len(set(block_cells))
    assert not set(block_cells) & set(match_cells)
    for block in result.blocks:
        (r1, c1), (r2, c2), (r3, c3), (r4, c4) = sorted(block.positions)
        assert {r1, r2, r3, r4} == {0, 1} and len({c1, c2, c3, c4}) == 2 and abs(c1 - c4) == 1
        assert {grid[r][c].rank for r, c in block.positions} == {block.rank}
        assert block.rank != "X"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(
            st.lists(st.sampled_from(["Q", "7", "K", "2", "A", "5"]), min_size=3, max_size=3),
            min_size=2,
            max_size=2,
        ),
        min_size=1,
        max_size=4,
    ),
    st.integers(0, 3),
    st.sampled_from([None, {"kind": "fixed", "points": 10}, {"kind": "lowest_score"}]),
    st.booleans(),
    st.booleans(),
)
def test_it_scores_a_hole_as_grid_plus_adjustments(
    grids: list, ender_seat: int, penalty: dict | None, on_tie: bool, block: bool
) -> None:
    ruleset = resolve_ruleset(
        {
            "preset": "basic",
            "decks": 8,
            "ender_penalty": penalty,
            "ender_penalty_on_tie": on_tie,
            "four_of_a_kind_block": {"points": 0, "others_add": 10} if block else None,
        }
    )
    entries = {f"p{i}": grid for i, grid in enumerate(grids)}
    ender = f"p{ender_seat}" if ender_seat < len(grids) else None
    hole = score_hole(entries, ruleset, ender=ender)
    for player in hole.players:
        assert player.grid is not None
        assert player.grid_score == player.grid.total == score_grid(entries[player.name], ruleset).total
        assert player.score == player.grid_score + sum(a.points for a in player.adjustments)
        if player.name != ender:
            assert all(a.kind == "block_others_add" for a in player.adjustments)
    others_blocks = {
        p.name: sum(len(o.grid.blocks) for o in hole.players if o.name != p.name and o.grid)
        for p in hole.players
    }
    for player in hole.players:
        assert (
            sum(1 for a in player.adjustments if a.kind == "block_others_add") == others_blocks[player.name]
        )
    so_far = {
        p.name: p.grid_score + sum(a.points for a in p.adjustments if a.kind == "block_others_add")
        for p in hole.players
    }
    for player in hole.players:
        penalties = [a.points for a in player.adjustments if a.kind == "ender_penalty"]
        if player.name != ender or penalty is None or len(grids) == 1:
            assert penalties == []
            continue
        lowest = min(score for name, score in so_far.items() if name != ender)
        beaten = lowest < so_far[ender] or (on_tie and lowest == so_far[ender])
        if not beaten:
            assert penalties == []
        elif penalty["kind"] == "fixed":
            assert penalties == [10]
        else:
            assert penalties == ([lowest] if lowest > 0 else [])


TOKEN = st.one_of(
    st.sampled_from(
        ["Q", "q", "10", "T", "t", "2", "x", "JK", "K", "5", " 7 ", "QH", "qh", "10♠", "2c", "XH", "1Z", ""]
    ),
    st.builds(lambda rank: Card(rank), st.sampled_from(RANKS)),
)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(list(PRESETS)),
    st.integers(2, 3),
    st.integers(2, 5),
    st.lists(st.lists(TOKEN, min_size=2, max_size=5), min_size=1, max_size=3),
    st.one_of(st.none(), st.integers(1, 12)),
)
def test_it_checks_and_totals_alike_on_every_path(
    preset: str, rows: int, cols: int, raw: list, players: int | None
) -> None:
    """grid_total's fast path and score_grid accept and reject the same grids with the same problems."""
    ruleset = PRESETS[preset]
    grid = [row[:cols] for row in raw[:rows]]
    outcomes = []
    for scorer in (lambda: grid_total(grid, ruleset), lambda: score_grid(grid, ruleset).total):
        try:
            outcomes.append(("total", scorer()))
        except RulesError as error:
            outcomes.append((type(error).__name__, error.problems))
    assert outcomes[0] == outcomes[1]
    if players is not None:
        expected = actual = None
        try:
            check_grid_cards(prepare_grid(grid, ruleset), ruleset, players)
        except RulesError as error:
            expected = (type(error).__name__, error.problems)
        try:
            score_grid(grid, ruleset, players)
        except RulesError as error:
            actual = (type(error).__name__, error.problems)
        assert actual == expected
