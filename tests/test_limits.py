"""One source of truth for limits (`golfclub.core.limits`) and for player-name rules (`golfclub.core.names`).

The scan fails when a limit is assigned anywhere in `scoring` or `golfclub.core` but
`golfclub/core/limits.py`;
the boundary tests check that the start page, the API and the services accept and refuse the same
names and player counts, with the same message where they speak alike.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import golfclub.core
import scoring
from golfclub.core import limits
from golfclub.core.limits import MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS
from golfclub.core.names import check_player_names
from scoring import services
from scoring.game_errors import GameError
from scoring.models import Game

PACKAGE = Path(scoring.__file__).parent
CORE = Path(golfclub.core.__file__).parent
LIMITS_FILE = CORE / "limits.py"
# Names the limits had before they were gathered: a new assignment of one is a second definition.
FORMER_NAMES = {"MAX_NAME", "MAX_TITLE", "MAX_ACTOR", "MAX_BLOCKS", "MAX_TYPED_TOTAL", "MAX_BLOCKS_MARKED"}
LIMIT_NAMES = set(limits.__all__) | FORMER_NAMES
# What a limit's name looks like, to catch new ones defined outside the module.
LOOKS_LIKE_A_LIMIT = re.compile(r"^_?(MAX|MIN)_[A-Z0-9_]+$|^_?[A-Z0-9_]*_(LIMIT|MAX|MIN)$")
# Module constants that look like limits but are not sizes a user meets: each with why it stays.
NOT_USER_LIMITS = {
    ("rules/cards.py", "_KNOWN_LIMIT"),  # size of a parse cache
    ("rules/grid.py", "CACHE_LIMIT"),  # size of a scoring cache
    ("phone_contact.py", "MAX_REMEMBERED"),  # links one process remembers (a memory bound)
    ("rules/resolve.py", "_INTERN_LIMIT"),  # size of an intern table
    ("web/games/_page_helpers.py", "RECENT_LIMIT"),  # how many recent names the start page suggests
    ("web/grid_entry.py", "MAX_TOKEN_LENGTH"),  # keypad token box, the longest card token ("10h") and more
    ("core/parsers.py", "MAX_BODY_BYTES"),  # HTTP request body size, with the settings' upload limits
    ("api/games/concurrency.py", "MAX_IDEMPOTENCY_KEY"),  # the Idempotency-Key header, as its column holds
}


def _assigned_names(tree: ast.AST) -> list[tuple[str, int]]:
    """Every plain name bound by an assignment (module, class or function level) or an import alias."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, ast.ImportFrom):
            # `from x import A as B` where B is a limit's name but A is not that limit: a second meaning.
            found += [(a.asname, node.lineno) for a in node.names if a.asname and a.asname != a.name]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    found.append((name.id, node.lineno))
    return found


def _sources() -> list[Path]:
    found = [*PACKAGE.rglob("*.py"), *CORE.rglob("*.py")]
    return sorted(p for p in found if "migrations" not in p.parts and p != LIMITS_FILE)


def test_the_limits_module_defines_every_name_it_exports_and_imports_nothing():
    tree = ast.parse(LIMITS_FILE.read_text())
    defined = {name for name, _ in _assigned_names(tree)} - {"__all__"}
    assert defined == set(limits.__all__)
    # Pure Python: the rules engine imports it, and it must not import Django or the app.
    assert not [
        n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) and n.module != "__future__"
    ]


def test_no_limit_is_defined_anywhere_else_in_the_package():
    misplaced = []
    for path in _sources():
        base = PACKAGE if path.is_relative_to(PACKAGE) else CORE.parent
        relative = path.relative_to(base).as_posix()
        for name, line in _assigned_names(ast.parse(path.read_text())):
            known = name in LIMIT_NAMES
            if not known and not (LOOKS_LIKE_A_LIMIT.match(name) and (relative, name) not in NOT_USER_LIMITS):
                continue
            misplaced.append(f"{relative}:{line} {name}")
    assert misplaced == [], "define limits in golfclub/core/limits.py and import them from there"


