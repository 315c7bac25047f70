"""The member page's rating chart: server-rendered inline SVG (no JavaScript), readable at 390 px.

The line is the member's rating (ordinal, mu - 3 sigma) before their first counted game and after
each one. The SVG carries a title and a description in words (first, last, lowest and highest);
the page also lists every point in a table for screen readers and for reading exact values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 38, 10, 12, 30


def _ticks(low: float, high: float, wanted: int = 4) -> list[float]:
    """Round values (1, 2, 5 x 10^n steps) spanning [low, high]."""
    span = max(high - low, 1.0)
    raw = span / wanted
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(f * magnitude for f in (1, 2, 5, 10) if raw <= f * magnitude)
    first = math.floor(low / step) * step
    if first > low:  # a value a hair below a tick (a denormal such as -5e-324) divides to -0.0
        first -= step
    ticks = [first]
    while ticks[-1] < high:  # the last tick at or above the highest value, whatever the rounding
        ticks.append(round(ticks[0] + len(ticks) * step, 9))
    return ticks


def rating_chart(ordinals: Sequence[float], *, chart_id: str = "rating") -> SafeString:
    """The ordinal over games: `ordinals[0]` before any game, then after each game. Empty with fewer
    than two points (nothing to draw)."""
    if len(ordinals) < 2:
        return mark_safe("")
    ticks = _ticks(min(ordinals), max(ordinals))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last = len(ordinals) - 1

    def x(i: int) -> float:
        return LEFT + plot_w * i / last

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / ((high - low) or 1)

    parts = [
        f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}"/>'
        f'<text class="tick" x="{LEFT - 4}" y="{y(t) + 4:.1f}" text-anchor="end">{t:g}</text>'
        for t in ticks
    ]
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ordinals))
    parts.append(f'<polyline points="{points}" fill="none" stroke="currentColor" stroke-width="2"/>')
    parts.append(f'<circle cx="{x(last):.1f}" cy="{y(ordinals[-1]):.1f}" r="3.5" fill="currentColor"/>')
    for i in sorted({0, last // 2, last}):
        parts.append(
            f'<text class="tick" x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle">{i}</text>'
        )
    title = _("Rating after each game")
    desc = _("%(games)s games: from %(first).1f to %(last).1f (lowest %(low).1f, highest %(high).1f).") % {
        "games": last,
        "first": ordinals[0],
        "last": ordinals[-1],
        "low": min(ordinals),
        "high": max(ordinals),
    }
    axis = _("games played")
    return mark_safe(  # every text piece is escaped; numbers are formatted here
        f'<svg class="chart rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{chart_id}-title">{escape(title)}</title>'
        f'<desc id="{chart_id}-desc">{escape(desc)}</desc>'
        + "".join(parts)
        + f'<text class="axis" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 2}" text-anchor="middle">'
        f"{escape(axis)}</text></svg>"
    )
