"""A phone and the staff saving the same hole of a table at the same moment, each in its own
thread on its own PostgreSQL connection: exactly one is written, the other is refused with a
message saying so; nothing is half written. Skipped on SQLite."""

from __future__ import annotations

from scoring import services as scoring_services
from scoring.game_errors import HoleAlreadyRecorded
from scoring.models import Hole
from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once
from tests.tournaments.web.conftest import staffed_event
from tournaments.models import EventLogEntry
from tournaments.services.paper_slips import SlipConflicts, SlipRow, enter_paper_slip

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def test_a_phone_and_the_staff_saving_hole_1_at_once_keep_one_and_refuse_the_other_with_a_message() -> None:
    for _attempt in range(3):  # either may win the lock: both orders answer as they should
        ev = staffed_event()
        names = list(ev.table.game.seats.order_by("seat").values_list("name", flat=True))
        token = ev.table.game.edit_token

        def phone(token: str = token, names: list[str] = names):
            return scoring_services.hole_record_by_edit_token(
                token, entries=dict.fromkeys(names, 6), ender=None, expected_number=1, capabilities={"score"}
            )

        def staff(table=ev.table, names: list[str] = names):
            return enter_paper_slip(
                table,
                [SlipRow(1, dict.fromkeys(names, 5)), SlipRow(2, dict.fromkeys(names, 4))],
                actor_text="dora (director), from the paper slip",
            )

        phone_result, staff_result = at_once(phone, staff)
        holes = list(
            Hole.objects.filter(game=ev.table.game).order_by("number").values_list("number", "created_by")
        )
        if isinstance(staff_result, SlipConflicts):  # the phone first: the slip refused whole
            assert not isinstance(phone_result, Exception)
            assert holes == [(1, "")]
            assert "Hole 1 was saved or changed by the table's phone" in staff_result.problems[0].message
            assert not EventLogEntry.objects.filter(
                tournament=ev.tournament, action="paper_slip_entered"
            ).exists()
        else:  # the staff first: the phone told its hole was just saved by someone else
            assert isinstance(phone_result, HoleAlreadyRecorded), phone_result
            assert "was just saved by someone else" in phone_result.problems[0].message
            assert staff_result.recorded == [1, 2]
            assert holes == [
                (1, "dora (director), from the paper slip"),
                (2, "dora (director), from the paper slip"),
            ]