def test_the_engine_the_forms_and_the_serializers_use_the_modules_values():
    from scoring.api.calculator import request_serializers as rules_serializers
    from scoring.api.games import request_serializers as game_serializers
    from scoring.rules import hole, ruleset
    from scoring.web.calculator import page_input as score_forms
    from scoring.web.games import start_forms as game_forms

    assert hole.TOTAL_LIMIT is limits.TOTAL_LIMIT and ruleset.MAX_DECKS is limits.MAX_DECKS
    assert ruleset.VALUE_LIMIT is limits.VALUE_LIMIT and score_forms.MAX_NAME_LENGTH == MAX_NAME_LENGTH
    assert (
        game_forms.MAX_PLAYERS == MAX_PLAYERS
        and rules_serializers.TOTAL_LIMIT == game_serializers.TOTAL_LIMIT
    )


def test_the_scan_finds_a_limit_defined_elsewhere(tmp_path):
    tree = ast.parse("MAX_PLAYERS = 8\nclass F:\n    MAX_NAME = 30\nfrom x import A as TOTAL_LIMIT\n")
    assert {name for name, _ in _assigned_names(tree)} == {"MAX_PLAYERS", "MAX_NAME", "TOTAL_LIMIT"}
    assert LOOKS_LIKE_A_LIMIT.match("MAX_SEATS") and LOOKS_LIKE_A_LIMIT.match("HOLE_LIMIT")


# -- the same answer from the start page, the API and the services -----------------------------------


def _names(count: int) -> list[str]:
    return [f"player {n}" for n in range(1, count + 1)]


LONGEST = "L" * MAX_NAME_LENGTH
ONE_OVER = "L" * (MAX_NAME_LENGTH + 1)
# Visible characters count, invisible ones do not: 40 letters with zero-width spaces between are fine.
LONGEST_WITH_INVISIBLES = "\u200b".join(LONGEST)


def _page(client, players: list[str]):
    return client.get("/games/new/", {"step": "dealer", "ruleset": "official", "player": players})


def _page_text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def _service(players: list[str]) -> GameError | Game:
    try:
        return services.create_game(players=players, ruleset="official")
    except GameError as error:
        return error


@pytest.mark.django_db
@pytest.mark.parametrize(
    "players",
    [
        [LONGEST, "bob"],
        [LONGEST_WITH_INVISIBLES, "bob"],
        _names(MAX_PLAYERS),
        _names(MIN_PLAYERS),
    ],
    ids=["longest-name", "longest-name-with-invisibles", "most-players", "fewest-players"],
)
def test_the_page_the_api_and_the_services_all_take_a_table_at_the_limits(client, api, players):
    assert _page(client, players).status_code == 200
    started = client.post(
        "/games/new/", {"ruleset": "official", "player": players, "first_dealer": "0", "start_key": "k"}
    )
    assert started.status_code == 302
    assert api.post("/api/v1/games/", {"players": players}, format="json").status_code == 201
    assert isinstance(_service(players), Game)
    assert len({tuple(g.seats.values_list("name", flat=True)) for g in Game.objects.all()}) == 1


TOO_LONG_1 = "Player 1: the name is too long: at most 40 characters; this one has 41."
TOO_LONG_2 = "Player 2: the name is too long: at most 40 characters; this one has 41."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "where", "page_says"),
    [
        ([ONE_OVER, "bob"], "players[1]", TOO_LONG_1),
        (["bob", ONE_OVER], "players[2]", TOO_LONG_2),
        (_names(MAX_PLAYERS + 1), "players", "At most 12 players can sit at one table."),
        (_names(MIN_PLAYERS - 1), "players", "Enter at least 2 player names."),
    ],
    ids=["name-one-over", "second-name-one-over", "one-player-too-many", "one-player-too-few"],
)
def test_the_page_the_api_and_the_services_all_refuse_one_over(client, api, players, where, page_says):
    page = _page(client, players)
    assert page.status_code == 400 and page_says in _page_text(page)
    answer = api.post("/api/v1/games/", {"players": players}, format="json")
    refused = _service(players)
    assert answer.status_code == 400 and isinstance(refused, GameError)
    # The API answers as the services do: the same place and the same words.
    assert [(e["where"], e["message"]) for e in answer.json()["errors"]] == [
        (p.where, p.message) for p in refused.problems
    ]
    assert answer.json()["errors"][0]["where"] == where
    assert not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "taken"), [(LONGEST, True), (ONE_OVER, False)], ids=["longest", "one-over"])
