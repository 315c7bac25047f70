"""golfclub.core.form_fields.place_problems: the one way a page form shows a refusal's problems (the
services' or the rules engine's), each message on the field its `where` names or at the form's top.

The rule is checked with hypothesis on a plain form, then each form's own reading (its
`problem_fields` data or its hooks) on the real forms, with the paths their services send."""

from __future__ import annotations

import itertools
import re

from django import forms
from django.forms.forms import NON_FIELD_ERRORS
from django.http import QueryDict
from hypothesis import given
from hypothesis import strategies as st

from clubs.web.manage_forms import PasteForm, SeasonForm
from golfclub.core.form_fields import leading_paths, place_problems, problem_field
from scoring.rules import PRESETS, Problem
from scoring.web.calculator.forms import RulesForm
from scoring.web.games.hole_forms import HoleForm
from scoring.web.games.start_forms import StartForm
from tournaments.officiating.catalogue import SITUATIONS
from tournaments.web.forms import TournamentForm
from tournaments.web.officiating_forms import RulingForm

VISIBLE = ("name", "names", "start")


class PlainForm(forms.Form):
    name = forms.CharField(required=False)
    names = forms.CharField(required=False, widget=forms.Textarea)
    start = forms.CharField(required=False)
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)


def _bound(form: forms.Form) -> forms.Form:
    form.is_valid()
    return form


def _errors(form: forms.Form) -> dict[str, list[str]]:
    return {name: [str(message) for message in errors] for name, errors in form.errors.items()}


class AliasForm(PlainForm):
    problem_fields = {"facts": "name", "facts.hand": "start", "gone": "missing", "secret": "version"}


WHERE = st.builds(
    str.__add__,
    st.sampled_from([*VISIBLE, "version", "other", "facts", "facts.hand", "gone", "secret", ""]),
    st.text(alphabet=".[]0123abc_", max_size=10),
)
MESSAGE = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30)
PROBLEMS = st.lists(st.builds(Problem, WHERE, MESSAGE), max_size=8)


def _expected_field(where: str, aliases: dict[str, str]) -> str:
    """The rule, said again independently: the longest leading path that is an alias, else the first
    name; on that field when it is a visible one, else at the top."""
    cuts = [len(where)] + [i for i in range(len(where) - 1, -1, -1) if where[i] in ".["]
    name = next(
        (aliases[where[:cut]] for cut in cuts if where[:cut] in aliases), re.split(r"[.\[]", where)[0]
    )
    return name if name in VISIBLE else NON_FIELD_ERRORS


@given(PROBLEMS)
def test_each_message_shows_once_in_order_on_the_visible_field_its_where_names_else_at_the_top(
    problems: list[Problem],
) -> None:
    for form_class in (PlainForm, AliasForm):
        form = _bound(form_class(data={}))
        place_problems(form, problems)
        expected: dict[str, list[str]] = {}
        for problem in problems:
            field = _expected_field(problem.where, getattr(form_class, "problem_fields", {}))
            expected.setdefault(field, []).append(problem.message)
        assert _errors(form) == expected


@given(st.text(alphabet="ab.[]0", max_size=12))
def test_leading_paths_are_where_then_each_path_it_is_inside_longest_first(where: str) -> None:
    paths = leading_paths(where)
    assert paths[0] == where
    assert len(paths) == 1 + sum(where.count(mark) for mark in ".[")
    for longer, shorter in itertools.pairwise(paths):
        assert longer.startswith(shorter) and len(shorter) < len(longer)
        assert where[len(shorter)] in ".["
    assert not re.search(r"[.\[]", paths[-1])


def test_problem_fields_map_paths_to_fields_and_a_name_that_is_no_visible_field_goes_to_the_top() -> None:
    form = _bound(AliasForm(data={}))
    assert problem_field(form, "facts.hand[2]") == "start"
    assert problem_field(form, "facts.hand") == "start"
    assert problem_field(form, "facts.other") == "name"
    assert problem_field(form, "facts") == "name"
    assert problem_field(form, "gone.x") is None  # no such field: at the top, not a ValueError
    assert problem_field(form, "secret") is None  # hidden: at the top
    assert problem_field(form, "version") is None
    assert problem_field(form, "names[3]") == "names"


class HookForm(PlainForm):
    def field_for_problem(self, where: str) -> str | None:
        return {"a": "start", "b": "nothing", "c": "version"}.get(where)

    def problems_to_place(self, problems: list[Problem]) -> list[Problem]:
        self.kept = list(problems)
        return [Problem(p.where, f"shown: {p.message}") for p in problems]


