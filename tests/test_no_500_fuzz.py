"""No input gives a 500: hypothesis throws hostile text at every route the URL resolver knows.

For each route (pages and API, from `get_resolver()`; only Django's own admin is left out), every
example picks a method, fills the path parameters with a real game's tokens, hole numbers and seats
or with hostile values, and sends hostile text (NUL, lone surrogates as a browser would
percent-encode them, "²", "٣", full-width digits, 5,000-digit numbers, very long strings) in every
query parameter and form field the view reads, or JSON of any type to the API. It checks: never a
5xx; JSON for every error under /api/v1/; and nothing written when the request was refused.

`ROUTES` lists what each route reads; `test_it_covers_every_route_of_the_resolver` fails when a
route is added without an entry, so no route is skipped silently. Each example runs in a savepoint
rolled back afterwards, so every example sees the same games, and the run is derandomized.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import F, Model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from clubs.api import serializers_manage as cs
from clubs.models import Club, ClubOwner, Member, OwnerInvitation, Season
from scoring import services
from scoring.api.calculator import request_serializers as rs
from scoring.api.games import request_serializers as gs
from scoring.models import Game, GameChange, Hole, HoleEntry, IdempotentRequest, Player, Seat
from scoring.rules import RANKS
from scoring.web.calculator.forms import RulesForm
from tests.committed import flush_committed
from tournaments import services as tournament_services
from tournaments.api import request_serializers as ts
from tournaments.models import Entrant, OfficialCall, Penalty, Round, Ruling, Staff, TableSeat, Tournament
from tournaments.models import Table as EventTable

EXAMPLES = 12
SKIPPED_PREFIXES = ("admin/",)  # Django's admin: its own forms, staff only, not this project's input layer
PAGE_METHODS = ("GET", "POST")
API_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
HUGE = "9" * 5000


@dataclass(frozen=True)
class Route:
    """What a route reads: query parameters, form fields, the JSON body's keys; a path for regex routes."""

    query: tuple[str, ...] = ()
    form: tuple[str, ...] = ()
    json: tuple[str, ...] = ()
    path: str | None = None
    examples: int = EXAMPLES
    extra: dict[str, Any] = field(default_factory=dict)


def _fields(serializer: type) -> tuple[str, ...]:
    return tuple(serializer().fields)


def _cells(players: int, rows: int = 2, cols: int = 3) -> tuple[str, ...]:
    return tuple(
        f"p{p}-{r}-{c}" for p in range(players) for r in range(1, rows + 1) for c in range(1, cols + 1)
    )


