"""The event log page names every kind of entry in words (translated), never by its code, and says
who: the staff member logged in, or for a finalized round's correction the name on the change."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import event, play_round
from tournaments import services
from tournaments.models import EventLogEntry, Table
from tournaments.web.selectors import LOG_LABELS

from .conftest import as_user

pytestmark = pytest.mark.django_db


# `log_event(tournament, "kind"` or `log_event(t, "kind" if ... else "other"`
_CALL = r'log_event\(\s*[\w.]+,\s*("[a-z_]+"(?:\s+if [^,]*? else\s+"[a-z_]+")?)'


def _kinds() -> set[str]:
    """Every kind of entry the services log (their `log_event(..., "kind"` calls)."""
    from pathlib import Path

    import tournaments

    root = Path(tournaments.__file__).parent
    found: set[str] = set()
    for path in root.rglob("*.py"):
        text = path.read_text()
        for kind in re.findall(_CALL, text):
            found |= set(re.findall(r'"([a-z_]+)"', kind))
        found |= {f"player_{s}" for s in ("dropped", "withdrawn")} if 'f"player_{status}"' in text else set()
    found.discard("")
    return found


def test_it_has_a_label_for_every_kind_the_services_log() -> None:
    kinds = _kinds()
    assert "finalized_round_corrected" in kinds and "round_finalized" in kinds
    assert kinds <= set(LOG_LABELS), kinds - set(LOG_LABELS)


def test_it_shows_a_finalized_rounds_correction_in_words_with_who(django_capture_on_commit_callbacks) -> None:
    tournament = event(8)
    round_ = play_round(tournament)
    services.finalize_round(tournament, 1)
    table = Table.objects.select_related("game").filter(round=round_).order_by("number").first()
    names = list(table.game.seats.values_list("name", flat=True))
    hole = table.game.holes.get(number=2)
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.hole_update(
            table.game,
            2,
            expected_version=hole.version,
            entries=dict.fromkeys(names, 1),
            ender=None,
            capabilities={"view", "score", "manage"},
            reason="appeal upheld",
            actor="Dora the director",
        )
    assert EventLogEntry.objects.filter(action="finalized_round_corrected").exists()
    page = as_user("dora").get(f"/tournaments/{tournament.pk}/log/").content.decode()
    line = re.search(r"<li>.*?</li>", page[page.index("Finalized round corrected") - 400 :], re.S).group(0)
    assert "Finalized round corrected" in line
    assert ">finalized_round_corrected<" not in page
    assert "Dora the director" in line and "appeal upheld" in line
    assert ">Round finalized<" in page


def test_it_shows_a_drop_in_words() -> None:
    tournament = event(8, rounds=2, holes=2)
    services.drop_entrant(tournament, tournament.entrants.get(name="P08").pk, reason="Left early")
    page = as_user("dora").get(f"/tournaments/{tournament.pk}/log/").content.decode()
    assert ">Player dropped<" in page and ">player_dropped<" not in page
