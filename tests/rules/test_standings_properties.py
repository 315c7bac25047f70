"""Properties of event standings (`rank_event`), checked on generated events of several tables."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import PlayedHole, holes_won, rank_event, rank_players, sum_totals

# Small score ranges make ties on total, countback and holes won frequent.
SCORE = st.integers(min_value=-2, max_value=4)
CHAIN = st.lists(st.sampled_from(["countback", "most_holes_won", "sudden_death", "shared"]), max_size=4)


@st.composite
def events(draw, min_tables: int = 1) -> tuple[list[str], list[PlayedHole]]:
    """Players seated at 1-3 tables (2-4 each) playing 0-4 holes each; hole numbers repeat across tables."""
    players: list[str] = []
    holes: list[PlayedHole] = []
    for table in range(draw(st.integers(min_value=min_tables, max_value=3))):
        seated = [f"t{table}p{i}" for i in range(draw(st.integers(min_value=2, max_value=4)))]
        players += seated
        for number in range(1, draw(st.integers(min_value=0, max_value=4)) + 1):
            scores = {name: draw(SCORE) for name in seated}
            holes.append(PlayedHole(number=number, scores=scores, table=f"table {table}"))
    if draw(st.booleans()) and len(players) >= 2:
        # A few playoff holes among some players (a playoff table).
        among = draw(st.lists(st.sampled_from(players), min_size=2, max_size=3, unique=True))
        for number in range(1, draw(st.integers(min_value=1, max_value=3)) + 1):
            scores = {name: draw(SCORE) for name in among}
            holes.append(PlayedHole(number=number, scores=scores, playoff=True, table="playoff"))
    return players, holes


def _ranks(players: list[str], holes: list[PlayedHole], chain: list[str], **kwargs) -> dict[str, tuple]:
    standings = rank_event(players, holes, chain, **kwargs)
    return {row.player: (row.rank, row.total, row.playoff, row.shared) for row in standings.rows}


@settings(max_examples=150, deadline=None)
@given(event=events(), chain=CHAIN, data=st.data(), every_place=st.booleans())
def test_ranks_do_not_depend_on_the_order_of_players_or_holes(event, chain, data, every_place) -> None:
    players, holes = event
    shuffled_players = data.draw(st.permutations(players))
    shuffled_holes = data.draw(st.permutations(holes))
    assert _ranks(players, holes, chain, every_place=every_place) == _ranks(
        list(shuffled_players), list(shuffled_holes), chain, every_place=every_place
    )


def _countback_reference(mine: list[int], theirs: list[int]) -> int:
    """-1 when `mine` wins countback, 1 when `theirs` does, 0 when level (SPEC: sorted from lowest,
    first difference wins), written with plain loops."""
    a, b = sorted(mine), sorted(theirs)
    for index in range(min(len(a), len(b))):
        if a[index] < b[index]:
            return -1
        if a[index] > b[index]:
            return 1
    return (len(a) > len(b)) - (len(a) < len(b))


@settings(max_examples=150, deadline=None)
@given(event=events())
def test_countback_agrees_with_a_simple_reference(event) -> None:
    players, holes = event
    by_player: dict[str, list[int]] = defaultdict(list)
    for hole in holes:
        if not hole.playoff:
            for name, score in hole.scores.items():
                by_player[name].append(score)
    rows = {row.player: row for row in rank_event(players, holes, ["countback"]).rows}
    for a in players:
        for b in players:
            if a == b or rows[a].total != rows[b].total:
                continue
            expected = _countback_reference(by_player[a], by_player[b])
            if expected < 0:
                assert rows[a].rank < rows[b].rank
            elif expected == 0:
                assert rows[a].rank == rows[b].rank


@settings(max_examples=150, deadline=None)
@given(event=events(min_tables=2))
def test_holes_won_over_several_tables_count_against_each_holes_own_table(event) -> None:
    players, holes = event
    expected = dict.fromkeys(players, 0)
    tables = {hole.table for hole in holes if not hole.playoff}
    for table in tables:
        for hole in holes:
            if hole.table == table and not hole.playoff:
                lowest = min(hole.scores.values())
                for name, score in hole.scores.items():
                    expected[name] += score == lowest
    assert holes_won(holes, players) == expected
    rows = rank_event(players, holes, ["most_holes_won"]).rows
    assert {row.player: row.holes_won for row in rows} == expected
    assert {row.player: dict(row.columns)["most_holes_won"] for row in rows} == {
        name: str(count) for name, count in expected.items()
    }


@settings(max_examples=150, deadline=None)
@given(event=events(), chain=CHAIN, data=st.data())
def test_penalties_change_totals_and_not_hole_scores(event, chain, data) -> None:
    players, holes = event
    before = [dict(hole.scores) for hole in holes]
    penalties = data.draw(
        st.dictionaries(st.sampled_from(players), st.integers(min_value=0, max_value=10), max_size=3)
    )
    plain = {row.player: row for row in rank_event(players, holes, chain).rows}
    penalised = {row.player: row for row in rank_event(players, holes, chain, penalties).rows}
    for name in players:
        assert penalised[name].total == plain[name].total + penalties.get(name, 0)
        assert penalised[name].penalty_points == penalties.get(name, 0)
        assert penalised[name].holes_won == plain[name].holes_won
        assert penalised[name].holes_played == plain[name].holes_played
    assert [dict(hole.scores) for hole in holes] == before
    totals = sum_totals(players, holes, penalties)
    assert all(totals[name].total == totals[name].hole_points + penalties.get(name, 0) for name in players)


@settings(max_examples=150, deadline=None)
@given(event=events(), chain=CHAIN, data=st.data(), every_place=st.booleans())
def test_identical_records_share_a_rank_and_ranks_skip_after_a_tie(event, chain, data, every_place) -> None:
    players, holes = event
    # A twin plays every hole of one player with the same scores, at the same table: same total,
    # countback and holes won (a shared lowest counts for each), so no metric can separate them.
    original = data.draw(st.sampled_from(players))
    twinned = [
        PlayedHole(h.number, {**h.scores, "twin": h.scores[original]}, h.playoff, h.table)
        if original in h.scores
        else h
        for h in holes
    ]
    rows = rank_event([*players, "twin"], twinned, chain, every_place=every_place).rows
    by_name = {row.player: row for row in rows}
    assert by_name["twin"].rank == by_name[original].rank
    for index, row in enumerate(rows):
        assert row.rank == 1 + next(i for i, other in enumerate(rows) if other.rank == row.rank)
        assert row.rank <= index + 1
        if index:
            assert (rows[index - 1].total, rows[index - 1].rank) <= (row.total, row.rank)


@settings(max_examples=150, deadline=None)
@given(
    scores=st.lists(st.lists(SCORE, min_size=3, max_size=3), max_size=5),
    playoff=st.lists(st.lists(SCORE, min_size=3, max_size=3), max_size=2),
    chain=CHAIN,
)
def test_one_table_ranks_the_same_as_a_match(scores, playoff, chain) -> None:
    players = ["ann", "bob", "cy"]
    hole_scores = {name: [hole[i] for hole in scores] for i, name in enumerate(players)}
    playoff_scores = {name: [hole[i] for hole in playoff] for i, name in enumerate(players)}
    outcome = rank_players(hole_scores, chain, playoff_scores)
    holes = [PlayedHole(n, dict(zip(players, hole, strict=True))) for n, hole in enumerate(scores, 1)]
    holes += [
        PlayedHole(n, dict(zip(players, hole, strict=True)), playoff=True)
        for n, hole in enumerate(playoff, 1)
    ]
    rows = rank_event(players, holes, chain).rows
    assert {row.player: row.rank for row in rows} == {name: place for place, name in outcome.places()}
    assert any(row.playoff for row in rows) == (outcome.status == "sudden_death")