HOLE_FORM = (
    *(f"p{i}-total" for i in range(3)),
    *(f"p{i}-blocks" for i in range(3)),
    *_cells(3),
    "ender",
    "version",
    "hole_id",
    "idempotency_key",
    "number",
    "scorer",
)
SCORE_PAGE = (
    *RulesForm().fields,
    *(f"value_{rank}" for rank in RANKS),
    "mode",
    "players",
    "action",
    "ender",
    "score",
    "name-1",
    "name-2",
    "name-9",
    "cell-1-1-1",
    "cell-2-2-3",
)
ACTOR = ("actor",)
START = (
    "step",
    "add",
    "ruleset",
    "holes",
    "target_score",
    "ender_penalty",
    "player",
    "first_dealer",
    "title",
)
TOURNAMENT_FORM = (
    "name",
    "date",
    "venue",
    "ruleset",
    "rounds",
    "seating",
    "seed",
    "time_limit_minutes",
    "standings_release",
    "public",
    "tiebreak_1",
    "tiebreak_2",
)
ROUTES: dict[str, Route] = {
    "home": Route(),
    "favicon": Route(),
    "score": Route(query=SCORE_PAGE, form=SCORE_PAGE),
    "rules": Route(),
    "offline": Route(),
    "web-manifest": Route(),
    "service-worker": Route(),
    "no-connection": Route(),
    "games:list": Route(),
    "games:new": Route(query=START, form=(*START, "start_key")),
    "games:edit": Route(),
    "games:edit-scoreboard": Route(),
    "games:hole-new": Route(form=HOLE_FORM),
    "games:hole-edit": Route(form=HOLE_FORM),
    "games:hole-delete": Route(form=("hole_id", "version", "scorer")),
    "games:playoff-new": Route(form=HOLE_FORM),
    "games:playoff-edit": Route(form=HOLE_FORM),
    "games:playoff-delete": Route(form=("hole_id", "version", "scorer")),
    "games:preview": Route(query=("hole", "playoff"), form=HOLE_FORM),
    "games:undo": Route(form=("change", "next", "scorer")),
    "games:undo-confirm": Route(query=("change", "next")),
    "games:hole-scores": Route(),
    "games:playoff-scores": Route(),
    "games:view-hole-scores": Route(),
    "games:view-playoff-scores": Route(),
    "games:redo": Route(form=("change", "next", "scorer")),
    "games:end": Route(form=("scorer",)),
    "games:end-confirm": Route(),
    "games:resume": Route(form=("scorer",)),
    "games:edit-history": Route(),
    "games:share": Route(),
    "games:settings": Route(form=("action", "title", "seat", "name", "ruleset", "scorer")),
    "games:view": Route(),
    "games:view-scoreboard": Route(),
    "games:view-history": Route(),
    "games:view-refuse": Route(form=HOLE_FORM),
    "api-score": Route(json=_fields(rs.ScoreRequestSerializer)),
    "api-score-hole": Route(json=_fields(rs.HoleRequestSerializer)),
    "api/v1/^score/?$": Route(json=_fields(rs.ScoreRequestSerializer), path="api/v1/score"),
    "api/v1/^score-hole/?$": Route(json=_fields(rs.HoleRequestSerializer), path="api/v1/score-hole"),
    "api-rulesets": Route(),
    "api-ruleset": Route(),
    "api-games": Route(json=_fields(gs.GameCreateSerializer)),
    "api-game": Route(query=ACTOR, json=_fields(gs.GameUpdateSerializer)),
    "api-game-players": Route(query=ACTOR, json=_fields(gs.SeatWriteSerializer)),
    "api-game-player": Route(query=ACTOR, json=_fields(gs.SeatWriteSerializer)),
    "api-game-holes": Route(query=ACTOR, json=_fields(gs.HoleWriteSerializer)),
    "api-game-hole": Route(query=ACTOR, json=_fields(gs.HolePatchSerializer)),
    "api-game-hole-entries": Route(),
    "api-game-hole-entry": Route(query=ACTOR, json=_fields(gs.EntryWriteSerializer)),
    "api-game-playoff-holes": Route(query=ACTOR, json=_fields(gs.HoleWriteSerializer)),
    "api-game-playoff-hole": Route(query=ACTOR, json=_fields(gs.HolePatchSerializer)),
    "api-game-playoff-hole-entries": Route(),
    "api-game-playoff-hole-entry": Route(query=ACTOR, json=_fields(gs.EntryWriteSerializer)),
    "api-game-scoreboard": Route(),
    "api-game-history": Route(),
    "api-game-undo": Route(query=ACTOR, json=_fields(gs.UndoSerializer)),
    "api-game-redo": Route(query=ACTOR, json=_fields(gs.UndoSerializer)),
    "api-game-end": Route(query=ACTOR, json=("actor",)),
    "api-game-resume": Route(query=ACTOR, json=("actor",)),
    "api-game-export-csv": Route(),
    "api-game-export-json": Route(),
    "api-game-results": Route(),
    "api-game-turn-times": Route(json=("holes",)),
    "api-players": Route(json=_fields(gs.PlayerWriteSerializer)),
    "api-player": Route(json=_fields(gs.PlayerWriteSerializer)),
    # The schema is generated on every request (about a second): a few examples suffice.
    "api-schema": Route(query=("format", "lang", "version"), examples=3),
    "api-docs": Route(examples=3),
    "api-tournaments": Route(query=("page",), json=_fields(ts.TournamentCreateSerializer)),
    "api-tournament": Route(json=_fields(ts.TournamentUpdateSerializer)),
    "api-tournament-staff": Route(json=_fields(ts.StaffAddSerializer)),
    "api-tournament-staff-member": Route(),
    "api-tournament-players": Route(json=_fields(ts.PlayerAddSerializer)),
    "api-tournament-player": Route(),
    "api-tournament-player-drop": Route(json=_fields(ts.ReasonSerializer)),
    "api-tournament-player-withdraw": Route(json=_fields(ts.ReasonSerializer)),
    "api-tournament-player-reinstate": Route(json=_fields(ts.ReasonSerializer)),
    "api-tournament-player-check-in": Route(json=_fields(ts.CheckInSerializer)),
    "api-tournament-players-check-in": Route(json=_fields(ts.BulkCheckInSerializer)),
    "api-tournament-rounds": Route(),
    "api-tournament-round": Route(),
    "api-tournament-round-publish": Route(),
    "api-tournament-round-finalize": Route(json=_fields(ts.FinalizeSerializer)),
    "api-tournament-round-swap": Route(json=_fields(ts.SwapSerializer)),
    "api-tournament-round-phones": Route(),
    "api-tournament-table-clear-dispute": Route(json=_fields(ts.ClearDisputeSerializer)),
    "api-tournament-standings": Route(),
    "api-tournament-penalties": Route(json=("player", "round", "offence", "step", "seconds_over", "note")),
    "api-tournament-penalty-rescind": Route(json=("reason",)),
    "api-tournament-rulings": Route(
        json=("situation", "facts", "player", "round", "table", "hole", "step", "note")
    ),
    "api-rulings-situations": Route(),
    "api-rulings-advise": Route(json=("situation", "facts", "tournament", "player")),
    "api-game-confirm": Route(json=_fields(ts.ConfirmSerializer)),
    "tournaments:list": Route(),
    "tournaments:new": Route(form=TOURNAMENT_FORM),
    "tournaments:table": Route(form=("action", "by", "note")),
    "tournaments:dashboard": Route(),
    "tournaments:dashboard-live": Route(),
    "tournaments:dashboard-calls": Route(),
    "tournaments:settings": Route(form=TOURNAMENT_FORM),
    "tournaments:club": Route(form=("action", "club", "player", "member")),
    "tournaments:staff-add": Route(form=("username", "role")),
    "tournaments:staff-remove": Route(),
    "tournaments:players": Route(),
    "tournaments:player-add": Route(form=("name", "club", "rating")),
    "tournaments:player-import": Route(form=("text", "file")),
    "tournaments:player": Route(),
    "tournaments:player-check-in": Route(form=("checked_in",)),
    "tournaments:player-status": Route(query=("action",), form=("action", "reason")),
    "tournaments:players-bulk": Route(form=("action", "players", "reason")),
    "tournaments:players-bulk-undo": Route(),
    "tournaments:player-home": Route(),
    "tournaments:player-home-live": Route(),
    "tournaments:player-home-check-in": Route(),
    "tournaments:print-player-qr": Route(),
    "tournaments:round-seat": Route(),
    "tournaments:seating": Route(),
    "tournaments:round-swap": Route(form=("first", "second", "reason")),
    "tournaments:round-publish": Route(),
    "tournaments:round-finalize": Route(form=("override", "reason")),
    "tournaments:table-cards": Route(),
    "tournaments:table-clear": Route(form=("reason",)),
    "tournaments:paper-slip": Route(form=("replace", "h1-p0", "h1-p1", "h1-version", "h2-p0", "h3-p0")),
    "tournaments:standings": Route(),
    "tournaments:log": Route(),
    "tournaments:officiating": Route(),
    "tournaments:officiating-calls": Route(),
    "tournaments:ruling": Route(
        query=("situation", "call"),
        form=(
            "situation",
            "call",
            "fact_next_turn_begun",
            "fact_seconds_over",
            "player",
            "round",
            "table",
            "hole",
            "note",
            "step",
            "action",
        ),
    ),
    "tournaments:call-close": Route(),
    "tournaments:draft-confirm": Route(),
    "tournaments:penalty-rescind": Route(form=("reason",)),
    "tournaments:table-extend": Route(form=("minutes", "reason")),
    "tournaments:rulings": Route(),
    "tournaments:public": Route(query=("q", "find")),
    "rules-official": Route(query=("q", "partial")),
    "tournaments:export": Route(),
    "tournaments:print-seating": Route(),
    "tournaments:print-slips": Route(),
    "tournaments:print-pack": Route(query=("paper",), examples=4),  # a PDF each: fewer examples
    "tournaments:print-results": Route(),
    "tournaments:leaderboard": Route(),
    "tournaments:projector": Route(),
    "tournaments:projector-panels": Route(),
    "tournaments:table-call": Route(form=("called_by", "note")),
    "tournaments:table-officials": Route(),
    "login": Route(query=("next",), form=("username", "password", "next")),
    "logout": Route(query=("next",), form=("next",)),
    "password_change": Route(form=("old_password", "new_password1", "new_password2")),
    "password_change_done": Route(),
    "signup": Route(query=("next",), form=("username", "password1", "password2", "next")),
    "api_token": Route(form=("action",)),
    "clubs:new-game": Route(form=(*START, "seat", "guest", "action", "start_key")),
    "clubs:export": Route(),
    "clubs:export-member-bgstats": Route(),
    "api-club-export-games": Route(),
    "api-club-export-members": Route(),
    "api-club-export-member-bgstats": Route(),
    # The club owners' pages and write API.
    "clubs:list": Route(form=("name", "is_public", "idempotency_key")),
    "clubs:invitation": Route(),
    "clubs:settings": Route(form=("name", "is_public", "version")),
    "clubs:invite": Route(),
    "clubs:public-link": Route(),
    "clubs:owner-remove": Route(),
    "clubs:members": Route(),
    "clubs:member-add": Route(form=("name",)),
    "clubs:member-paste": Route(form=("names",)),
    "clubs:member-merge": Route(form=("keep", "duplicate")),
    "clubs:member-rename": Route(form=("m1-name", "m1-version", "name", "version")),
    "clubs:member-retire": Route(form=("retired",)),
    "clubs:seasons": Route(),
    "clubs:season-add": Route(form=("name", "start", "end")),
    "clubs:season-edit": Route(form=("s1-name", "s1-start", "s1-end", "s1-version")),
    "clubs:season-delete": Route(),
    "api-clubs": Route(json=_fields(cs.ClubCreateSerializer)),
    "api-club": Route(json=_fields(cs.ClubUpdateSerializer)),
    "api-club-invitations": Route(),
    "api-club-members": Route(json=_fields(cs.MemberCreateSerializer)),
    "api-club-members-merge": Route(json=_fields(cs.MemberMergeSerializer)),
    "api-club-seasons": Route(json=_fields(cs.SeasonCreateSerializer)),
    "api-club-season": Route(json=_fields(cs.SeasonUpdateSerializer)),
    "api-club-ratings": Route(),
    "api-club-member": Route(json=("name", "retired")),
    "api-club-season-leaderboard": Route(query=("order",)),
    "clubs:club": Route(),
    "clubs:season": Route(query=("order",)),
    "clubs:member": Route(),
    "clubs:public-club": Route(),
    "clubs:public-season": Route(query=("order",)),
    "clubs:public-member": Route(),
}
EVERYWHERE = ("q", "page")  # parameters no view reads: they must be harmless too


