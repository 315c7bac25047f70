"""The standings histogram's bin labels never overlap (they did: "-12\u2013-8" under a 35-unit bar ran
into its neighbours). Checked on the SVG itself for any round scores and chart widths (hypothesis),
with each label's width measured independently of the chart code: per character of an 11px sans
font (digits and the en dash 0.56 em, the minus sign 0.34 em)."""

from __future__ import annotations

import itertools
import re
from html import unescape

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.web.charts import HEIGHT, bins_of, distribution_chart

FONT = 11
EM = {"-": 0.34, "\u2013": 0.56}
TICK = re.compile(r'<text x="([\d.]+)" y="(\d+)" text-anchor="middle" class="tick">([^<]*)</text>')


def _width(text: str) -> float:
    return sum(EM.get(char, 0.56) for char in text) * FONT


def _bin_ticks(svg: str) -> list[tuple[float, float, str]]:
    """The bins' labels (left edge, right edge, text), left to right."""
    ticks = []
    for x, _y, text in TICK.findall(svg):
        text = unescape(text)
        ticks.append((float(x) - _width(text) / 2, float(x) + _width(text) / 2, text))
    return sorted(ticks)


SCORES = st.lists(st.integers(-60, 400), min_size=1, max_size=300)


@settings(max_examples=300, deadline=None)
@given(SCORES, st.integers(240, 720))
def test_no_two_bin_labels_overlap_and_none_is_cut_at_an_edge(scores: list[int], width: int) -> None:
    svg = distribution_chart(scores, width=width)
    ticks = _bin_ticks(svg)
    assert ticks, svg  # at least the first bin is labelled
    for (_l1, right, first), (left, _r2, second) in itertools.pairwise(ticks):
        assert right + 2 <= left, (first, second, width)
    assert ticks[0][0] >= 0 and ticks[-1][1] <= width
    labels = {f"{low}" if low == high else f"{low}\u2013{high}" for low, high, _n in bins_of(scores)}
    assert {text for _l, _r, text in ticks} <= labels


def test_the_first_bin_is_always_labelled_and_every_bin_when_they_fit() -> None:
    few = distribution_chart([1, 2, 3, 4, 5, 6, 7, 8])  # 8 bins of one score: all fit
    assert [t for _l, _r, t in _bin_ticks(few)] == [str(n) for n in range(1, 9)]
    scores = [-12, -8, 0, 9, 17, 25, 33, 41, 49, 57, 60]  # bins of ten: "-12\u2013-3", "-2\u20137"...
    wide = distribution_chart(scores)
    shown = [t for _l, _r, t in _bin_ticks(wide)]
    assert shown[0] == "-12\u2013-3" and 1 < len(shown) < len(bins_of(scores))
    assert f'viewBox="0 0 360 {HEIGHT}"' in wide
