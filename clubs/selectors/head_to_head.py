"""Head-to-head: how a member did against every member they met, and their rival and nemesis.

Two members met in every counted game they both have a result in (SPEC "Head-to-head"). From the
member's side: `ahead` counts the games they finished ahead of the other (a better, i.e. lower,
place), `behind` those the other finished ahead, `tied` those with the same place.

- **Rival**: the member who finished ahead of them most often (most `behind` games; ties broken by
  more shared games, then by name).
- **Nemesis**: the member who beats them most reliably: the highest share of shared games finished
  ahead of them (`behind / games`), among those who finished ahead of them more often than behind
  (ties broken by more shared games, then by name). There may be none.

Both only count opponents met in at least `MIN_SHARED_GAMES` games; below it the page hides them.
One query: a self-join of `MemberResult` on the game, grouped by the other member.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from clubs.models import Member, MemberResult

MIN_SHARED_GAMES = 3

_HEAD_TO_HEAD_SQL = """
SELECT other.member_id, m.name,
       COUNT(*) AS games,
       COUNT(*) FILTER (WHERE mine.place < other.place) AS ahead,
       COUNT(*) FILTER (WHERE mine.place > other.place) AS behind,
       COUNT(*) FILTER (WHERE mine.place = other.place) AS tied
FROM {results} AS mine
JOIN {results} AS other ON other.game_id = mine.game_id AND other.member_id <> mine.member_id
JOIN {members} AS m ON m.id = other.member_id
WHERE mine.member_id = %s
GROUP BY other.member_id, m.name, m.name_key
ORDER BY games DESC, m.name_key, other.member_id
"""


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """A member's record against one other member."""

    member_id: int
    name: str
    games: int
    ahead: int
    behind: int
    tied: int


def head_to_head(member: Member) -> list[HeadToHead]:
    """`member` against every member they met, most shared games first (then by name). One query."""
    sql = _HEAD_TO_HEAD_SQL.format(
        results=connection.ops.quote_name(MemberResult._meta.db_table),
        members=connection.ops.quote_name(Member._meta.db_table),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [member.pk])
        return [HeadToHead(*row) for row in cursor.fetchall()]


def _qualified(records: list[HeadToHead]) -> list[HeadToHead]:
    return [r for r in records if r.games >= MIN_SHARED_GAMES]


def rival_of(records: list[HeadToHead]) -> HeadToHead | None:
    """The opponent who finished ahead most often (>= `MIN_SHARED_GAMES` shared games, at least one
    game ahead), or None."""
    candidates = [r for r in _qualified(records) if r.behind > 0]
    if not candidates:
        return None
    return min(candidates, key=lambda r: (-r.behind, -r.games, r.name.casefold(), r.member_id))


def nemesis_of(records: list[HeadToHead]) -> HeadToHead | None:
    """The opponent with the highest share of shared games finished ahead, among those ahead more
    often than behind (>= `MIN_SHARED_GAMES` shared games), or None."""
    candidates = [r for r in _qualified(records) if r.behind > r.ahead]
    if not candidates:
        return None
    return min(candidates, key=lambda r: (-r.behind / r.games, -r.games, r.name.casefold(), r.member_id))
