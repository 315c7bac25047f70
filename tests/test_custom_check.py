"""The project's own lint rules (tools/custom_rules.py) and their framework (tools/custom_check.py).

Each rule fires on its bad examples and not on its good ones, as Zulip's custom_check tests its
`bad_lines` and `good_lines`; and the project itself keeps every rule (what `make lint` checks).
"""

from __future__ import annotations

import ast
import time
from pathlib import Path
from typing import Any

import pytest

from tools import check_conventions
from tools.custom_check import Example, Rule, SourceFile, check_sources, line_pattern
from tools.custom_rules import RULES
from tools.game_access_rule import GAME_ACCESS_RULE


def _findings(rule: Rule, example: Example) -> list[str]:
    report = check_sources([SourceFile(example.path, example.code)], [rule], whole_project=False)
    return [finding.message for finding in report.breaches]


@pytest.mark.parametrize("rule", RULES, ids=[rule.name for rule in RULES])
def test_each_rule_fires_on_its_bad_examples_and_not_on_its_good_ones(rule: Rule) -> None:
    assert rule.description and rule.good and rule.bad
    for example in rule.bad:
        assert rule.applies_to(example.path), example.path
        assert _findings(rule, example), f"{rule.name} misses:\n{example.code}"
    for example in rule.good:
        assert _findings(rule, example) == [], f"{rule.name} wrongly fires on:\n{example.code}"


def test_every_allowance_gives_its_reason() -> None:
    for rule in RULES:
        for key, reason in rule.allow.items():
            assert "::" in key and reason.strip(), (rule.name, key)


def test_the_project_keeps_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    status = check_conventions.main([])
    assert capsys.readouterr().out == ""
    assert status == 0
    assert time.monotonic() - started < 30


# --- The framework ---------------------------------------------------------------------------------

NO_PRINT = Rule(
    name="no-print",
    description="No print() in the app.",
    check=line_pattern(r"\bprint\(", "print() in the app"),
    include=("scoring/*",),
    exclude=("scoring/management/*",),
    good=(Example("scoring/x.py", "log(1)\n"),),
    bad=(Example("scoring/x.py", "print(1)\n"),),
    allow={"scoring/views.py::Page.get": "kept for the example"},
)


def test_a_rule_looks_only_at_the_files_it_includes_and_does_not_exclude() -> None:
    assert NO_PRINT.applies_to("scoring/web/games/views.py")
    assert not NO_PRINT.applies_to("scoring/management/commands/load_demo.py")
    assert not NO_PRINT.applies_to("tournaments/views.py")
    assert not NO_PRINT.applies_to(".venv/lib/python3.12/site-packages/scoring/x.py")


def test_a_finding_names_the_innermost_function_it_is_in_and_a_line_pattern_skips_comments() -> None:
    code = "# print(0)\nprint(1)\nclass Page:\n    def get(self):\n        def inner():\n"
    code += "            print(2)\n"
    report = check_sources([SourceFile("scoring/other.py", code)], [NO_PRINT], whole_project=False)
    assert [(f.line, f.key) for f in report.breaches] == [
        (2, "scoring/other.py::<module>"),
        (6, "scoring/other.py::Page.get.inner"),
    ]
    assert str(report.breaches[0]) == "scoring/other.py:2: no-print: print() in the app"


def test_an_allowed_finding_is_not_reported_and_an_allowance_that_matches_nothing_is() -> None:
    code = "class Page:\n    def get(self):\n        print(1)\n"
    allowed = check_sources([SourceFile("scoring/views.py", code)], [NO_PRINT], whole_project=True)
    assert allowed.clean
    fixed = check_sources([SourceFile("scoring/views.py", "")], [NO_PRINT], whole_project=True)
    assert fixed.stale_allowances == [("no-print", "scoring/views.py::Page.get")]
    assert "no longer breaks the rule" in fixed.lines()[0]
    # Checking a few files cannot tell that an allowance is stale.
    assert check_sources([SourceFile("scoring/views.py", "")], [NO_PRINT], whole_project=False).clean