def resolver_routes(
    patterns: list[Any] | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str]]:
    """(key, full pattern) of every route: "namespace:name", or the pattern itself when unnamed."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        full = prefix + str(entry.pattern)
        if full.startswith(SKIPPED_PREFIXES):
            continue
        if isinstance(entry, URLResolver):
            inner = ":".join(filter(None, [namespace, entry.namespace or ""]))
            yield from resolver_routes(entry.url_patterns, full, inner)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
            yield (name or full), full


ALL_ROUTES = dict(resolver_routes())


def test_it_covers_every_route_of_the_resolver() -> None:
    missing = sorted(set(ALL_ROUTES) - set(ROUTES))
    stale = sorted(set(ROUTES) - set(ALL_ROUTES))
    assert not missing, f"add these routes to ROUTES with the parameters they read: {missing}"
    assert not stale, f"these ROUTES entries match no route any more: {stale}"


# --------------------------------------------------------------------------------------------
# Hostile values


def url_quote(text: str) -> str:
    """Percent-encode as a browser would; a lone surrogate becomes its (invalid) UTF-8 bytes."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


HOSTILE_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "²",
    "٣",
    "\uff13",
    "-1",
    "0",
    "1",
    "2",
    "+7",
    " 3 ",
    "-0",
    HUGE,
    "-" + HUGE,
    "x" * 5000,
    "99999999999999999999",
    "1e5",
    "3.5",
    "\x1b[31m",
    "\u202e",
    "\ufeff",
    "🂡",
    "<script>",
    "'; DROP TABLE x; --",
    "official",
    "new",
    "title",
    "rename",
    "ruleset",
    "Ann",
    "add-player",
    "remove-player-1",
    "history",
]
texts = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.text(st.characters(exclude_categories=[]), max_size=12),
    st.integers(min_value=-(10**6), max_value=10**6).map(str),
)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    texts,
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(texts, children, max_size=4)),
    max_leaves=12,
)
GRID = [["Q", "7", "K"], ["Q", "7", "3"]]
PLAUSIBLE_JSON = [
    {"Ann": 3, "Bob": 5, "Cy": 8},
    {"Ann": GRID, "Bob": {"total": 4}, "Cy": {"cards": GRID}},
    {"Ann": 3, "Bob": 5},
    "official",
    {"preset": "official", "holes": 6},
    ["Ann", "Bob"],
    "Ann",
    0,
    1,
]
json_field_values = st.one_of(st.sampled_from(PLAUSIBLE_JSON), json_values)


