"""A table's paper slip typed into its game by the staff (issue 19, item 12): the holes recorded
as typed, who typed them "from the paper slip" in the game's history and the event's log, the
phone's holes compared and never overwritten silently, a gap or a half-typed hole refused with a
message, a round not in play refused, the staff's only; the table's link keeps working and the
table confirms as usual."""

from __future__ import annotations

import pytest

from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import GameChange
from tests.tournaments.web.conftest import as_user, staffed_event
from tournaments import services
from tournaments.models import EventLogEntry, Table
from tournaments.services.paper_slips import SlipConflicts, SlipRow, enter_paper_slip

pytestmark = pytest.mark.django_db


def _names(table: Table) -> list[str]:
    return list(table.game.seats.order_by("seat").values_list("name", flat=True))


def _scores(table: Table) -> dict[int, dict[str, int]]:
    board = scoring_selectors.scoreboard(Table.objects.get(pk=table.pk).game)
    return {hole.number: {e.name: e.score for e in hole.entries} for hole in board.holes}


def _url(ev, table: Table) -> str:
    return f"/tournaments/{ev.tournament.pk}/tables/{table.pk}/paper-slip/"


def _form(names: list[str], holes: dict[int, list[int]], versions: dict[int, int] | None = None, **extra):
    data = {f"h{n}-p{i}": str(score) for n, scores in holes.items() for i, score in enumerate(scores)}
    data.update({f"h{n}-version": str(v) for n, v in (versions or {}).items()})
    data.update(extra)
    return data


def _phone_records(table: Table, scores: list[int]) -> None:
    scoring_services.hole_record(
        table.game, entries=dict(zip(_names(table), scores, strict=True)), ender=None, capabilities={"score"}
    )


def test_the_service_records_the_slips_holes_as_typed_by_the_staff() -> None:
    ev = staffed_event()
    names = _names(ev.table)
    rows = [
        SlipRow(1, dict(zip(names, [5, 7, -2, 0], strict=True))),
        SlipRow(2, dict(zip(names, [3, 3, 4, 9], strict=True))),
    ]
    done = enter_paper_slip(
        ev.table, rows, actor_text="dora (director), from the paper slip", capabilities=None
    )
    assert done.recorded == [1, 2] and done.corrected == []
    assert _scores(ev.table) == {
        1: dict(zip(names, [5, 7, -2, 0], strict=True)),
        2: dict(zip(names, [3, 3, 4, 9], strict=True)),
    }
    actors = set(GameChange.objects.filter(game=ev.table.game).values_list("actor", flat=True))
    assert actors == {"dora (director), from the paper slip"}
    entry = EventLogEntry.objects.get(tournament=ev.tournament, action="paper_slip_entered")
    holes = {str(h.number): [h.id, h.version] for h in scoring_selectors.scoreboard(ev.table.game).holes}
    assert entry.details == {
        "table": ev.table.number,
        "recorded": [1, 2],
        "corrected": [],
        "hole_versions": holes,
    }


def test_the_page_shows_the_grid_and_saves_every_hole_at_once_as_entered_by_staff() -> None:
    ev = staffed_event()
    names = _names(ev.table)
    client = as_user("olive")  # an official: staff of the event
    page = client.get(_url(ev, ev.table)).content.decode()
    assert "Type in table" in page and all(name in page for name in names)
    assert 'name="h1-p0"' in page and 'name="h2-p3"' in page and 'name="h3-p0"' not in page  # 2 holes
    answer = client.post(_url(ev, ev.table), _form(names, {1: [1, 2, 3, 4], 2: [4, 3, 2, 1]}))
    assert answer.status_code == 302
    assert _scores(ev.table)[2] == dict(zip(names, [4, 3, 2, 1], strict=True))
    history = client.get(f"/games/e/{ev.table.game.edit_token}/history/").content.decode()
    assert "olive (official), from the paper slip" in history
    log = as_user("dora").get(f"/tournaments/{ev.tournament.pk}/log/").content.decode()
    assert "Paper slip typed in" in log and "olive" in log
    # The table's link keeps working, and the table confirms as usual.
    assert as_user(None).get(f"/tournaments/table/{ev.table.game.edit_token}/").status_code == 200
    services.confirm_table(Table.objects.get(pk=ev.table.pk).game, names[0])
    assert Table.objects.get(pk=ev.table.pk).is_confirmed


