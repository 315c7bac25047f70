"""A club's tournament: a finalized round's tables count for the entrants linked to members, at
the round's finalizing time; a director's correction of a finalized game recomputes from it on;
deleting the event takes its results out of the ratings. Equal to the independent oracle."""

from __future__ import annotations

import random

import pytest

from clubs.models import Member, MemberResult
from clubs.services.results import recount_club
from scoring import services as scoring_services
from tests.clubs import ratings_oracle
from tests.clubs.factories import make_club, make_members
from tests.clubs.ratings_games import play_random_game, stored_history
from tests.tournaments.helpers import event
from tournaments import services
from tournaments.models import Entrant, Round, Table

pytestmark = pytest.mark.django_db

DIRECTOR = {"view", "score", "manage"}


def play_and_finalize(tournament, rnd: random.Random, played: dict) -> Round:
    """Seat, publish, play every table with random small scores (playoffs until decided), confirm
    and finalize the next round; `played` gets each game's scores and playoff holes by game id."""
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, round_.number)
    for table in Table.objects.filter(round=round_).select_related("game"):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        scores = {name: [rnd.choice([0, 1, 2, 3]) for _ in range(2)] for name in names}
        playoff: list[dict[str, int]] = []
        for hole in range(2):
            entries = {name: scores[name][hole] for name in names}
            scoring_services.hole_record(
                table.game, entries=entries, ender=None, capabilities={"view", "score"}
            )
        table.game.refresh_from_db()
        while table.game.status == "sudden_death":
            leaders = [
                n
                for n, p in ratings_oracle.places(scores, ratings_oracle.OFFICIAL, playoff).items()
                if p == 1
            ]
            hole = {name: rnd.choice([1, 2]) for name in leaders}
            scoring_services.hole_record(
                table.game, entries=hole, ender=None, playoff=True, capabilities={"view", "score"}
            )
            playoff.append(hole)
            table.game.refresh_from_db()
        services.confirm_table(table.game, names[0])
        played[table.game_id] = (scores, playoff)
    return services.finalize_round(tournament, round_.number)


def oracle(club, played_tables: dict, live: list) -> dict:
    """The oracle over the club's counted games in their stored order."""
    members = {m.name: m.pk for m in Member.objects.filter(club=club)}
    linked = dict(Entrant.objects.filter(member__isnull=False).values_list("name", "member_id"))
    live_by_id = {p.game.pk: p for p in live}
    games = []
    order = (
        MemberResult.objects.filter(club=club)
        .order_by("finished_at", "game_id")
        .values_list("game_id", flat=True)
    )
    for game_id in dict.fromkeys(order):
        if game_id in live_by_id:
            games.append(live_by_id[game_id].linked_places())
            continue
        scores, playoff = played_tables[game_id]
        places = ratings_oracle.places(scores, ratings_oracle.OFFICIAL, playoff)
        games.append(sorted((linked[n], places[n]) for n in scores if n in linked))
    assert set(members.values()) >= {m for game in games for m, _p in game}
    return ratings_oracle.ratings(games)


def test_finalized_rounds_count_for_linked_entrants_and_corrections_recompute():
    rnd = random.Random(7)
    club = make_club()
    members = make_members(club, *[f"P{n:02d}" for n in range(1, 8)])
    tournament = event(8, rounds=2, holes=2)
    tournament.club = club
    tournament.save(update_fields=["club"])
    for member in members[:6]:  # P07 stays unlinked (P08 is not a member at all)
        Entrant.objects.filter(tournament=tournament, name=member.name).update(member=member)
    played: dict = {}
    live = [play_random_game(club, rnd, members, "home") for _ in range(3)]
    first = play_and_finalize(tournament, rnd, played)
    live += [play_random_game(club, rnd, members, "home") for _ in range(3)]
    play_and_finalize(tournament, rnd, played)
    table_results = MemberResult.objects.filter(game_id__in=list(played))
    assert table_results.count() == 12  # 6 linked entrants, 2 rounds
    assert set(
        table_results.filter(game__tournament_table__round=first).values_list("finished_at", flat=True)
    ) == {first.finalized_at}
    assert stored_history(club) == oracle(club, played, live)
    # A director corrects hole 1 of a round-1 table: the ratings from that game on move.
    uncorrected = stored_history(club)
    game = Table.objects.filter(round=first).first().game
    scores, playoff = played[game.pk]
    names = list(scores)
    linked = [m.name for m in members[:6] if m.name in scores]
    best = min(linked, key=lambda name: sum(scores[name]))
    scores[best][0] = 9  # from ahead of a linked member to last of all: no playoff to go stale
    entries = {name: scores[name][0] for name in names}
    if playoff:
        scoring_services.hole_delete(game, 1, playoff=True, capabilities=DIRECTOR, reason="appeal")
        playoff.clear()
    scoring_services.hole_update(
        game, 1, expected_version=None, entries=entries, ender=None, capabilities=DIRECTOR, reason="appeal"
    )
    assert stored_history(club) == oracle(club, played, live) != uncorrected
    fields = [f.attname for f in MemberResult._meta.concrete_fields if f.attname != "id"]
    before = sorted(MemberResult.objects.filter(club=club).values_list(*fields))
    recount_club(club)
    assert sorted(MemberResult.objects.filter(club=club).values_list(*fields)) == before
    # The event deleted: its games leave the results and the ratings.
    services.delete_tournament(tournament)
    assert not MemberResult.objects.filter(game_id__in=list(played)).exists()
    assert stored_history(club) == oracle(club, {}, live)