@dataclass
class Table:
    """The games every example reaches: their tokens, hole numbers, seats, a roster player."""

    values: dict[str, list[str]]


HOSTILE_PATH = [
    "%00",
    "abc%00def",
    "%ED%A0%80",
    "%C2%B2",
    "%D9%A3",
    "x" * 70,
    HUGE,
    "-1",
    "a%20b",
    "..",
    "%2F",
]


@pytest.fixture(scope="module", name="shared_table")
def shared_table_fixture(django_db_setup: None, django_db_blocker: Any) -> Iterator[Table]:
    """The games and events of `build_table`, built once for the module and committed (each example
    writes inside a transaction it rolls back, each test inside the `db` fixture's); flushed after
    (tests/committed.py)."""
    try:
        with django_db_blocker.unblock():
            built = build_table()
        yield built
    finally:
        flush_committed(django_db_blocker)


@pytest.fixture
def table(db: None, shared_table: Table) -> Table:
    """The shared games and events, the same for every test."""
    return shared_table


def build_table() -> Table:
    """A game with two holes, and a 1-hole game tied into sudden death with a playoff hole."""
    user = get_user_model().objects.create_user("fuzz")  # no password: no slow hashing
    game = services.create_game(players=["Ann", "Bob", "Cy"], ruleset="official", owner=user, title="Friday")
    services.hole_record(game, entries={"Ann": 3, "Bob": 5, "Cy": 8}, ender="Ann", idempotency_key="k1")
    services.hole_record(game, entries={"Ann": GRID, "Bob": 4, "Cy": 2}, ender=None)
    tie = services.create_game(players=["Ann", "Bob"], ruleset={"preset": "official", "holes": 1})
    services.hole_record(tie, entries={"Ann": 4, "Bob": 4}, ender=None)
    services.hole_record(tie, entries={"Ann": 2, "Bob": 2}, ender=None, playoff=True)
    player = Player.objects.filter(owner=user).first()
    # A tournament the logged-in fuzz user directs, round 1 seated, and a private one of another user.
    event = tournament_services.create_tournament(
        director=user, name="Fuzz Open", ruleset={"preset": "official", "holes": 1}, rounds=2, seed=3
    )
    tournament_services.import_entrants(event, "name\nAnn\nBob\nCy\nDi\nEd\nFay\nGus\nHal\n")
    round_ = tournament_services.seat_next_round(event)
    other = get_user_model().objects.create_user("fuzz-other")
    private = tournament_services.create_tournament(director=other, name="Closed", public=False, seed=4)
    tournament_services.add_staff(event, "fuzz-other", "official")
    entrants = [str(pk) for pk in Entrant.objects.filter(tournament=event).values_list("pk", flat=True)[:3]]
    table_game = EventTable.objects.filter(round=round_).select_related("game").first().game
    given = tournament_services.give_penalty(event, player=int(entrants[0]), offence="illegal_move")
    tournament_services.publish_round(event, 1)
    call = OfficialCall.objects.create(tournament=event, table=round_.tables.first())
    tokens = [game.edit_token, game.view_token, tie.edit_token, tie.view_token, "demo-friday-edit"]
    tokens += [table_game.edit_token, table_game.view_token]
    tokens += [event.entrants.first().token]
    bulk = tournament_services.check_in_players(event, [int(e) for e in entrants[1:]])
    clubs = _clubs(user, other)
    tokens += [clubs["invitation"], clubs["public_token"]]
    return Table(
        {
            "token": tokens,
            "number": ["1", "2", "3", "0"],
            "seat": ["0", "1", "2", "7"],
            "player_id": [str(player.pk if player else 1), "0", *entrants],
            "tournament_id": [str(event.pk), str(event.pk), str(private.pk), "0"],
            "staff_id": [str(pk) for pk in Staff.objects.values_list("pk", flat=True)] + ["0"],
            "penalty_id": [str(given.pk), "0"],
            "what": ["standings", "scores", "games", "members", "x"],
            "fmt": ["csv", "json", "xls"],
            "call_id": [str(call.pk), "0"],
            "table": ["1", "2", "0"],
            "name": ["official", "basic", "nope"],
            "rest": ["x", "holes/new/", "settings/"],
            "pk": [str(event.pk), "0"],
            "entrant_id": [str(event.entrants.first().pk), "0"],
            "table_id": [str(round_.tables.first().pk), "0"],
            "entry_id": [str(bulk.entry.pk), "0"],
            "club_id": [clubs["mine"], clubs["mine"], clubs["public"], clubs["private"], "0"],
            "member_id": [clubs["member"], "0"],
            "season_id": [clubs["season"], "0"],
            "owner_id": [clubs["owner"], "0"],
        }
    )


