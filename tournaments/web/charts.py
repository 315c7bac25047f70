"""The event's charts, drawn on the server as SVG (no JavaScript), each with a title and a text
description for screen readers, and the numbers in a table next to it on the page:

- a player's cumulative score over the rounds (the live game's chart, by round);
- the distribution of round scores on the results page (a histogram).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.web.games.charts import Series, cumulative_chart

WIDTH, HEIGHT = 360, 200
DASH = "\u2013"  # an en dash between a bin's bounds
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 12, 34


def player_rounds_chart(name: str, totals: Sequence[int]) -> SafeString:
    """`name`'s running total after each round (rounds they played, in order)."""
    running, total = [], 0
    for score in totals:
        total += score
        running.append(total)
    return cumulative_chart(
        [Series(name, running)],
        title=_("%(name)s: total after each round") % {"name": name},
        x_label=_("round"),
    )


def bins_of(scores: Sequence[int], wanted: int = 8) -> list[tuple[int, int, int]]:
    """`scores` counted in about `wanted` equal bins: (low, high inclusive, how many)."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    width = max(1, math.ceil((high - low + 1) / wanted))
    counts = Counter((score - low) // width for score in scores)
    return [
        (low + i * width, low + (i + 1) * width - 1, counts.get(i, 0))
        for i in range((high - low) // width + 1)
    ]


def distribution_chart(scores: Sequence[int]) -> SafeString:
    """A histogram of round scores (each player's score in each round played)."""
    bins = bins_of(scores)
    if not bins:
        return mark_safe("")
    most = max(count for _l, _h, count in bins)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bar_w = plot_w / len(bins)
    parts = []
    for i, (low, high, count) in enumerate(bins):
        h = plot_h * count / most
        x, y = LEFT + i * bar_w, TOP + plot_h - h
        label = f"{low}" if low == high else f"{low}{DASH}{high}"
        parts.append(
            f'<g class="bar"><title>{escape(label)}: {count}</title>'
            f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bar_w - 2:.1f}" height="{h:.1f}" '
            'fill="currentColor"/>'
            f'<text x="{x + bar_w / 2:.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle" class="tick">'
            f"{escape(label)}</text></g>"
        )
    parts.append(f'<text x="{LEFT - 4}" y="{TOP + 4}" text-anchor="end" class="tick">{most}</text>')
    parts.append(f'<text x="{LEFT - 4}" y="{TOP + plot_h + 4}" text-anchor="end" class="tick">0</text>')
    desc = "; ".join(f"{low}{DASH}{high}: {count}" for low, high, count in bins)
    title = _("Round scores: how many of each")
    return mark_safe(  # every text piece is escaped
        f'<svg class="chart distribution" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="dist-title dist-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="dist-title">{escape(title)}</title><desc id="dist-desc">{escape(desc)}</desc>'
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 2}" text-anchor="middle" class="axis">'
        f"{escape(_('round score'))}</text>" + "".join(parts) + "</svg>"
    )
