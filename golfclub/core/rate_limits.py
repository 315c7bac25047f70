"""Rate limits on writes: game, tournament and club creation per client address, hole writes per game link.

The counters live in the shared cache (the database cache table, or Redis with REDIS_URL), so they
hold across gunicorn workers and machines. django-ratelimit counts fixed windows; each setting is one
or more "count/period" rates separated by commas, all of which must hold:

RATELIMIT_GAME_CREATE  "20/m,200/h" per client address: POST /games/new/ and POST /api/v1/games/.
RATELIMIT_TOURNAMENT_CREATE  "10/m,60/h" per client address: POST /tournaments/new/ and
                       POST /api/v1/tournaments/ (a director creates a few events; a loop is abuse).
RATELIMIT_CLUB_CREATE  "10/m,60/h" per client address: POST /clubs/ and POST /api/v1/clubs/
                       (an owner creates a club or two; a loop is abuse).
RATELIMIT_HOLE_WRITES  "60/m,600/h" per game link: every POST/PUT/PATCH/DELETE on a game's holes,
                       playoff holes and entries, undo and redo, on pages and in the API.

A family scores a hole every few minutes and a correction now and then, far below either; a
director's script creating a room's tables at once gets 20 a minute and a Retry-After to wait for.

Over a limit the answer is 429 with Retry-After (seconds until the window resets): in the API's
error shape under /api/, else a small page. The views are wrapped in the URL modules, so view code
does not know about limits. Login lockouts (django-axes) answer through `lockout_response`.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

# django-ratelimit's own key and window functions, so that its `get_usage` reads our counters.
from django_ratelimit.core import EXPIRATION_FUDGE, _get_window, _make_cache_key, _split_rate

from golfclub.core.client_ip import ratelimit_key
from golfclub.core.errors import error_response

View = Callable[..., HttpResponse]
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def _rates(setting: str) -> list[str]:
    """The rates a setting holds: "60/m,600/h" -> ["60/m", "600/h"]; empty means unlimited."""
    return [rate.strip() for rate in str(getattr(settings, setting, "")).split(",") if rate.strip()]


def _token_key(group: str, request: HttpRequest) -> str:
    """django-ratelimit key: the game's link token from the URL (hashed into the cache key)."""
    match = request.resolver_match
    return str(match.kwargs.get("token", "")) if match else ""


def _retry_later(request: HttpRequest, seconds: int, *, title: str, message: str) -> HttpResponse:
    """429 saying `message`, with Retry-After: `seconds` (JSON under /api/, else a page)."""
    return error_response(request, 429, title=title, message=message, headers={"Retry-After": str(seconds)})


def too_many_requests(request: HttpRequest, retry_after: int, *, what: str = "") -> HttpResponse:
    """429 with Retry-After: JSON in the API's error shape under /api/, else a page. `what` says
    what was done too often ("Too many tournaments created from here."), before when to retry."""
    retry_after = max(1, int(retry_after))
    message = _("Too many requests. Try again in %(seconds)d seconds.") % {"seconds": retry_after}
    if what:
        message = f"{what} {message}"
    return _retry_later(request, retry_after, title=_("Slow down"), message=message)