def _clubs(user: Any, other: Any) -> dict[str, str]:
    """A club the fuzz user owns (members, a season, a co-owner, an invitation), and another
    user's public and private clubs."""
    mine = Club.objects.create(name="Fuzz Club")
    ClubOwner.objects.create(club=mine, user=user)
    co_owner = ClubOwner.objects.create(club=mine, user=other)
    member = Member.objects.create(club=mine, name="Ann")
    Member.objects.create(club=mine, name="Bob")
    season = Season.objects.create(club=mine, name="2027", start="2027-01-01", end="2027-12-31")
    invitation = OwnerInvitation.objects.create(club=mine, created_by=user)
    public = Club.objects.create(name="Open", is_public=True)
    private = Club.objects.create(name="Closed")
    for club in (public, private):
        ClubOwner.objects.create(club=club, user=other)
    ids = {"mine": mine.pk, "public": public.pk, "private": private.pk, "member": member.pk}
    ids |= {"season": season.pk, "owner": co_owner.pk}
    tokens = {"invitation": invitation.token, "public_token": public.public_token}
    return {key: str(value) for key, value in ids.items()} | tokens


def fill_path(pattern: str, route: Route, table: Table, draw: Any) -> str:
    """The route's URL with each path parameter drawn from the table's real values or hostile ones."""
    if route.path is not None:
        return "/" + route.path

    def value(match: re.Match[str]) -> str:
        name = match.group(2)
        real = table.values.get(name, ["1"])
        return draw(st.one_of(st.sampled_from(real), st.sampled_from(real), st.sampled_from(HOSTILE_PATH)))

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, pattern)


