"""The standings table's rows, built in Python (`tournaments.web.standings_rows`), and the shared
cache in front of the standings: the page follows every change, whatever it has cached."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import by_number, event, play_round
from tests.tournaments.web.conftest import as_user
from tournaments import services
from tournaments.live_versions import event_version
from tournaments.models import Table, Tournament
from tournaments.standings import StandingLine, cached_standings, compute_standings, standings_cache_key
from tournaments.web.standings_rows import standings_rows


def _line(**changes) -> StandingLine:
    values = {
        "rank": 1,
        "entrant_id": 7,
        "name": "Ann",
        "club": "",
        "status": "active",
        "total": -3,
        "penalty_points": 0,
        "rounds": (-5, 2),
        "holes_played": 18,
        "holes_won": 4,
        "complete": True,
        "disqualified": False,
        "playoff": False,
        "shared": False,
        "columns": (("countback", "-2 -2 -1"), ("most_holes_won", "4")),
        "why_above": "",
    }
    values.update(changes)
    return StandingLine(**values)


def test_it_builds_a_row_per_line_with_every_cell() -> None:
    html = str(standings_rows([_line(), _line(rank=2, entrant_id=8, name="Bob", total=4)], 3))
    assert html.count("<tr") == 2
    assert '<tr class="leader">' in html  # rank 1 of a complete record
    assert 'href="/tournaments/3/players/7/">Ann</a>' in html
    assert 'href="/tournaments/3/players/8/">Bob</a>' in html
    # Minus signs as elsewhere in the app (U+2212), each round, the penalty, the tiebreak columns,
    # each cell but the rank, the player and the total labelled with its column's name (a phone
    # shows it before the figure), the tiebreaks under their readable names.
    assert (
        '<td class="num total">\u22123</td><td class="num holes" data-label="Holes played">18</td>'
        '<td class="num round" data-label="R1">\u22125</td><td class="num round" data-label="R2">2</td>'
    ) in html
    assert (
        '<td class="num pen" data-label="Pen.">0</td>'
        '<td class="num" data-label="Countback (best hole scores)">-2 -2 -1</td>'
        '<td class="num" data-label="Most holes won">4</td><td class="why"></td>'
    ) in html
    # The round columns are named after the rounds counted when the caller gives them.
    assert (
        '<td class="num round" data-label="R3">\u22125</td><td class="num round" data-label="R4">2</td>'
        in str(standings_rows([_line()], 3, round_numbers=(3, 4)))
    )


def test_it_marks_shared_ranks_playoffs_missing_rounds_penalties_and_statuses() -> None:
    html = str(
        standings_rows(
            [
                _line(rank=2, shared=True, playoff=True, why_above="Lower countback"),
                _line(rank=5, complete=False, status="dropped", rounds=(3, None), penalty_points=5),
                _line(rank=6, disqualified=True, complete=False, status="disqualified"),
            ],
            3,
        )
    )
    assert '<tr class="playoff-row"><td class="num">2=</td>' in html
    assert '<span class="badge">playoff</span>' in html
    assert '<td class="why" data-label="Why above">Lower countback</td>' in html
    assert '<span class="status status-dropped">Dropped</span>' in html
    assert '<td class="num round" data-label="R2">\u2013</td>' in html
    assert '<td class="num pen" data-label="Pen.">+5</td>' in html
    assert '<td class="num">DQ</td>' in html and "status-disqualified" in html
    # A tiebreak with no figure for the player (one not reached) is an empty cell, unlabelled: a
    # phone shows no column name with nothing after it.
    empty = str(standings_rows([_line(columns=(("countback", ""), ("most_holes_won", "4")))], 3))
    assert '<td class="num"></td><td class="num" data-label="Most holes won">4</td>' in empty


def test_it_escapes_what_players_typed() -> None:
    html = str(standings_rows([_line(name="<script>x</script>", why_above='"&')], 3))
    assert "<script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html and "&quot;&amp;" in html


@pytest.mark.django_db
def test_it_caches_the_standings_by_version_and_follows_every_change(
    django_capture_on_commit_callbacks,
) -> None:
    tournament = event(8, rounds=2, holes=2)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    tournament.refresh_from_db()
    first = cached_standings(tournament, live=True)
    assert first == compute_standings(tournament, live=True)
    from django.core.cache import cache

    assert cache.get(standings_cache_key(tournament, live=True))  # stored, compressed
    assert cached_standings(tournament, live=True) == first  # read back from the cache
    url = f"/tournaments/{tournament.pk}/standings/"
    before = as_user("dora").get(url).content.decode()
    assert "Incomplete records" not in before
    # A drop moves the version: the page is computed again, not answered from the cache.
    services.drop_entrant(tournament, tournament.entrants.get(name="P01").pk)
    after = as_user("dora").get(url).content.decode()
    assert "Incomplete records" not in after  # round 1 is complete for P01 ...
    assert "status-dropped" in after and "status-dropped" not in before  # ... but the status shows
    # Publishing the next round moves it (R2 appears), and so does each hole: the event's version
    # adds its games' versions, which the hole moves in its own transaction (nothing after the
    # commit has to run: its callbacks are dropped here, as when the connection is cut then).
    services.seat_next_round(tournament)
    services.publish_round(tournament, 2)
    live = as_user("dora").get(url).content.decode()
    # (the column's header, not the letters: a CSRF token can hold "R2")
    assert '<th scope="col">R2 (no hole yet)</th>' in live and "R2 (no hole yet)" not in after
    table = Table.objects.select_related("game").filter(round__tournament=tournament, round__number=2)[0]
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    own, version = Tournament.objects.get(pk=tournament.pk).version, event_version(tournament.pk)
    with django_capture_on_commit_callbacks(execute=False):
        scoring_services.hole_record(
            table.game, entries={n: 40 for n in names}, ender=None, capabilities={"view", "score"}
        )
    assert event_version(tournament.pk) == version + 1
    assert Tournament.objects.get(pk=tournament.pk).version == own  # no tournament row in the hole's write
    scored = as_user("dora").get(url).content.decode()
    # their R2 cell: the round in play's score over the holes every player has played (none yet:
    # the other table has not played) and how far they are; the total's cell repeats how far for a
    # phone's first line (hidden from screen readers, shown on phones only)
    assert scored.count(
        '<td class="num round" data-label="R2 (no hole yet)">0 <span class="thru">thru 1</span></td>'
    ) == len(names)
    assert scored.count('<span class="thru thru-total" aria-hidden="true">thru 1</span></td>') == len(names)


@pytest.mark.django_db
def test_it_computes_the_standings_when_the_cached_entry_is_unreadable() -> None:
    from django.core.cache import cache

    tournament = event(8, rounds=2, holes=2)
    play_round(tournament)
    tournament.refresh_from_db()
    cache.set(standings_cache_key(tournament, live=True), b"not a compressed pickle")
    assert cached_standings(tournament, live=True) == compute_standings(tournament, live=True)


@pytest.mark.django_db
def test_a_late_correction_of_a_finalized_round_reaches_the_cached_standings(
    django_capture_on_commit_callbacks,
) -> None:
    """The finalized rounds' records are kept with the cached table; a correction moves its
    round's version, so the kept records of that round are read again (and only those)."""
    tournament = event(8, rounds=3, holes=2)
    for number in (1, 2):
        play_round(tournament)
        services.finalize_round(tournament, number)
    tournament.refresh_from_db()
    before = cached_standings(tournament, live=True)
    table = Table.objects.select_related("game").filter(round__tournament=tournament, round__number=1)[0]
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.hole_update(
            table.game,
            1,
            expected_version=None,
            entries={n: 30 for n in names},
            ender=None,
            reason="late fix",
        )
    tournament.refresh_from_db()
    after = cached_standings(tournament, live=True)
    assert after == compute_standings(tournament, live=True) != before
    line = next(line for line in after.lines if line.name == names[0])
    assert line.rounds[0] == 30 + by_number(names[0]) + 2  # hole 1 corrected to 30, hole 2 as played
