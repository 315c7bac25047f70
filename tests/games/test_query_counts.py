"""Query budgets: the scoreboard and every API list cost the same for 2 players x 1 hole as for 6 x 18."""

from __future__ import annotations

import pytest

from scoring import db_batch, selectors, services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_rate_limits(settings) -> None:
    """These budgets are the game code's own; the rate-limit counter's queries are not counted here
    (tests/test_rate_limits.py tests the limits)."""
    settings.RATELIMIT_ENABLE = False


SIZES = [pytest.param(2, 1, id="2-players-1-hole"), pytest.param(6, 18, id="6-players-18-holes")]


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("host", password="pw-12345-long")


def build(players: int, holes: int, owner) -> str:
    """A game of `players` x `holes` (a grid for the first player, typed totals for the others)."""
    names = [f"p{i}" for i in range(players)]
    game = services.create_game(players=names, ruleset="official-extended", owner=owner)
    for number in range(holes):
        entries = {name: (number + i) % 12 for i, name in enumerate(names)}
        entries[names[0]] = [["Q", "7", "K"], ["Q", "7", "3"]]
        services.hole_record(game, entries=entries, ender=names[number % players])
    services.hole_update(game, 1, expected_version=1, entries={n: 5 for n in names}, ender=None)
    # a second game for the owner's list, so lists hold more than one
    services.create_game(players=names, ruleset="official", owner=owner)
    return game.edit_token


@pytest.mark.parametrize(("players", "holes"), SIZES)
def test_it_builds_the_scoreboard_in_a_fixed_number_of_queries(
    players, holes, owner, django_assert_max_num_queries
):
    token = build(players, holes, owner)
    game = selectors.game_for_token(token).game
    with django_assert_max_num_queries(3):
        board = selectors.scoreboard(game)
    assert len(board.holes) == holes and len(board.players) == players


@pytest.mark.parametrize(("players", "holes"), SIZES)
@pytest.mark.parametrize(
    ("path", "budget"),
    [
        ("", 2),
        ("scoreboard/", 6),
        ("holes/", 4),
        ("holes/1/", 4),
        ("holes/1/entries/", 4),
        ("players/", 2),
        ("history/", 2),
        ("export.csv", 4),
        ("export.json", 4),
        ("results/", 4),
    ],
)
def test_it_serves_each_game_endpoint_in_a_fixed_number_of_queries(
    api, players, holes, path, budget, owner, django_assert_max_num_queries
):
    token = build(players, holes, owner)
    with django_assert_max_num_queries(budget):
        response = api.get(f"/api/v1/games/{token}/{path}")
    assert response.status_code == 200


@pytest.mark.parametrize(("players", "holes"), SIZES)
def test_it_lists_the_owners_games_and_players_in_a_fixed_number_of_queries(
    api, players, holes, owner, django_assert_max_num_queries
):
    build(players, holes, owner)
    api.force_login(owner)
    with django_assert_max_num_queries(4):  # session, user, games, seats
        response = api.get("/api/v1/games/")
    assert response.status_code == 200 and len(response.json()) == 2
    with django_assert_max_num_queries(3):  # session, user, players
        response = api.get("/api/v1/players/")
    assert response.status_code == 200 and len(response.json()) == players


def _hole_body(names: list[str], number: int) -> dict:
    return {"entries": {name: (number + i) % 9 for i, name in enumerate(names)}, "ender": names[0]}


# Recording a hole, whatever the size of the game. On PostgreSQL: one round trip finds and locks
# the game by its edit token (the Idempotency-Key checked in the same query), reads the seats and
# takes the hole id; one more sends every write. Elsewhere: the lock, the seats, then INSERT hole,
# entries, history, UPDATE seats, game, INSERT the key. Plus the savepoint pair of the service's
# transaction (nested in the test's).
# One round trip for the lock and one for every write where the driver takes several statements
# at once (PostgreSQL with client-side binding); else the same statements one by one.
HOLE_POST_BUDGET = 4 if db_batch.sends_at_once() else 10


@pytest.mark.parametrize(("players", "holes"), [(2, 0), (2, 1), (6, 17)])
def test_it_records_a_hole_through_the_api_in_a_fixed_number_of_queries(
    api, players, holes, django_assert_max_num_queries
):
    names = [f"p{i}" for i in range(players)]
    game = services.create_game(players=names, ruleset={"preset": "official", "holes": 20})
    for number in range(1, holes + 1):
        services.hole_record(game, entries=_hole_body(names, number)["entries"], ender=None)
    url = f"/api/v1/games/{game.edit_token}/holes/"
    with django_assert_max_num_queries(HOLE_POST_BUDGET):
        response = api.post(url, _hole_body(names, holes + 1), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 201 and response.json()["number"] == holes + 1
    with django_assert_max_num_queries(HOLE_POST_BUDGET):  # without a key: no more
        response = api.post(url, _hole_body(names, holes + 2), format="json")
    assert response.status_code == 201 and response.json()["number"] == holes + 2


def test_it_reads_every_hole_only_for_the_hole_that_ends_the_match(api, django_assert_max_num_queries):
    names = ["ann", "bob", "cy"]
    game = services.create_game(players=names, ruleset={"preset": "official", "holes": 3})
    for number in (1, 2):
        services.hole_record(game, entries=_hole_body(names, number)["entries"], ender=None)
    url = f"/api/v1/games/{game.edit_token}/holes/"
    with django_assert_max_num_queries(HOLE_POST_BUDGET + 2):  # + every hole's scores, for tiebreaks
        response = api.post(url, _hole_body(names, 3), format="json", HTTP_IDEMPOTENCY_KEY="last")
    assert response.status_code == 201
    game.refresh_from_db()
    board = selectors.scoreboard(game)
    assert game.status == board.status == "finished" and list(game.winners) == list(board.winners)