def encode_pairs(pairs: list[tuple[str, str]]) -> str:
    return "&".join(f"{url_quote(key)}={url_quote(value)}" for key, value in pairs)


def draw_pairs(draw: Any, names: tuple[str, ...]) -> list[tuple[str, str]]:
    chosen = draw(st.lists(st.sampled_from((*names, *EVERYWHERE)), max_size=6))
    pairs = [(name, draw(texts)) for name in chosen]
    if draw(st.booleans()) and names:
        pairs.append((draw(texts), draw(texts)))  # a field no view knows, hostile name included
    return pairs


# What a write could change: each model's rows (these fields, in primary key order), or for an
# empty tuple only how many rows there are.
SNAPSHOT: tuple[tuple[type[Model], tuple[str, ...]], ...] = (
    (Game, ("title", "version", "ruleset", "status")),
    (Seat, ("seat", "name", "total", "playoff_total")),
    (Hole, ("number", "version")),
    (HoleEntry, ("score", "typed_total", "blocks_marked")),
    (GameChange, ()),
    (IdempotentRequest, ()),
    (Player, ("name",)),
    (get_user_model(), ("username", "password")),
    (Token, ("user_id",)),
    (Tournament, ("name", "ruleset", "seed", "version")),
    (Entrant, ("name", "status", "checked_in")),
    (Round, ("status",)),
    (TableSeat, ("entrant_id", "seat")),
    (EventTable, ("confirmed_at", "disputed_at", "extra_minutes")),
    (Staff, ("role",)),
    (Penalty, ("step", "points", "rescinded_at")),
    (Ruling, ()),
    (OfficialCall, ("answered_at",)),
    (Club, ("name", "is_public", "version")),
    (ClubOwner, ("user_id",)),
    (Member, ("name", "retired_at", "version")),
    (Season, ("name", "start", "end")),
)