def test_a_hole_the_phone_has_with_other_scores_is_shown_and_kept_until_replace_is_ticked() -> None:
    ev = staffed_event()
    names = _names(ev.table)
    _phone_records(ev.table, [1, 1, 1, 1])
    client = as_user("dora")
    page = client.get(_url(ev, ev.table)).content.decode()
    assert 'name="h1-version" value="1"' in page and 'name="h1-p0" value="1"' in page  # the phone's hole
    slip = _form(names, {1: [1, 1, 1, 9], 2: [2, 2, 2, 2]}, {1: 1})
    answer = client.post(_url(ev, ev.table), slip)
    assert answer.status_code == 409
    text = answer.content.decode()
    assert "the phone has other scores than the slip" in text and 'id="conflict-1"' in text
    assert _scores(ev.table) == {1: dict.fromkeys(names, 1)}  # nothing written, hole 2 neither
    answer = client.post(_url(ev, ev.table), {**slip, "replace": "on"})
    assert answer.status_code == 302
    assert _scores(ev.table) == {1: dict(zip(names, [1, 1, 1, 9], strict=True)), 2: dict.fromkeys(names, 2)}
    change = GameChange.objects.get(game=ev.table.game, action="update")
    assert (
        change.reason == "Typed in from the paper slip"
        and change.actor == "dora (director), from the paper slip"
    )


def test_a_hole_the_phone_saved_while_the_staff_typed_is_a_conflict_not_an_overwrite() -> None:
    ev = staffed_event()
    names = _names(ev.table)
    client = as_user("dora")
    client.get(_url(ev, ev.table))  # the page read with no hole recorded
    _phone_records(ev.table, [6, 6, 6, 6])  # meanwhile, the phone comes back to life
    answer = client.post(_url(ev, ev.table), _form(names, {1: [5, 5, 5, 5]}))
    assert answer.status_code == 409
    assert "was saved or changed by the table" in answer.content.decode()
    assert _scores(ev.table) == {1: dict.fromkeys(names, 6)}
    # The same scores as the phone: nothing to do, nothing refused.
    assert enter_paper_slip(ev.table, [SlipRow(1, dict.fromkeys(names, 6))]).recorded == []
    with pytest.raises(SlipConflicts):
        enter_paper_slip(ev.table, [SlipRow(1, dict.fromkeys(names, 5), seen_version=None)], replace=True)


@pytest.mark.parametrize(
    ("holes", "message"),
    [
        ({2: [1, 2, 3, 4]}, "Hole 1 is blank: type the holes in order"),
        ({1: [1, 2, "", 4]}, "type a score for every player, or leave the whole hole blank"),
        ({1: [1, 2, "x", 4]}, "Hole 1, "),
        ({1: [1, 2, 99999, 4]}, "Hole 1, "),
    ],
)
def test_bad_slips_are_refused_with_a_message_and_nothing_written(holes, message) -> None:
    ev = staffed_event()
    names = _names(ev.table)
    answer = as_user("cora").post(_url(ev, ev.table), _form(names, holes))
    assert answer.status_code == 400
    assert message in answer.content.decode()
    assert _scores(ev.table) == {} and not EventLogEntry.objects.filter(action="paper_slip_entered").exists()


