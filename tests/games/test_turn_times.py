"""The turn timer's times: PUT/GET /api/v1/games/{token}/turn-times/, the merge (larger values
kept, so a report sent twice or late changes nothing), the checks and the selector."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golfclub.core.limits import MAX_TURN_MILLISECONDS, MAX_TURN_TIME_HOLES
from scoring import selectors, services
from scoring.models import TurnTime

pytestmark = pytest.mark.django_db


def report(*holes: tuple[int, list[tuple[int, int, int]]]) -> dict:
    return {
        "holes": [
            {"number": n, "seats": [{"seat": s, "milliseconds": ms, "turns": t} for s, ms, t in seats]}
            for n, seats in holes
        ]
    }


def put(api, token: str, body: dict, **headers):
    return api.put(f"/api/v1/games/{token}/turn-times/", body, format="json", **headers)


def test_a_report_is_stored_and_answered_with_each_players_totals(api, make_game):
    game = make_game(["Ann", "Bob", "Cy"])
    answer = put(api, game.edit_token, report((1, [(0, 5000, 2), (1, 7000, 2)]), (2, [(0, 1000, 1)])))
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert [p["name"] for p in body["players"]] == ["Ann", "Bob", "Cy"]
    assert [(p["milliseconds"], p["turns"], p["average_ms"]) for p in body["players"]] == [
        (6000, 3, 2000),
        (7000, 2, 3500),
        (0, 0, None),
    ]
    assert body["holes"][0] == {
        "number": 1,
        "playoff": False,
        "seats": [
            {"seat": 0, "milliseconds": 5000, "turns": 2},
            {"seat": 1, "milliseconds": 7000, "turns": 2},
        ],
    }
    assert api.get(f"/api/v1/games/{game.view_token}/turn-times/").json() == body


def test_the_same_report_twice_or_an_older_one_late_changes_nothing(api, make_game):
    game = make_game()
    newer = report((1, [(0, 9000, 4), (1, 8000, 3)]))
    older = report((1, [(0, 4000, 2), (1, 8500, 3)]))
    assert put(api, game.edit_token, newer, HTTP_IDEMPOTENCY_KEY="k" * 20).status_code == 200
    assert put(api, game.edit_token, newer, HTTP_IDEMPOTENCY_KEY="k" * 20).status_code == 200
    assert put(api, game.edit_token, older).status_code == 200
    rows = {(r.seat): (r.milliseconds, r.turns) for r in TurnTime.objects.filter(game=game)}
    assert rows == {0: (9000, 4), 1: (8500, 3)}  # each value the larger one
    assert TurnTime.objects.filter(game=game).count() == 2


def test_playoff_holes_are_kept_apart(api, make_game):
    game = make_game()
    body = report((1, [(0, 1000, 1)]))
    body["holes"].append(
        {"number": 1, "playoff": True, "seats": [{"seat": 0, "milliseconds": 500, "turns": 1}]}
    )
    assert put(api, game.edit_token, body).status_code == 200
    assert TurnTime.objects.filter(game=game).count() == 2
    assert selectors.turn_times([game.pk]) == {(game.pk, 0): (1500, 2)}


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"holes": [{"number": 0, "seats": []}]}, "holes[1].number"),
        (report((1, [(0, -1, 1)])), "holes[1].seats[1].milliseconds"),
        (report((1, [(0, MAX_TURN_MILLISECONDS + 1, 1)])), "holes[1].seats[1].milliseconds"),
        (report((1, [(0, 10, "2")])), "holes[1].seats[1].turns"),
        (report((1, [(5, 10, 1)])), "holes[1].seats[1].seat"),
        (report((1, [(1, 10, 1), (1, 20, 2)])), "holes[1].seats[2].seat"),
        ({"holes": [{"number": 1, "seats": [], "extra": 1}]}, "holes[1].extra"),
        ({"holes": [{"number": n, "seats": []} for n in range(1, MAX_TURN_TIME_HOLES + 2)]}, "holes"),
        ({}, "holes"),
    ],
)
def test_a_bad_report_is_refused_naming_the_field(api, make_game, body, where):
    game = make_game()
    answer = put(api, game.edit_token, body)
    assert answer.status_code == 400, answer.content
    assert where in [e["where"] for e in answer.json()["errors"]]
    assert not TurnTime.objects.filter(game=game).exists()


def test_a_view_link_cannot_report_and_an_unknown_link_is_a_404(api, make_game):
    game = make_game()
    assert put(api, game.view_token, report((1, [(0, 1, 1)]))).status_code == 403
    assert put(api, "x" * 32, report((1, [(0, 1, 1)]))).status_code == 404


def test_the_selector_sums_many_games_in_one_query(make_game, django_assert_num_queries):
    games = [make_game() for _ in range(3)]
    for i, game in enumerate(games):
        holes = [services.HoleTimes(n, False, [services.SeatTime(0, 1000 * n + i, 1)]) for n in (1, 2)]
        services.record_turn_times(game, holes)
    with django_assert_num_queries(1):
        found = selectors.turn_times(g.pk for g in games)
    assert found == {(g.pk, 0): (3000 + 2 * i, 2) for i, g in enumerate(games)}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    reports=st.lists(
        st.lists(
            st.tuples(st.integers(1, 3), st.integers(0, 1), st.integers(0, 10**6), st.integers(0, 50)),
            max_size=6,
        ),
        min_size=1,
        max_size=4,
    )
)
def test_any_order_of_reports_keeps_the_largest_values(make_game, reports):
    game = make_game()  # one game, its times cleared before each order of the reports
    for sent in (reports, list(reversed(reports))):
        TurnTime.objects.filter(game=game).delete()
        for one in sent:
            by_hole: dict[int, dict[int, services.SeatTime]] = {}
            for hole, seat, ms, turns in one:
                by_hole.setdefault(hole, {})[seat] = services.SeatTime(seat, ms, turns)
            services.record_turn_times(
                game, [services.HoleTimes(h, False, list(s.values())) for h, s in by_hole.items()]
            )
        expected: dict[tuple[int, int], list[int]] = {}
        for one in sent:
            last: dict[tuple[int, int], tuple[int, int]] = {}
            for hole, seat, ms, turns in one:
                last[(hole, seat)] = (ms, turns)
            for key, (ms, turns) in last.items():
                best = expected.setdefault(key, [0, 0])
                best[0], best[1] = max(best[0], ms), max(best[1], turns)
        stored = {
            (r.hole_number, r.seat): [r.milliseconds, r.turns] for r in TurnTime.objects.filter(game=game)
        }
        assert stored == expected


def test_reading_the_times_takes_a_bounded_number_of_queries(api, make_game, django_assert_max_num_queries):
    game = make_game(["Ann", "Bob", "Cy"])
    holes = [
        services.HoleTimes(n, False, [services.SeatTime(s, 1000 + n, 2) for s in range(3)])
        for n in range(1, 19)
    ]
    services.record_turn_times(game, holes)
    with django_assert_max_num_queries(6):
        answer = api.get(f"/api/v1/games/{game.view_token}/turn-times/")
    assert answer.status_code == 200 and len(answer.json()["holes"]) == 18
    with django_assert_max_num_queries(10):
        assert (
            put(api, game.edit_token, report(*((n, [(0, 5000, 3)]) for n in range(1, 19)))).status_code == 200
        )