def _snapshot_sql() -> str:
    """One query for the whole `SNAPSHOT` (one round trip per look, not one per model): a row per
    model row, its fields as text, or a row per model with its count. Keys are text too (a token's
    is a string). SQLite and PostgreSQL alike."""
    quote = connection.ops.quote_name
    parts = []
    for index, (model, fields) in enumerate(SNAPSHOT):
        table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
        if not fields:
            parts.append(f"SELECT {index} AS m, CAST(COUNT(*) AS TEXT) AS k, '' AS v FROM {table}")
            continue
        columns = " || '|' || ".join(
            f"COALESCE(CAST({quote(model._meta.get_field(name).column)} AS TEXT), '<null>')"
            for name in fields
        )
        parts.append(f"SELECT {index} AS m, CAST({pk} AS TEXT) AS k, {columns} AS v FROM {table}")
    return " UNION ALL ".join(parts) + " ORDER BY 1, 2"


def state() -> list[tuple[Any, ...]]:
    """Everything a write could change (`SNAPSHOT`), read in one query."""
    with connection.cursor() as cursor:
        cursor.execute(_snapshot_sql())
        return cursor.fetchall()


def logged_in_session_cookie() -> str:
    """The session key of the fuzz user logged in (the test client's log-in, made once)."""
    client = Client()
    client.force_login(get_user_model().objects.get(username="fuzz"))
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize("key", sorted(ROUTES))
def test_it_never_answers_500_whatever_the_input(key: str, table: Table) -> None:
    route = ROUTES[key]
    pattern = ALL_ROUTES[key]
    is_api = pattern.startswith("api/v1/")
    # The fuzz user's session, made once: each example below runs in a savepoint rolled back
    # afterwards, so a request that logs out or cycles the key leaves this session as it was for the
    # next example (a log-in per example was a fifth of this file's time).
    session_cookie = logged_in_session_cookie()

    @settings(FUZZ, max_examples=route.examples)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        draw = data.draw
        method = draw(st.sampled_from(API_METHODS if is_api else PAGE_METHODS))
        path = fill_path(pattern, route, table, draw)
        query = encode_pairs(draw_pairs(draw, route.query))
        url = f"{path}?{query}" if query else path
        headers: dict[str, str] = {}
        body: bytes | str = b""
        content_type = "application/octet-stream"
        if method != "GET" and is_api:
            if draw(st.booleans()) and route.json:
                keys = draw(st.lists(st.sampled_from(route.json), max_size=len(route.json), unique=True))
                value: Any = {name: draw(json_field_values) for name in keys}
            else:
                value = draw(json_values)
            body = json.dumps(value)  # lone surrogates travel as JSON escapes
            content_type = draw(st.sampled_from(["application/json", "application/x-www-form-urlencoded"]))
            if draw(st.booleans()):
                headers["HTTP_IF_MATCH"] = draw(
                    st.sampled_from(['"hole-1"', "*", f'"hole-{HUGE}"', '"hole-٣"'])
                )
            if draw(st.booleans()):
                headers["HTTP_IDEMPOTENCY_KEY"] = draw(st.sampled_from(["k1", "k9", "x" * 300, "a b", "é"]))
        elif method == "POST":
            body = encode_pairs(draw_pairs(draw, route.form))
            content_type = "application/x-www-form-urlencoded"
        logged_in = draw(st.booleans())
        with transaction.atomic():
            client = Client(raise_request_exception=False)
            if logged_in:
                client.cookies[django_settings.SESSION_COOKIE_NAME] = session_cookie
            before = state()
            response = client.generic(method, url, body, content_type=content_type, **headers)
            assert response.status_code < 500, (method, url[:200], body[:300], response.content[:500])
            if is_api and response.status_code >= 400:
                assert response["Content-Type"].startswith("application/json"), (method, url[:200])
            if response.status_code >= 400:
                assert state() == before, f"{method} {url[:200]} answered {response.status_code} but wrote"
            transaction.set_rollback(True)

    run()


