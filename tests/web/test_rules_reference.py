"""The official rules reference in the app (/rules/official/): every section of seed 000 under its
number with a stable anchor, a search that ignores accents and case, each preset's differences
with its source, and the links to it from score breakdowns and rulings."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.rules.citations import RULES
from scoring.rules.reference import BY_NUMBER, SECTIONS
from scoring.web.reference_views import matching_sections, preset_differences
from scoring.web.rule_links import link_rules, rule_url
from tournaments.officiating.catalogue import SITUATIONS

pytestmark = pytest.mark.django_db

SEED = "/work/shared/seeds/000_95fefc3189b5fb4e.txt"
EXPECTED = {
    *(f"1.{n}" for n in range(1, 5)), *(f"2.{n}" for n in range(1, 6)), *(f"3.{n}" for n in range(1, 6)),
    *(f"4.{n}" for n in range(1, 6)), *(f"5.{n}" for n in range(1, 5)), *(f"6.{n}" for n in range(1, 4)),
    "7", *(f"8.{n}" for n in range(1, 6)), "9", *(f"9.{n}" for n in range(1, 5)), "10",
}  # fmt: skip


def test_it_has_every_section_of_the_official_reference_once() -> None:
    assert {s.number for s in SECTIONS} == EXPECTED and len(SECTIONS) == len(EXPECTED)


def test_every_citation_the_app_makes_names_a_section_of_the_reference() -> None:
    cited = {key for key in RULES if key[:1].isdigit()}
    cited |= {c for s in SITUATIONS for o in s.outcomes for c in o.citations}
    cited |= {c for s in SITUATIONS for c in s.rules}
    assert cited <= set(BY_NUMBER), cited - set(BY_NUMBER)


def test_the_page_has_an_anchor_per_section_and_the_rulings_substance() -> None:
    page = Client().get("/rules/official/").content.decode()
    for number in EXPECTED:
        assert f'id="{number}"' in page, number
    assert "scores minus 4" in page  # 2.3: a column pair of 2s
    assert "before the next player's turn begins is corrected" in page.replace("&#x27;", "'")  # 4.5
    assert "disqualification from the round the third" in page  # 6.3


def test_the_search_ignores_accents_and_case_and_says_when_nothing_matches() -> None:
    assert {s.number for s in matching_sections("horizontal")} >= {"2.3", "8.2", "9.1"}
    assert [s.number for s in matching_sections("HORIZONTAL pairs")] == [
        s.number for s in matching_sections("horizontal pairs")
    ]
    assert {s.number for s in matching_sections("dépôt")} == set()
    assert {s.number for s in matching_sections("jokèr")} == {s.number for s in matching_sections("joker")}
    page = Client().get("/rules/official/", {"q": "horizontal"}).content.decode()
    assert 'id="8.2"' in page and 'id="3.4"' not in page
    nothing = Client().get("/rules/official/", {"q": "zzzz"}).content.decode()
    assert "No section mentions" in nothing
    partial = Client().get("/rules/official/", {"q": "joker", "partial": "1"}, headers={"HX-Request": "true"})
    assert (
        partial.content.decode().lstrip().startswith('<div id="sections"')
        and 'id="5.4"' in partial.content.decode()
    )
    assert Client().get("/rules/official/", {"q": "x" * 1000}).status_code == 400
    assert Client().get("/rules/official/", {"q": "\x00"}).status_code == 400


def test_each_preset_lists_what_differs_from_official_with_its_source() -> None:
    presets = {p["name"]: p for p in preset_differences()}
    basic = dict((key, (official, value)) for key, official, value in presets["basic"]["changes"])
    assert basic["values"] == ("2 -2", "2 2") and presets["basic"]["source"] == "001, 002"
    four = dict((key, value) for key, _official, value in presets["four-card"]["changes"])
    assert four["cols"] == "2" and "rows" in four["match_lines"] and four["hole_end"] == "knock"
    page = Client().get("/rules/official/").content.decode()
    assert 'id="preset-four-card"' in page and "source 001 part 2" in page


def test_breakdowns_link_their_rules_to_the_reference() -> None:
    assert rule_url("2.3") == "/rules/official/#2.3"
    assert rule_url("seed 001") == "/rules/#sources" and rule_url("project") == "/rules/#parameters"
    html = str(link_rules("Column 1: Q and Q cancel (rule 2.3) <b>"))
    assert '<a class="cite" href="/rules/official/#2.3">rule 2.3</a>' in html and "&lt;b&gt;" in html
    grid = [["Q", "7", "K"], ["Q", "7", "3"]]
    fields = {f"cell-1-{r}-{c}": t for r, row in enumerate(grid, 1) for c, t in enumerate(row, 1)}
    page = Client().get("/score/", fields | {"score": "1"}).content.decode()
    # The matches (Q-Q, 7-7) cite rule 2.3, as a link; the explanation lines link it too.
    assert len(re.findall(r'href="/rules/official/#2\.3"', page)) >= 2