def test_scorings_models_are_found_in_its_model_modules_choices_left_out() -> None:
    from tools.custom_rules import scoring_models

    models = scoring_models()
    assert {"Game", "Hole", "HoleEntry", "Player", "Seat", "GameChange"} <= models["scoring.models"]
    assert "GameStatus" not in models["scoring.models"]
    assert models["scoring.turn_time_model"] == {"TurnTime"}
    assert models["scoring.phone_contact_model"] == {"PhoneContact"}


# --- The game views' access call (tools/access_rule.py) ----------------------------------------------


def _game_routes() -> list[tuple[str, str, str]]:
    """(route, module, function) of every URL reached by a game's link (`<token:token>` under a
    games path), pages and API alike, the view functions under their wrappers."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found: list[tuple[str, str, str]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern) and "games/" in route and "<token:token>" in route:
                view = getattr(entry.callback, "cls", entry.callback)  # an @api_view: its class
                found.append((route, view.__module__, view.__name__))

    walk(get_resolver().url_patterns, "")
    return found


def test_every_game_route_is_a_view_the_access_rule_checks() -> None:
    """The rule sees every view a game's link reaches (so none escapes it by its shape), and each
    begins with its access call."""
    from tools.game_access_rule import _is_game_view, _starts_with_access_call

    routes = _game_routes()
    assert len(routes) > 30
    for route, module, name in routes:
        source = SourceFile(
            module.replace(".", "/") + ".py", Path(module.replace(".", "/") + ".py").read_text()
        )
        func = next(
            node for node in ast.walk(source.tree) if isinstance(node, ast.FunctionDef) and node.name == name
        )
        token_api = next(
            (
                d
                for d in func.decorator_list
                if isinstance(d, ast.Call) and ast.unparse(d.func) == "token_api"
            ),
            None,
        )
        assert GAME_ACCESS_RULE.applies_to(source.path), route
        assert _is_game_view(func, source.path, token_api), route
        assert _starts_with_access_call(func), route


def test_the_game_access_rule_names_what_is_wrong() -> None:
    late = Example(
        "scoring/web/games/example.py",
        'def page(request, token):\n    """Doc."""\n    board = scoreboard(token)\n'
        "    grant = game_for_page(request, token, Capability.SCORE)\n",
    )
    unkeyed = Example(
        "tournaments/api/example.py",
        '@token_api(["GET", "POST"])\ndef view(request, token):\n'
        "    grant = game_for_api(request, token, writes=Capability.SCORE)\n    return write(grant)\n",
    )
    assert _findings(GAME_ACCESS_RULE, late) == [
        "page: a game view begins with grant = game_for_...(request, token, ...)"
    ]
    assert _findings(GAME_ACCESS_RULE, unkeyed) == [
        "view: its POST takes the Idempotency-Key through call_once, after access"
    ]


# --- The tournament pages' access call (tools/tournament_access_rule.py) ---------------------------


def test_every_tournament_page_route_is_a_view_the_access_rule_checks() -> None:
    """The rule sees every page reached by a tournament's id (`tournaments/<id:pk>/...`), and each
    begins with its access call."""
    from django.urls import URLPattern, URLResolver, get_resolver

    from tools.tournament_access_rule import (
        TOURNAMENT_ACCESS_RULE,
        is_tournament_page,
        starts_with_access_call,
    )

    found: list[tuple[str, Any]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern) and route.startswith("tournaments/<id:pk>/"):
                found.append((route, entry.callback))

    walk(get_resolver().url_patterns, "")
    assert len(found) > 40
    for route, view in found:
        path = view.__module__.replace(".", "/") + ".py"
        source = SourceFile(path, Path(path).read_text())
        func = next(
            node
            for node in ast.walk(source.tree)
            if isinstance(node, ast.FunctionDef) and node.name == view.__name__
        )
        assert TOURNAMENT_ACCESS_RULE.applies_to(source.path), route
        assert is_tournament_page(func, source.path), route
        assert starts_with_access_call(func), route