def test_renaming_a_player_answers_alike_on_the_settings_page_the_api_and_the_services(
    client, api, name, taken
):
    games = [services.create_game(players=["ann", "bob"], ruleset="official") for _ in range(3)]
    page = client.post(
        f"/games/e/{games[0].edit_token}/settings/", {"action": "rename", "seat": "1", "name": name}
    )
    answer = api.patch(f"/api/v1/games/{games[1].edit_token}/players/1/", {"name": name}, format="json")
    try:
        services.seat_rename(games[2], 1, name)
        refused = None
    except GameError as error:
        refused = error
    names = [game.seats.get(seat=1).name for game in games]
    if taken:
        assert page.status_code == 302 and answer.status_code == 200 and refused is None
        assert names == [name] * 3
    else:
        assert page.status_code == 400 and answer.status_code == 400 and refused is not None
        assert refused.message in _page_text(page).replace("&hellip;", "\u2026")
        assert answer.json()["detail"] == refused.message
        assert names == ["bob"] * 3


@pytest.mark.django_db
def test_adding_a_player_stops_at_the_same_count_in_the_api_and_the_services(api):
    api_game = api.post("/api/v1/games/", {"players": _names(MAX_PLAYERS - 1)}, format="json").json()
    url = f"/api/v1/games/{api_game['edit_token']}/players/"
    assert api.post(url, {"name": "last"}, format="json").status_code == 201
    one_over = api.post(url, {"name": "one over"}, format="json")
    game = services.create_game(players=_names(MAX_PLAYERS - 1), ruleset="official")
    services.seat_add(game, "last")
    with pytest.raises(GameError) as refused:
        services.seat_add(game, "one over")
    assert one_over.status_code == 400 and one_over.json()["detail"] == refused.value.message


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "ok"), [(LONGEST, True), (ONE_OVER, False)], ids=["longest", "one-over"])
def test_adding_a_player_takes_the_same_names_in_the_api_and_the_services(api, name, ok):
    token = api.post("/api/v1/games/", {"players": ["ann", "bob"]}, format="json").json()["edit_token"]
    answer = api.post(f"/api/v1/games/{token}/players/", {"name": name}, format="json")
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    if ok:
        services.seat_add(game, name)
        assert answer.status_code == 201
    else:
        with pytest.raises(GameError) as refused:
            services.seat_add(game, name)
        assert answer.status_code == 400 and answer.json()["detail"] == refused.value.message


# -- the calculator's own limits ----------------------------------------------------------------------


def test_the_calculator_page_adds_players_up_to_its_own_limit(client):
    most = limits.CALCULATOR_PAGE_MAX_PLAYERS
    names = {f"name-{n}": f"P{n}" for n in range(1, most + 1)}
    one_short = client.get(
        "/score/", {"mode": "hole", "players": str(most - 1), **names, "action": "add-player"}
    )
    at_most = client.get("/score/", {"mode": "hole", "players": str(most), **names, "action": "add-player"})
    assert f"players={most}&" in one_short.url and f"players={most}&" in at_most.url  # no ninth seat
    full = client.get("/score/", {"mode": "hole", "players": str(most), **names})
    short = client.get("/score/", {"mode": "hole", "players": str(most - 1), **names})
    assert "Add a player" not in full.content.decode() and "Add a player" in short.content.decode()


@pytest.mark.parametrize(
    ("count", "status"),
    [(limits.CALCULATOR_API_MAX_PLAYERS, 200), (limits.CALCULATOR_API_MAX_PLAYERS + 1, 400)],
)
def test_the_calculator_api_scores_a_hole_up_to_its_own_limit(api, count, status):
    grids = {f"p{n}": n for n in range(count)}
    response = api.post("/api/v1/score-hole/", {"ruleset": "official", "grids": grids}, format="json")
    assert response.status_code == status


# -- one function, one set of messages --------------------------------------------------------------


def test_one_check_gives_each_problem_its_seat_and_one_message_per_audience():
    checked = check_player_names(["ann", "ANN", "", "\u200b", ONE_OVER, "x\x00"])
    assert checked.names == ["ann"]
    assert [(p.code, p.position) for p in checked.problems] == [
        ("duplicate", 2),
        ("empty", 3),
        ("invisible", 4),
        ("too_long", 5),
        ("unreadable", 6),
    ]
    duplicate = checked.problems[0]
    assert duplicate.message() == "ANN is already at the table: names must differ."
    assert duplicate.message(numbered=True) == 'Player 2: "ANN" is already player 1; names must differ.'
    skipped = check_player_names(["ann", "", "bob"], skip_blank=True)
    assert skipped.names == ["ann", "bob"] and not skipped.problems