def test_a_round_not_published_or_finalized_refuses_the_slip() -> None:
    seated = staffed_event(publish=False)
    names = _names(seated.table)
    answer = as_user("dora").post(_url(seated, seated.table), _form(names, {1: [1, 2, 3, 4]}))
    assert answer.status_code == 409 and "not published yet" in answer.content.decode()
    ev = staffed_event()
    for table in (ev.table, ev.other_table):
        for _hole in (1, 2):
            _phone_records(table, [1, 2, 3, 4])
        services.confirm_table(Table.objects.get(pk=table.pk).game, _names(table)[0])
    services.finalize_round(ev.tournament, 1)
    answer = as_user("dora").post(_url(ev, ev.table), _form(names, {1: [9, 9, 9, 9]}, {1: 1}, replace="on"))
    assert answer.status_code == 409 and "is finalized" in answer.content.decode()


@pytest.mark.parametrize(
    ("persona", "status"), [("dora", 200), ("cora", 200), ("olive", 200), ("sam", 403), (None, 302)]
)
def test_only_the_events_staff_may_type_a_slip(persona, status) -> None:
    ev = staffed_event()
    assert as_user(persona).get(_url(ev, ev.table)).status_code == status
    answer = as_user(persona).post(_url(ev, ev.table), _form(_names(ev.table), {1: [1, 2, 3, 4]}))
    assert answer.status_code == (302 if status == 200 else status)
    assert bool(_scores(ev.table)) is (status == 200)


def test_a_table_of_another_event_is_a_404_and_the_dashboard_links_each_table() -> None:
    ev = staffed_event()
    other = staffed_event()
    assert as_user("dora").get(_url(ev, other.table)).status_code == 404
    dashboard = as_user("olive").get(ev.url).content.decode()
    assert f'href="{_url(ev, ev.table)}"' in dashboard and "Type in the paper slip" in dashboard


def test_the_page_reads_a_fixed_number_of_queries(django_assert_max_num_queries) -> None:
    ev = staffed_event()
    client = as_user("dora")
    client.get(ev.url)
    with django_assert_max_num_queries(12):
        assert client.get(_url(ev, ev.table)).status_code == 200


def _labels(page: str) -> dict[int, str]:
    """Each recorded hole's row label on the slip page: where its scores came from."""
    import re

    return {
        int(n): label
        for n, label in re.findall(
            r'<th scope="row">(\d+)<input[^>]*> <span class="sub">([^<]+)</span>', page
        )
    }


def test_each_recorded_hole_says_whether_the_phone_or_the_paper_slip_gave_its_scores() -> None:
    """Holes typed from the slip were labelled "phone" (every recorded hole was): the label follows
    the hole as it is now, the slip's until the phone changes it."""
    ev = staffed_event()
    names = _names(ev.table)
    client = as_user("olive")
    _phone_records(ev.table, [1, 1, 1, 1])
    assert _labels(client.get(_url(ev, ev.table)).content.decode()) == {1: "phone"}
    assert (
        client.post(_url(ev, ev.table), _form(names, {1: [1, 1, 1, 1], 2: [4, 3, 2, 1]}, {1: 1})).status_code
        == 302
    )
    assert _labels(client.get(_url(ev, ev.table)).content.decode()) == {1: "phone", 2: "paper slip"}
    replaced = _form(names, {1: [2, 2, 2, 2], 2: [4, 3, 2, 1]}, {1: 1, 2: 1}, replace="on")
    assert client.post(_url(ev, ev.table), replaced).status_code == 302
    assert _labels(client.get(_url(ev, ev.table)).content.decode()) == {1: "paper slip", 2: "paper slip"}
    game = Table.objects.get(pk=ev.table.pk).game
    hole = scoring_selectors.scoreboard(game).holes[1]
    scoring_services.hole_update(
        game,
        2,
        expected_version=hole.version,
        expected_id=hole.id,
        entries=dict(zip(names, [0, 0, 0, 0], strict=True)),
        ender=None,
        capabilities={"score", "correct"},
    )
    assert _labels(client.get(_url(ev, ev.table)).content.decode()) == {1: "paper slip", 2: "phone"}
    log = as_user("dora").get(f"/tournaments/{ev.tournament.pk}/log/").content.decode()
    assert "hole_versions" not in log
