"""Server-rendered SVG chart of each player's cumulative total after every hole (no JavaScript)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

# Eight colours that stay apart on black and on white; each line also gets its own dash pattern and
# marker so the chart still reads without colour.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c6d31")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3")
MARKERS = ("circle", "square", "diamond", "triangle")

WIDTH, HEIGHT = 360, 230
LEFT, RIGHT, TOP, BOTTOM = 34, 12, 12, 28


@dataclass(frozen=True)
class Series:
    """One player's line: the running total after holes 1..n (the chart adds the 0 start)."""

    name: str
    totals: Sequence[int]


def _nice_step(span: int, wanted_ticks: int = 5) -> int:
    """A round tick step (1, 2, 5, 10, 20, 50...) giving about `wanted_ticks` gridlines over `span`."""
    raw = max(span, 1) / wanted_ticks
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return max(1, int(factor * magnitude))
    return int(10 * magnitude)


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    """One point marker centred on (x, y)."""
    if kind == "square":
        return f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="{colour}"/>'
    if kind == "diamond":
        return (
            f'<path d="M{x:.1f} {y - 4:.1f} L{x + 4:.1f} {y:.1f} '
            f'L{x:.1f} {y + 4:.1f} L{x - 4:.1f} {y:.1f} Z" fill="{colour}"/>'
        )
    if kind == "triangle":
        path = f"M{x:.1f} {y - 4:.1f} L{x + 4:.1f} {y + 3:.1f} L{x - 4:.1f} {y + 3:.1f} Z"
        return f'<path d="{path}" fill="{colour}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.2" fill="{colour}"/>'


PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM


@dataclass(frozen=True)
class _Axes:
    """Where a hole and a total fall on the chart: holes 0..`holes` across, `low`..`high` down."""

    holes: int
    low: int
    high: int
    step: int

    def x_at(self, hole: int) -> float:
        return LEFT + PLOT_WIDTH * hole / self.holes

    def y_at(self, value: int) -> float:
        return TOP + PLOT_HEIGHT * (self.high - value) / (self.high - self.low)


def _axes(series: Sequence[Series], holes: int) -> _Axes:
    """Axes holding 0 and every total, their ends on round ticks."""
    values = [0, *(v for s in series for v in s.totals)]
    low, high = min(values), max(values)
    step = _nice_step(high - low)
    low = step * math.floor(low / step)
    high = step * math.ceil(high / step)
    if high == low:
        high = low + step
    return _Axes(holes, low, high, step)


def cumulative_chart(
    series: Sequence[Series], *, title: str | None = None, x_label: str | None = None
) -> SafeString:
    """An SVG line chart of running totals, one line per player, hole 0 (start) to the last hole.

    Returns an empty string when no hole has been played yet. Lower is better in Golf; the caption
    says so and the legend lists the players with their current totals, lowest first.
    """
    holes = max((len(s.totals) for s in series), default=0)
    if holes == 0:
        return mark_safe("")
    title = title or _("Running totals after each hole")
    axes = _axes(series, holes)
    parts = _gridlines(axes) + [_series_line(index, line, axes) for index, line in enumerate(series)]
    desc = "; ".join(
        _("%(name)s %(total)s") % {"name": s.name, "total": s.totals[-1] if s.totals else 0} for s in series
    )
    svg = (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="chart-title chart-desc" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<title id="chart-title">{escape(title)}</title>'
        f'<desc id="chart-desc">{escape(_("Totals after the last hole (lower is better):"))} '
        f"{escape(desc)}</desc>"
        f'<text x="{LEFT + PLOT_WIDTH / 2:.1f}" y="{HEIGHT - 1}" text-anchor="middle" class="axis">'
        f"{escape(x_label or _('hole'))}</text>" + "".join(parts) + "</svg>"
    )
    return mark_safe(svg)  # every text piece above is escaped


def _gridlines(axes: _Axes) -> list[str]:
    """A line and a label for each tick of the totals (the zero line heavier), a label for the holes."""
    parts: list[str] = []
    for tick in range(axes.low, axes.high + 1, axes.step):
        y = axes.y_at(tick)
        weight = ' stroke-width="1.5"' if tick == 0 else ""
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" class="grid"{weight}/>'
            f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" class="tick">{tick}</text>'
        )
    label_every = 1 if axes.holes <= 10 else 2 if axes.holes <= 20 else 5
    for hole in range(axes.holes + 1):
        if hole % label_every == 0 or hole == axes.holes:
            parts.append(
                f'<text x="{axes.x_at(hole):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" '
                f'class="tick">{hole}</text>'
            )
    return parts


def _series_line(index: int, line: Series, axes: _Axes) -> str:
    """One player's line from the start, with its colour, dash pattern and markers."""
    colour = PALETTE[index % len(PALETTE)]
    dash = DASHES[index % len(DASHES)]
    marker = MARKERS[index % len(MARKERS)]
    points = [(axes.x_at(0), axes.y_at(0))] + [
        (axes.x_at(h + 1), axes.y_at(v)) for h, v in enumerate(line.totals)
    ]
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    # `color` is a presentation attribute: game.css can swap in lighter colours for dark mode.
    return (
        f'<g class="series s{index % len(PALETTE)}" color="{colour}"><title>{escape(line.name)}</title>'
        f'<polyline points="{path}" fill="none" stroke="currentColor" stroke-width="2.5"{dash_attr}/>'
        + "".join(_marker(marker, x, y, "currentColor") for x, y in points[1:])
        + "</g>"
    )


def legend(series: Sequence[Series]) -> list[dict[str, str]]:
    """Colour, dash and marker per player, in the chart's order, for the HTML legend under the chart."""
    return [
        {
            "name": s.name,
            "colour": PALETTE[i % len(PALETTE)],
            "css_class": f"s{i % len(PALETTE)}",
            "dash": DASHES[i % len(DASHES)],
            "marker": MARKERS[i % len(MARKERS)],
        }
        for i, s in enumerate(series)
    ]
