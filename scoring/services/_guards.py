"""What a managed game refuses, asked of every write under the game's lock.

`capabilities` is what the access policy granted the person asking (`scoring.access`), passed
down by the views; None means the caller is the code itself (the manager's own service calls, a
management command, the admin), which the guards trust. The guards repeat, at the place every
write goes through, what the access decorators already refused: a new entry point cannot forget.
"""

from __future__ import annotations

from collections.abc import Collection

from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_REASON_LENGTH
from scoring.access import managed_refusal_message
from scoring.game_errors import GameError, GameManaged
from scoring.game_managers import NO_MANAGER, HoleChange, manager_of
from scoring.models import Game, Hole
from scoring.rules.errors import Problem

Capabilities = Collection[str] | None


def refuse_unless_manager(game: Game, capabilities: Capabilities, where: str) -> None:
    """Refuse a change of seats, rules, title or the game itself on a managed game without `manage`."""
    if game.managed_by and capabilities is not None and "manage" not in capabilities:
        raise GameManaged(Problem(where, managed_refusal_message(game)))


def check_hole_policy(
    game: Game,
    *,
    action: str,
    number: int,
    playoff: bool,
    capabilities: Capabilities,
    reason: str = "",
) -> str:
    """Ask the game's manager (`GameManager.check_hole_change`) about this change; answer the reason
    to keep (cut to its column). Ordinary games have no manager and cost nothing here."""
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON_LENGTH:
        raise GameError(
            Problem(
                "reason",
                _("The reason is too long (%(max)s characters at most).") % {"max": MAX_REASON_LENGTH},
            )
        )
    manager = manager_of(game)
    if manager is NO_MANAGER or not game.managed_by:  # only a managed game's holes are judged
        return reason
    later = 0
    if action != "record":
        later = Hole.objects.filter(game=game, is_playoff=playoff, number__gt=number).count()
    # Up into the game's manager (a tournament's table rules), under the game's lock.
    manager.check_hole_change(
        HoleChange(
            game_id=game.pk,
            managed_by=game.managed_by,
            hole_number=number,
            playoff=playoff,
            action=action,
            later_holes=later,
            capabilities=frozenset(capabilities) if capabilities is not None else None,
            reason=reason,
        )
    )
    return reason
