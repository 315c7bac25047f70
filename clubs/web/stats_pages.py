"""What the clubs' read-only pages know of their club: `ClubPage`, the grant of their one access
call (by id, `club_for_user`: owners, anyone for a public club; or by a public club's read-only
link, `club_by_public_token`: `/clubs/p/<token>/...`) and how their links are made. A club, member
or season the person may not see is a 404 (`NotFoundInClub`, answered as the site's 404 page)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from clubs.access import ClubGrant


@dataclass(frozen=True, slots=True)
class ClubPage:
    """The club a page shows, what the person may do, and how its links are made (the public link
    keeps its visitors on public URLs)."""

    grant: ClubGrant
    token: str | None = None  # the public link's token when reached by it

    @property
    def club(self) -> Any:
        """The club."""
        return self.grant.club

    @property
    def can_manage(self) -> bool:
        """Owners see the links to manage the club and start a game (never on the public link)."""
        return self.grant.can_manage and self.token is None

    def url(self, name: str, *args: Any) -> str:
        """The URL of the club's page `name` ("club", "season", "member"), public when reached so.
        A member's page is always the club's page's URL + `members/<id>/` (the templates rely on it)."""
        if self.token is not None:
            return reverse(f"clubs:public-{name}", args=[self.token, *args])
        return reverse(f"clubs:{name}", args=[self.club.pk, *args])
