"""The tournament services: settings, players, CSV import, drops and late entries, swaps, confirmations."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.errors import NotFoundInTournament, TournamentError, WrongState
from tournaments.models import Entrant, EntrantStatus, EventLogEntry, Table, TableSeat

pytestmark = pytest.mark.django_db


def test_it_creates_a_tournament_with_the_official_defaults() -> None:
    tournament = services.create_tournament(director=user("dora"), name="  Spring Open ")
    assert tournament.name == "Spring Open"
    assert tournament.ruleset["preset"] == "official" and tournament.rounds == 3
    assert tournament.seating == "fewest_repeats" and tournament.standings_release == "live"
    assert tournament.tiebreakers == ["countback", "most_holes_won", "sudden_death"]  # rule 4.2
    assert isinstance(tournament.seed, int) and tournament.public


@pytest.mark.parametrize(
    ("settings", "where"),
    [
        ({"rounds": 0}, "rounds"),
        ({"rounds": 22}, "rounds"),
        ({"rounds": "3"}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"seed": 10**30}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seating": "alphabetical"}, "seating"),
        ({"tiebreakers": ["countback", "countback"]}, "tiebreakers"),
        ({"tiebreakers": ["coin_toss"]}, "tiebreakers"),
        ({"standings_release": "never"}, "standings_release"),
        ({"date": "23/11/2026"}, "date"),
        ({"date": "\uff12\uff10\uff12\uff16-11-23"}, "date"),
        ({"public": "yes"}, "public"),
        ({"time_limit_minutes": 0}, "time_limit_minutes"),
        ({"venue": "a\x00b"}, "venue"),
    ],
)
def test_it_names_each_bad_setting(settings: dict, where: str) -> None:
    with pytest.raises(TournamentError) as refused:
        services.create_tournament(director=user("dora"), name="Open", **settings)
    assert [p.where for p in refused.value.problems] == [where]


def test_it_refuses_a_bad_ruleset_naming_the_parameter() -> None:
    with pytest.raises(TournamentError) as refused:
        services.create_tournament(
            director=user("dora"), name="Open", ruleset={"preset": "official", "holes": 0}
        )
    assert refused.value.problems[0].where.startswith("ruleset")


def test_it_freezes_the_ruleset_and_seed_once_round_one_is_seated() -> None:
    tournament = event(8)
    tournament = services.update_tournament(
        tournament, ruleset={"preset": "official", "holes": 3}, venue="Club house"
    )
    play_round(tournament)
    with pytest.raises(WrongState) as refused:
        services.update_tournament(tournament, ruleset="official", seed=7)
    assert {p.where for p in refused.value.problems} == {"ruleset", "seed"}
    services.finalize_round(tournament, 1)
    services.seat_next_round(tournament)
    with pytest.raises(WrongState, match="cannot be shorter"):
        services.update_tournament(tournament, rounds=1)
    updated = services.update_tournament(tournament, venue="Hall", rounds=4)
    assert updated.venue == "Hall" and updated.rounds == 4 and updated.ruleset["holes"] == 3


def test_it_imports_nothing_when_a_line_is_bad_and_names_every_bad_line() -> None:
    tournament = event(1)
    text = "name,club,rating\nAnn,North,1500\n,South,\nBob,,fast\nann,,\nCy,,\uff11\uff12\nDi,,12,extra\n"
    with pytest.raises(TournamentError) as refused:
        services.import_entrants(tournament, text)
    wheres = [p.where for p in refused.value.problems]
    assert wheres == ["line 3", "line 4", "line 5", "line 6", "line 7"]
    assert "already on line 2" in refused.value.problems[2].message
    assert Entrant.objects.filter(tournament=tournament).count() == 1  # only P01 from event()


def test_it_imports_a_good_list_with_columns_in_any_order() -> None:
    tournament = event(1)
    created = services.import_entrants(tournament, "\ufeffRating,Name\n1500,Ann\n,Bob\n\n")
    assert [(e.name, e.rating) for e in created] == [("Ann", 1500), ("Bob", None)]


@pytest.mark.parametrize(
    "text",
    ["", "club\nNorth\n", "name\x00\nAnn\n", b"\xff\xfe", 42, "name,name\nAnn,Ann\n"],
)
def test_it_refuses_an_unreadable_file_without_a_500(text) -> None:
    tournament = event(1)
    with pytest.raises(TournamentError):
        services.import_entrants(tournament, text)
    assert Entrant.objects.filter(tournament=tournament).count() == 1


def test_it_keeps_names_unique_in_a_tournament() -> None:
    tournament = event(2)
    with pytest.raises(TournamentError, match="already in the tournament"):
        services.add_entrant(tournament, "p01")
    with pytest.raises(TournamentError):
        services.add_entrant(tournament, "Zed", rating=10**30)
    assert services.add_entrant(tournament, "Zed", club="East", rating=1200).rating == 1200


def test_a_drop_keeps_the_rounds_played_and_changes_only_rounds_not_yet_seated() -> None:
    tournament = event(9)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    dropped = Entrant.objects.get(tournament=tournament, name="P09")
    services.drop_entrant(tournament, dropped.pk)
    services.drop_entrant(tournament, dropped.pk)  # a retried request changes nothing
    late = services.add_entrant(tournament, "Late")
    round_two = services.seat_next_round(tournament)
    seated = set(TableSeat.objects.filter(round=round_two).values_list("entrant__name", flat=True))
    assert "P09" not in seated and "Late" in seated and len(seated) == 9
    assert TableSeat.objects.filter(entrant=dropped, round__number=1).exists()
    dropped.refresh_from_db()
    assert dropped.status == EntrantStatus.DROPPED and dropped.left_after_round == 1
    assert late.entered_before_round == 2


def test_it_swaps_two_players_of_a_seated_round_with_a_reason() -> None:
    tournament = event(8)
    round_ = services.seat_next_round(tournament)
    first, second = (Table.objects.get(round=round_, number=n) for n in (1, 2))
    a = first.seats.get(seat=0).entrant
    b = second.seats.get(seat=1).entrant
    with pytest.raises(TournamentError, match="Say why"):
        services.swap_players(tournament, 1, a.pk, b.pk, reason=" ")
    services.swap_players(tournament, 1, a.pk, b.pk, reason="family at one table", actor=user("dora"))
    assert first.seats.get(seat=0).entrant == b and second.seats.get(seat=1).entrant == a
    assert first.game.seats.get(seat=0).name == b.name and second.game.seats.get(seat=1).name == a.name
    assert EventLogEntry.objects.get(action="players_swapped").reason == "family at one table"
    services.publish_round(tournament, 1)
    with pytest.raises(WrongState, match="already published"):
        services.swap_players(tournament, 1, a.pk, b.pk, reason="again")


def test_it_names_a_player_or_round_that_is_not_there() -> None:
    tournament = event(8)
    with pytest.raises(NotFoundInTournament):
        services.drop_entrant(tournament, 10**30)
    with pytest.raises(NotFoundInTournament):
        services.publish_round(tournament, 1)
    with pytest.raises(TournamentError):
        services.drop_entrant(tournament, [1])


def test_a_player_at_the_table_confirms_the_finished_scorecard_once() -> None:
    tournament = event(8)
    round_ = play_round(tournament, confirm=False)
    table = Table.objects.filter(round=round_).first()
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    with pytest.raises(TournamentError, match="not a player at this table"):
        services.confirm_table(table.game, "Nobody")
    services.confirm_table(table.game, names[1].lower())
    services.confirm_table(table.game, names[2])  # the first confirmation stands
    table.refresh_from_db()
    assert table.confirmed_by.name == names[1]


def test_a_disagreement_flags_the_table_until_the_director_clears_it() -> None:
    tournament = event(8)
    round_ = play_round(tournament, confirm=False)
    table = Table.objects.filter(round=round_).first()
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    services.confirm_table(table.game, names[0], disagree=True, note="hole 2 was 7, not 9")
    table.refresh_from_db()
    assert table.is_disputed and table.dispute_note == "hole 2 was 7, not 9"
    with pytest.raises(WrongState, match="flagged a disagreement"):
        services.confirm_table(table.game, names[1])
    services.clear_dispute(table, note="checked the cards")
    services.confirm_table(table.game, names[1])
    table.refresh_from_db()
    assert table.is_confirmed and not table.is_disputed


def test_a_table_cannot_confirm_before_its_last_hole() -> None:
    tournament = event(8)
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    game = Table.objects.filter(round=round_).first().game
    names = list(game.seats.values_list("name", flat=True))
    scoring_services.hole_record(game, entries=dict.fromkeys(names, 5), ender=None)
    with pytest.raises(WrongState, match="not over yet"):
        services.confirm_table(game, names[0])


def test_deleting_a_tournament_takes_its_rounds_tables_and_games_with_it() -> None:
    from scoring.models import Game

    tournament = event(8)
    play_round(tournament)
    services.delete_tournament(tournament)
    assert not Game.objects.filter(managed_by="tournaments.table").exists()
    assert not Entrant.objects.exists() and not Table.objects.exists()


def test_the_demo_tournament_loads_once_and_rebuilds_on_reset(settings) -> None:
    from django.core.management import call_command

    from tournaments.models import Round, Tournament

    settings.DEBUG = True
    call_command("load_demo_tournament")
    call_command("load_demo_tournament")
    call_command("load_demo_tournament", "--reset")
    demo = Tournament.objects.get(name="Demo Open")
    assert [r.status for r in Round.objects.filter(tournament=demo).order_by("number")] == [
        "finalized",
        "published",
    ]
    assert demo.entrants.count() == 12


def test_a_long_disagreement_note_is_kept_whole_and_logged_without_a_database_error() -> None:
    tournament = event(8)
    round_ = play_round(tournament, confirm=False)
    table = Table.objects.filter(round=round_).first()
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    note = "the cards of hole 2 were miscounted " * 13  # 468 characters: over a log reason's 200
    services.confirm_table(table.game, names[0], disagree=True, note=note)
    table.refresh_from_db()
    assert table.dispute_note == note.strip()
    assert EventLogEntry.objects.get(action="table_disputed").details["note"] == note.strip()


@pytest.mark.parametrize("reason", ["x" * 201, "a\x00b"])
def test_every_logged_reason_is_checked_before_anything_is_written(reason: str) -> None:
    tournament = event(8)
    round_ = play_round(tournament, confirm=False)
    entrant = Entrant.objects.filter(tournament=tournament).first()
    table = Table.objects.filter(round=round_).first()
    with pytest.raises(TournamentError):
        services.drop_entrant(tournament, entrant.pk, reason=reason)
    with pytest.raises(TournamentError):
        services.finalize_round(tournament, 1, override=True, reason=reason)
    with pytest.raises(TournamentError):
        services.clear_dispute(table, note=reason)
    entrant.refresh_from_db()
    assert entrant.status == EntrantStatus.ACTIVE
    assert not EventLogEntry.objects.filter(
        action__in=["player_dropped", "round_finalized_override"]
    ).exists()
