"""The project's own conventions as lint rules (issue 35, item 6); the framework is tools/custom_check.py.

To add a rule: write its check (tools/custom_check.py's `line_pattern`, or a function of the parsed
module), then a `Rule` in RULES with a description a newcomer understands, where it applies, and one
good and one bad example; tests/test_custom_check.py runs the examples. Allow a finding only by name
("path::function") and with the reason it stays.

What the rules leave out, and why:
- migrations: generated, and frozen once applied;
- tests: a test tells one story top to bottom (a browser journey, a spec contract) and a test module
  gathers the cases of one feature, so the size rules would split what reads best whole; tests may
  also build and query any model directly.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from tools.access_rule import ACCESS_RULE
from tools.custom_check import Example, Rule, SourceFile, line_pattern
from tools.game_access_rule import GAME_ACCESS_RULE
from tools.problems_rule import PROBLEMS_RULE
from tools.tournament_access_rule import TOURNAMENT_ACCESS_RULE

ROOT = Path(__file__).resolve().parent.parent

MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 400

MIGRATIONS = "*/migrations/*"
TESTS = "tests/*"


# --- Size --------------------------------------------------------------------------------------


def long_functions(source: SourceFile) -> Iterator[tuple[int, str]]:
    """Every function (method, nested function) longer than MAX_FUNCTION_LINES, `def` to last line."""
    for node in ast.walk(source.tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                yield node.lineno, f"{node.name} is {length} lines (at most {MAX_FUNCTION_LINES})"


def long_module(source: SourceFile) -> Iterator[tuple[int, str]]:
    """The module itself when it is longer than MAX_MODULE_LINES."""
    if len(source.lines) > MAX_MODULE_LINES:
        yield 1, f"the module is {len(source.lines)} lines (at most {MAX_MODULE_LINES})"


def _function_of(lines: int) -> str:
    body = "\n".join(f"    total += {i}" for i in range(lines - 3))
    return f"def add_up() -> int:\n    total = 0\n{body}\n    return total\n"


# --- Scoring's tables --------------------------------------------------------------------------

SCORING_MODEL_MODULES = ("scoring.models", "scoring.*_model")
MANAGERS = frozenset({"objects", "_default_manager", "_base_manager"})


@cache
def scoring_models() -> dict[str, frozenset[str]]:
    """The model classes of each of scoring's model modules (scoring/models.py, scoring/*_model.py).

    A class is a model when one of its bases is `models.Model` or another model of the same module.
    """
    found: dict[str, frozenset[str]] = {}
    for path in [ROOT / "scoring" / "models.py", *sorted((ROOT / "scoring").glob("*_model.py"))]:
        names: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and any(
                ast.unparse(base) in {"models.Model", "Model"} or ast.unparse(base) in names
                for base in node.bases
            ):
                names.add(node.name)
        found[f"scoring.{path.stem}"] = frozenset(names)
    return found


def _absolute_module(source: SourceFile, node: ast.ImportFrom) -> str:
    """The absolute name of the module a (possibly relative) `from ... import` reads from."""
    if not node.level:
        return node.module or ""
    package = source.path.removesuffix(".py").split("/")[: -node.level]
    return ".".join([*package, *([node.module] if node.module else [])])


def _scoring_names(source: SourceFile) -> tuple[dict[str, str], dict[str, str]]:
    """The names this module binds to scoring's models and to scoring's model modules."""
    models_of = scoring_models()
    models: dict[str, str] = {}  # local name -> model
    modules: dict[str, str] = {}  # local dotted name -> model module
    for node in ast.walk(source.tree):
        if isinstance(node, ast.ImportFrom):
            origin = _absolute_module(source, node)
            for alias in node.names:
                local = alias.asname or alias.name
                if alias.name in models_of.get(origin, ()):
                    models[local] = alias.name
                elif f"{origin}.{alias.name}" in models_of:
                    modules[local] = f"{origin}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in models_of:
                    modules[alias.asname or alias.name] = alias.name
    return models, modules


def scoring_model_managers(source: SourceFile) -> Iterator[tuple[int, str]]:
    """Every `<scoring model>.objects` (or its default or base manager) this module reaches."""
    models, modules = _scoring_names(source)
    if not models and not modules:
        return
    models_of = scoring_models()
    for node in ast.walk(source.tree):
        if not (isinstance(node, ast.Attribute) and node.attr in MANAGERS):
            continue
        owner = ast.unparse(node.value)
        model = models.get(owner)
        if model is None and "." in owner:
            module, _, name = owner.rpartition(".")
            model = name if name in models_of.get(modules.get(module, ""), ()) else None
        if model is not None:
            yield (
                node.lineno,
                (
                    f"{model}.{node.attr}: scoring's tables are read through scoring/selectors and "
                    "written through scoring/services"
                ),
            )


# --- The rules ---------------------------------------------------------------------------------
# An allowance says why its finding stays, and who will fix it if anyone will: the list only
# shrinks (an allowance that matches nothing any more is reported).

RULES: list[Rule] = [
    Rule(
        name="scoring-models-outside-selectors-and-services",
        description=(
            "Scoring's models (scoring/models.py, scoring/*_model.py) are queried only in "
            "scoring/selectors (reads) and scoring/services (writes), so each query has one home; "
            "migrations, the admin and tests are left out."
        ),
        check=scoring_model_managers,
        # bench/ builds its data in bulk and checks the database against what was acknowledged, as
        # tests do: it measures the app from outside rather than being part of it.
        exclude=(
            "scoring/selectors/*",
            "scoring/services/*",
            MIGRATIONS,
            "*/admin.py",
            "*/admin/*",
            TESTS,
            "bench/*",
        ),
        good=(
            Example(
                "scoring/selectors/example.py",
                "from scoring.models import Game\n\ndef games():\n    return Game.objects.all()\n",
            ),
            Example(
                "tournaments/web/example.py",
                "from scoring.selectors import game_by_id\n\ndef page(pk):\n    return game_by_id(pk)\n",
            ),
            Example("tournaments/web/example.py", "from .models import Round\n\nRound.objects.all()\n"),
        ),
        bad=(
            Example(
                "tournaments/web/example.py",
                "from scoring.models import Game\n\ndef page(pk):\n    return Game.objects.get(pk=pk)\n",
            ),
            Example("scoring/web/example.py", "from .. import models\n\nmodels.Hole.objects.count()\n"),
            Example(
                "clubs/example.py",
                "from scoring.turn_time_model import TurnTime as T\n\nT._default_manager.all()\n",
            ),
        ),
    ),
    Rule(
        name="function-too-long",
        description=(
            f"No function over {MAX_FUNCTION_LINES} lines (from its `def` to its last line): split "
            "it into well-named helpers that read top to bottom."
        ),
        check=long_functions,
        exclude=(MIGRATIONS, TESTS),
        good=(Example("scoring/example.py", _function_of(MAX_FUNCTION_LINES)),),
        bad=(Example("scoring/example.py", _function_of(MAX_FUNCTION_LINES + 1)),),
        allow={},
    ),
    Rule(
        name="answered-errors-caught-outside-the-error-path",
        description=(
            "A view does not catch an answered error (`except ANSWERED_ERRORS`) to format it: "
            "golfclub/core/errors.py's `catch_refusal()` gives its problems and status to show on "
            "the form, `flash_refusal(request)` shows them on the next page, and the API raises "
            "(its one exception handler answers). Nor does it catch a page's access refusal "
            "(`except PageRefusal`): `PageRefusalMiddleware` answers every one."
        ),
        check=line_pattern(
            r"^\s*except\b.*\b(ANSWERED_ERRORS|PageRefusal)\b",
            "except ANSWERED_ERRORS / PageRefusal: use catch_refusal() or flash_refusal(request), "
            "or let the access refusal reach PageRefusalMiddleware",
        ),
        exclude=("golfclub/core/errors.py", "golfclub/middleware.py", MIGRATIONS, TESTS),
        good=(
            Example(
                "tournaments/web/example.py",
                "with catch_refusal() as refused:\n    add()\nif refused:\n    show(refused.problems)\n",
            ),
        ),
        bad=(
            Example(
                "tournaments/web/example.py",
                "try:\n    add()\nexcept ANSWERED_ERRORS as error:\n    show(error)\n",
            ),
            Example(
                "scoring/web/example.py",
                "try:\n    add()\nexcept (ValueError, *ANSWERED_ERRORS):\n    pass\n",
            ),
            Example(
                "tournaments/web/example.py",
                "try:\n    refuse_page_unless(request, grant, action)\nexcept PageRefusal as refused:\n"
                "    return refused_page(request, refused)\n",
            ),
        ),
        allow={
            "scoring/web/games/display.py::preview_scores": (
                "the live preview lists the table's problems beside its cards: content, not a refusal"
            ),
            "scoring/api/games/hole_views.py::game_holes": (
                "the edit-token fast path answers a wrong link before the body's problems, then re-raises"
            ),
        },
    ),
    Rule(
        name="module-too-long",
        description=f"No module over {MAX_MODULE_LINES} lines: split it by what its parts are about.",
        check=long_module,
        exclude=(MIGRATIONS, TESTS),
        good=(Example("scoring/example.py", "x = 1\n" * MAX_MODULE_LINES),),
        bad=(Example("scoring/example.py", "x = 1\n" * (MAX_MODULE_LINES + 1)),),
        allow={},
    ),
]

# The access rules live beside their own checks (tools/access_rule.py, tools/game_access_rule.py,
# tools/tournament_access_rule.py; issue 35).
RULES.append(ACCESS_RULE)
RULES.append(GAME_ACCESS_RULE)
RULES.append(TOURNAMENT_ACCESS_RULE)
# So does the rule of a refusal's problems on a form (tools/problems_rule.py, by issue 35's forms helper).
RULES.append(PROBLEMS_RULE)
