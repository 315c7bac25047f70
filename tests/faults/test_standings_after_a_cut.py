"""Issue 31, item 2: the standings never go stale, even when the database connection is cut right
after a hole commits.

The hole is written and committed by `scoring`; then the connection is killed
(`pg_terminate_backend`) before anything that runs after the commit (Django's on-commit hooks,
where `scoring`'s signals go out). Before the fix, the tournament's versions were bumped there, by
a receiver whose failure was only logged: the hole was saved, yet the public leaderboard answered
304 to the ETag read before it, and the standings (page and API, cached by version) showed the
totals before it until the round was finalized. Now whatever they serve follows from what is
committed: the leaderboard's ETag moved, and the standings equal a recomputation from the entries.

In-process on the real PostgreSQL (transaction=True: the hole's transaction really commits, the
connection really dies), reads through the pages and the API as a phone, a director and the hall
would make them.
"""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Callable, Iterator

import pytest
from django.db import OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from rest_framework.test import APIClient

from scoring import services as scoring_services
from scoring.models import Game
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.errors import WrongState
from tournaments.models import EventLogEntry, Table, Tournament
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cut_after_commit(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Once armed (append anything to the list it yields), the next commit is followed at once by
    the death of the connection's backend: everything after the commit meets a dead connection."""
    if connection.vendor != "postgresql":
        pytest.skip("the cut ends a PostgreSQL backend (pg_terminate_backend): PostgreSQL only (as in CI)")
    armed: list[int] = []
    original = BaseDatabaseWrapper.run_and_clear_commit_hooks

    def cut_then_run_hooks(self: BaseDatabaseWrapper) -> None:
        if armed and self.vendor == "postgresql":
            armed.clear()
            try:
                with self.cursor() as cursor:
                    cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
            except OperationalError:
                pass  # the backend is gone: what the cut is for
        original(self)

    monkeypatch.setattr(BaseDatabaseWrapper, "run_and_clear_commit_hooks", cut_then_run_hooks)
    yield armed


def _record_hole(game: Game, hole: int) -> None:
    names = list(game.seats.order_by("seat").values_list("name", flat=True))
    entries = {name: (int(name[1:]) * 3 + hole) % 11 for name in names}
    scoring_services.hole_record(game, entries=entries, ender=None, capabilities={"view", "score"})


def _cut_after_commit(armed: list[int], write: Callable[[], object]) -> None:
    """Run `write` with the connection cut right after its commit; then reconnect, as a request's
    end does with a connection left unusable."""
    armed.append(1)
    with contextlib.suppress(OperationalError):  # whatever ran after the commit met the dead connection
        write()
    assert not armed, "the cut did not happen"
    connection.close_if_unusable_or_obsolete()
    connection.close()


def test_the_standings_follow_a_hole_whose_connection_was_cut_after_its_commit(cut_after_commit) -> None:
    tournament = event(8, rounds=2, holes=3, standings_release="live", public=True)
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    tables = list(
        Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")
    )
    for table in tables:
        _record_hole(table.game, 1)
    public, director = Client(), APIClient()
    director.force_login(user("dora"))
    staff_page = Client()
    staff_page.force_login(user("dora"))
    board_url = f"/tournaments/{tournament.pk}/public/leaderboard/"
    panels_url = f"/tournaments/{tournament.pk}/projector/panels/"
    board = public.get(board_url)
    panels = public.get(panels_url)
    assert board.status_code == panels.status_code == 200
    old_board, old_panels = board["ETag"], panels["ETag"]
    assert public.get(board_url, HTTP_IF_NONE_MATCH=old_board).status_code == 304  # (the 304 works)
    before = director.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["standings"]
    assert staff_page.get(f"/tournaments/{tournament.pk}/standings/").status_code == 200  # cached now

    _cut_after_commit(cut_after_commit, lambda: _record_hole(tables[0].game, 2))

    game = Game.objects.get(pk=tables[0].game_id)
    assert game.holes.count() == 2  # the hole was saved whole
    tournament = Tournament.objects.get(pk=tournament.pk)
    fresh = [line.to_api() for line in compute_standings(tournament, live=True).lines]
    assert fresh != before  # the hole changes the standings
    # The public leaderboard and the projector no longer answer 304 to what was read before.
    board = public.get(board_url, HTTP_IF_NONE_MATCH=old_board)
    assert board.status_code == 200 and board["ETag"] != old_board
    panels = public.get(panels_url, HTTP_IF_NONE_MATCH=old_panels)
    assert panels.status_code == 200 and panels["ETag"] != old_panels
    # The API's standings equal a recomputation from the entries.
    answered = director.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["standings"]
    assert answered == fresh
    # So does the standings page: every player in the recomputed order, with the recomputed total.
    page = html.unescape(staff_page.get(f"/tournaments/{tournament.pk}/standings/").content.decode())
    at = [page.index(f">{line['player']['name']}<") for line in fresh]
    assert at == sorted(at)
    for line, start in zip(fresh, at, strict=True):
        row = page[start : page.index("</tr>", start)]
        total = re.search(r'<td class="num total">(-?\d+)', row)
        assert total is not None and int(total.group(1)) == line["total"], (line, row)


def _correct_last_hole(table: Table, capabilities: set[str], reason: str = "") -> None:
    game = Game.objects.get(pk=table.game_id)
    hole = game.holes.get(number=2)
    names = list(game.seats.order_by("seat").values_list("name", flat=True))
    scoring_services.hole_update(
        game,
        2,
        expected_version=hole.version,
        entries={name: 10 for name in names},
        ender=None,
        capabilities=capabilities,
        reason=reason,
        actor="Dora",
    )


def test_a_correction_cut_after_its_commit_unconfirms_and_a_finalized_ones_is_logged(
    cut_after_commit,
) -> None:
    tournament = event(8, rounds=2, holes=2, standings_release="live", public=True)
    round_ = play_round(tournament)  # every table played and confirmed
    table = Table.objects.filter(round=round_).order_by("number").first()
    director = APIClient()
    director.force_login(user("dora"))
    round_url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/"
    standings_url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    old_round = director.get(round_url)
    assert old_round.json()["tables"][0]["confirmed"] is True
    director.get(standings_url)  # cached

    # At the table, while the round is in play.
    _cut_after_commit(cut_after_commit, lambda: _correct_last_hole(table, {"view", "score"}))

    # The confirmation was of the scorecard before the correction: it no longer holds.
    answer = director.get(round_url, HTTP_IF_NONE_MATCH=old_round["ETag"])
    assert answer.status_code == 200
    first = answer.json()["tables"][0]
    assert (first["number"], first["confirmed"], first["confirmed_by"]) == (table.number, False, None)
    tournament = Tournament.objects.get(pk=tournament.pk)
    fresh = [line.to_api() for line in compute_standings(tournament, live=True).lines]
    assert director.get(standings_url).json()["standings"] == fresh
    with pytest.raises(WrongState, match="not confirmed"):
        services.finalize_round(tournament, 1)
    names = list(Game.objects.get(pk=table.game_id).seats.order_by("seat").values_list("name", flat=True))
    services.confirm_table(Game.objects.get(pk=table.game_id), names[0])
    services.finalize_round(tournament, 1)

    # A director's correction of the finalized round, cut after its commit: logged with it.
    manage = {"view", "score", "manage"}
    _cut_after_commit(cut_after_commit, lambda: _correct_last_hole(table, manage, reason="appeal upheld"))
    entry = EventLogEntry.objects.get(tournament=tournament, action="finalized_round_corrected")
    assert (entry.reason, entry.details["table"], entry.details["hole"]) == ("appeal upheld", table.number, 2)
    assert director.get(round_url).json()["tables"][0]["confirmed"] is True  # a finalized round keeps it
    tournament = Tournament.objects.get(pk=tournament.pk)
    fresh = [line.to_api() for line in compute_standings(tournament, live=True).lines]
    assert director.get(standings_url).json()["standings"] == fresh
