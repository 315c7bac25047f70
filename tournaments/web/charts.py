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


#: The bins' labels (`.chart .tick`, 11px): the widest a character of them draws, with room to spare
#: (digits and the en dash are about 0.56 em; the estimate is 0.64 em), and the gap between labels.
TICK_FONT = 11
TICK_CHAR = 0.64 * TICK_FONT
TICK_GAP = 6


def bin_label(low: int, high: int) -> str:
    """A bin's label: its one score, or its bounds joined by an en dash."""
    return f"{low}" if low == high else f"{low}{DASH}{high}"


def tick_positions(
    labels: Sequence[str], *, left: float, plot_w: float, width: float
) -> list[tuple[float, str]]:
    """Where the bins' labels go (centre x, text) under bars of equal width across `plot_w` from
    `left`: every bin's when they fit side by side, else every second, third... bin's (the same
    step throughout, the first bin's always), each kept inside the chart's `width`. Labels left
    out are in each bar's tooltip and in the table beside the chart."""
    if not labels:
        return []
    bar_w = plot_w / len(labels)
    widest = max(len(label) for label in labels) * TICK_CHAR
    step = max(1, math.ceil((widest + TICK_GAP) / bar_w))
    shown: list[tuple[float, str]] = []
    end = -math.inf  # the right edge of the last label placed
    for i in range(0, len(labels), step):
        half = len(labels[i]) * TICK_CHAR / 2
        x = min(max(left + (i + 0.5) * bar_w, half), width - half)  # never cut at an edge
        if x - half >= end + TICK_GAP:  # the last one, pushed in from the edge, may not fit
            shown.append((x, labels[i]))
            end = x + half
    return shown


def distribution_chart(scores: Sequence[int], width: int = WIDTH) -> SafeString:
    """A histogram of round scores (each player's score in each round played)."""
    bins = bins_of(scores)
    if not bins:
        return mark_safe("")
    most = max(count for _l, _h, count in bins)
    plot_w, plot_h = width - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bar_w = plot_w / len(bins)
    parts = []
    for i, (low, high, count) in enumerate(bins):
        h = plot_h * count / most
        x, y = LEFT + i * bar_w, TOP + plot_h - h
        parts.append(
            f'<g class="bar"><title>{escape(bin_label(low, high))}: {count}</title>'
            f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bar_w - 2:.1f}" height="{h:.1f}" '
            'fill="currentColor"/></g>'
        )
    labels = [bin_label(low, high) for low, high, _count in bins]
    for x, label in tick_positions(labels, left=LEFT, plot_w=plot_w, width=width):
        parts.append(
            f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle" class="tick">'
            f"{escape(label)}</text>"
        )
    parts.append(f'<text x="{LEFT - 4}" y="{TOP + 4}" text-anchor="end" class="tick">{most}</text>')
    parts.append(f'<text x="{LEFT - 4}" y="{TOP + plot_h + 4}" text-anchor="end" class="tick">0</text>')
    desc = "; ".join(f"{low}{DASH}{high}: {count}" for low, high, count in bins)
    title = _("Round scores: how many of each")
    return mark_safe(  # every text piece is escaped
        f'<svg class="chart distribution" viewBox="0 0 {width} {HEIGHT}" role="img" '
        f'aria-labelledby="dist-title dist-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="dist-title">{escape(title)}</title><desc id="dist-desc">{escape(desc)}</desc>'
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 2}" text-anchor="middle" class="axis">'
        f"{escape(_('round score'))}</text>" + "".join(parts) + "</svg>"
    )