def _over_limit(request: HttpRequest, group: str, setting: str, key: Callable[..., str]) -> int | None:
    """Count this request against every rate of `setting`; the seconds to wait if any is exceeded.

    Counted as django-ratelimit counts (the same cache keys, fixed windows, `get_usage` reads them),
    but every rate's counter in one call of the cache's `count_hits` where it has one
    (golfclub/cache.py: one statement on the database cache, one round trip to Redis): with
    django-ratelimit's `add` then `incr` per rate, counting was most of what a recorded hole cost
    over its own work (docs/performance.md, issue 21 item 4).
    """
    rates = _rates(setting)
    if not rates or not getattr(settings, "RATELIMIT_ENABLE", True):
        return None
    windows: dict[str, tuple[int, int]] = {}  # cache key: (limit, end of its window)
    timeouts: dict[str, int] = {}
    for rate in rates:
        # One counter per rate: the group names the rate so "20/m" and "200/h" count separately.
        named = f"{group}:{rate}"
        value = key(named, request)
        limit, period = _split_rate(rate)
        window = _get_window(value, period)
        cache_key = _make_cache_key(named, window, rate, value, WRITE_METHODS)
        windows[cache_key] = (limit, window)
        timeouts[cache_key] = period + EXPIRATION_FUDGE
    cache = caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")]
    count_hits = getattr(cache, "count_hits", None)
    counts = count_hits(timeouts) if count_hits else count_hits_one_by_one(cache, timeouts)
    wait: int | None = None
    now = int(time.time())
    for cache_key, (limit, window) in windows.items():
        count = counts.get(cache_key)
        if count is None and getattr(settings, "RATELIMIT_FAIL_OPEN", False):
            continue
        if count is None or count > limit:  # not counted: refused, as django-ratelimit does
            wait = max(wait or 0, window - now)
    return wait


def count_hits_one_by_one(
    cache: Any, timeouts: Mapping[str, int], version: int | None = None
) -> dict[str, int | None]:
    """One more hit on each counter with any Django cache: `add` at 1, else `incr` (as django-ratelimit
    does, two round trips a counter); None for a counter that could not be counted."""
    counted: dict[str, int | None] = {}
    for cache_key, timeout in timeouts.items():
        if cache.add(cache_key, 1, timeout, version=version):
            counted[cache_key] = 1
            continue
        try:
            counted[cache_key] = cache.incr(cache_key, version=version)
        except ValueError:
            counted[cache_key] = None
    return counted


def limited(
    group: str, setting: str, key: Callable[..., str], *, what: Callable[[], str] | None = None
) -> Callable[[View], View]:
    """Decorator: answer 429 instead of calling the view when a write is over the limit (`what`,
    called at answer time so it is translated, says what was done too often)."""

    def decorator(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in WRITE_METHODS:
                wait = _over_limit(request, group, setting, key)
                if wait is not None:
                    return too_many_requests(request, wait, what=what() if what else "")
            return view(request, *args, **kwargs)

        # Read by the OpenAPI schema (`scoring.api.limit_answers`): this view's writes may answer 429.
        wrapped.rate_limited = group  # type: ignore[attr-defined]
        return wrapped

    return decorator


#: Game creation, counted per client address (golfclub/core/client_ip.py).
limit_game_creation = limited("game-create", "RATELIMIT_GAME_CREATE", ratelimit_key)
#: Tournament creation, counted per client address (the page and the API share the counter).
limit_tournament_creation = limited(
    "tournament-create",
    "RATELIMIT_TOURNAMENT_CREATE",
    ratelimit_key,
    what=lambda: _("Too many tournaments created from here."),
)
#: Club creation, counted per client address (the page and the API share the counter).
limit_club_creation = limited(
    "club-create",
    "RATELIMIT_CLUB_CREATE",
    ratelimit_key,
    what=lambda: _("Too many clubs created from here."),
)
#: Hole writes, undo and redo, counted per game link (pages and API share the counter of a link).
limit_hole_writes = limited("hole-writes", "RATELIMIT_HOLE_WRITES", _token_key)


def lockout_response(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """django-axes' AXES_LOCKOUT_CALLABLE: 429 with Retry-After, the page saying when to try again."""
    cool_off = getattr(settings, "AXES_COOLOFF_TIME", None)
    seconds = int(cool_off.total_seconds()) if cool_off else 3600
    minutes = max(1, round(seconds / 60))
    message = _(
        "Too many wrong passwords from here: logging in is paused for %(minutes)d minutes, "
        "even with the right password. Try again after that."
    ) % {"minutes": minutes}
    return _retry_later(request, seconds, title=_("Logging in is paused"), message=message)