def test_the_form_hooks_read_the_paths_and_say_how_the_problems_are_shown() -> None:
    form = _bound(HookForm(data={}))
    problems = [Problem("a", "1"), Problem("name", "2"), Problem("b", "3"), Problem("c", "4")]
    place_problems(form, problems)
    assert form.kept == problems
    # The hook replaces the first-name rule ("name" is not read as the field "name").
    assert _errors(form) == {"start": ["shown: 1"], NON_FIELD_ERRORS: ["shown: 2", "shown: 3", "shown: 4"]}


class TopForm(AliasForm):
    problems_at_top = True


@given(PROBLEMS)
def test_a_form_with_problems_at_top_shows_every_message_at_its_top_in_order(problems: list[Problem]) -> None:
    form = _bound(TopForm(data={}))
    place_problems(form, problems)
    assert _errors(form) == ({NON_FIELD_ERRORS: [p.message for p in problems]} if problems else {})


# --- Each form's reading, with the paths its services and the engine send ----------------------


def _placed(form: forms.Form, *wheres: str) -> dict[str, list[str]]:
    place_problems(_bound(form), [Problem(where, f"at {where}") for where in wheres])
    return _errors(form)


def test_a_tournament_shows_its_tiebreak_chain_on_the_first_slot_and_a_ruleset_path_on_the_ruleset() -> None:
    form = TournamentForm()
    assert problem_field(form, "tiebreakers") == "tiebreak_1"
    assert problem_field(form, "ruleset.holes") == "ruleset"
    assert problem_field(form, "name") == "name"
    assert problem_field(form, "version") is None
    assert problem_field(form, "read_digest") is None
    assert problem_field(form, "players[2]") is None


def test_a_club_page_shows_a_pasted_line_on_the_names_and_a_stale_version_at_the_top() -> None:
    assert _placed(PasteForm(data={"names": "Ann"}), "names[3]", "club") == {
        "names": ["at names[3]"],
        NON_FIELD_ERRORS: ["at club"],
    }
    season = {"name": "Spring", "start": "2026-03-01", "end": "2026-05-31", "version": "1"}
    assert _placed(SeasonForm(data=season), "name", "start", "version", "season") == {
        "name": ["at name"],
        "start": ["at start"],
        NON_FIELD_ERRORS: ["at version", "at season"],
    }


def test_a_ruling_shows_each_fact_on_its_question() -> None:
    situation = next(s for s in SITUATIONS if s.facts)
    fact = situation.facts[0].name
    form = RulingForm(data={}, situation=situation, players=[])
    placed = _placed(form, f"facts.{fact}", "facts.unknown", "player")
    assert placed[f"fact_{fact}"][-1] == f"at facts.{fact}"
    assert placed["player"] == ["at player"]
    assert placed[NON_FIELD_ERRORS] == ["at facts.unknown"]


def test_the_calculator_shows_the_engines_paths_on_their_controls() -> None:
    placed = _placed(RulesForm(data={}), "ruleset.values.Q", "ruleset.ender_penalty.points", "ruleset.x")
    assert placed["value_Q"][-1] == "at ruleset.values.Q"
    assert placed["ender_points"][-1] == "at ruleset.ender_penalty.points"
    assert placed[NON_FIELD_ERRORS] == ["at ruleset.x"]


def test_the_hole_form_names_whose_grid_keeps_the_problems_for_its_grids_and_shows_them_all_at_the_top() -> (
    None
):
    form = _bound(
        HoleForm(data={"p0-total": "3", "p1-total": "4"}, players=["Ann", "Bob"], ruleset=PRESETS["official"])
    )
    problems = [Problem("entries.Bob[0][1]", "Unknown card."), Problem("ender", "No such ender.")]
    place_problems(form, problems)
    named = [Problem("entries.Bob[0][1]", "Bob: Unknown card."), Problem("ender", "No such ender.")]
    assert form.problems == named
    assert _errors(form) == {NON_FIELD_ERRORS: ["Bob: Unknown card.", "No such ender."]}


def test_the_start_form_shows_the_engines_problems_at_the_top() -> None:
    form = StartForm(QueryDict("ruleset=official&player=Ann&player=Bob"))
    assert problem_field(form, "ruleset.holes") is None
    assert problem_field(form, "ruleset") is None