def test_its_snapshot_sees_a_changed_field_a_new_row_and_a_deleted_one(table: Table) -> None:
    before = state()
    assert {row[0] for row in before} >= {0, 1, 2, 3, 9, 10}  # games, seats, holes, entries, events
    seat = Seat.objects.order_by("pk").first()
    with transaction.atomic():
        Seat.objects.filter(pk=seat.pk).update(name=f"{seat.name}!")
        assert state() != before
        transaction.set_rollback(True)
    with transaction.atomic():
        GameChange.objects.filter(pk=GameChange.objects.order_by("pk").values("pk")[:1]).delete()
        assert state() != before
        transaction.set_rollback(True)
    with transaction.atomic():
        Tournament.objects.update(seed=F("seed") + 1)
        assert state() != before
        transaction.set_rollback(True)
    assert state() == before


def test_its_logged_in_examples_stay_logged_in_after_an_example_logs_out(table: Table) -> None:
    session_cookie = logged_in_session_cookie()
    for _ in range(2):  # the second time after the first example's log-out was rolled back
        with transaction.atomic():
            client = Client()
            client.cookies[django_settings.SESSION_COOKIE_NAME] = session_cookie
            response = client.get("/tournaments/")
            assert response.wsgi_request.user.username == "fuzz"
            client.post("/accounts/logout/")
            assert client.get("/tournaments/").wsgi_request.user.is_anonymous
            transaction.set_rollback(True)
