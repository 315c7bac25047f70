"""The lint rule "a refusal's problems go on a form through `place_problems` only" (issue 35).

`golfclub.core.form_fields.place_problems(form, problems)` puts the services' and the rules engine's
problems on a page form: each message on the field its `where` names, else at the form's top; a form
says how its paths read as data (`problem_fields`, `problems_at_top`) or a small hook
(`field_for_problem`, `problems_to_place`). Before it there were four copies of that loop
(tournaments, clubs, the calculator, the hole form; the officials' ruling form wrapped the first)
and three more that put every message at the top, each reading the paths its own way. So, outside
golfclub/core/form_fields.py, this rule finds:

- a form error made of a problem's message (`form.add_error(field, problem.message)`);
- a loop over a refusal's or an error's problems or messages (`for message in refused.messages:`,
  `for problem in error.problems:`) that adds form errors.

A form's own messages (`self.add_error(None, _("Choose a dealer."))`, a loop over the names it
refused itself) are not problems and are left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tools.custom_check import Example, Rule, SourceFile

#: What a refusal, an error or a list of them is read through.
PROBLEM_LISTS = frozenset({"problems", "messages"})


def _add_errors(nodes: list[ast.stmt] | ast.AST) -> list[ast.Call]:
    """Every `<form>.add_error(...)` call in `nodes`."""
    found = []
    for part in nodes if isinstance(nodes, list) else [nodes]:
        for node in ast.walk(part):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_error"
            ):
                found.append(node)
    return found


def _tail_name(node: ast.expr) -> str:
    """The last name of `refused.problems`, `error.messages`, `problems`; "" for anything else."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def problems_placed_by_hand(source: SourceFile) -> Iterator[tuple[int, str]]:
    """Every form error made of a problem's message, and every loop over problems adding form errors."""
    lines = {
        call.lineno
        for call in _add_errors(source.tree)
        if any(
            isinstance(argument, ast.Attribute) and argument.attr == "message"
            for argument in [*call.args, *(keyword.value for keyword in call.keywords)]
        )
    }
    for node in ast.walk(source.tree):
        if isinstance(node, ast.For) and _tail_name(node.iter) in PROBLEM_LISTS and _add_errors(node.body):
            lines.add(node.lineno)
    for line in sorted(lines):
        yield (
            line,
            "a refusal's problems put on a form by hand: call golfclub.core.form_fields.place_problems("
            "form, problems), giving the form `problem_fields`, `problems_at_top` or a hook if it needs one",
        )


PROBLEMS_RULE = Rule(
    name="problems-placed-outside-place-problems",
    description=(
        "A refusal's problems (a service's or the rules engine's, each a `where` and a `message`) go on a "
        "page form through golfclub/core/form_fields.py's `place_problems(form, problems)` only: the "
        "form says how its paths read (`problem_fields`, `problems_at_top`, or a `field_for_problem` hook), "
        "never another loop of `add_error(..., problem.message)`."
    ),
    check=problems_placed_by_hand,
    exclude=("golfclub/core/form_fields.py", "*/migrations/*", "tests/*"),
    good=(
        Example(
            "tournaments/web/example.py",
            "with catch_refusal() as refused:\n    add()\n"
            "if refused:\n    place_problems(form, refused.problems)\n",
        ),
        Example(
            "scoring/web/games/example.py",
            "form.add_error(None, _('The form lost the hole.'))\nfor message in self.player_errors:\n"
            "    self.add_error(None, message)\n",
        ),
        Example(
            "golfclub/core/errors.py",
            "for message in self.messages:\n    messages.error(request, message)\n",
        ),
    ),
    bad=(
        Example(
            "tournaments/web/forms.py",
            "def add_problems(form, problems):\n    for problem in problems:\n"
            "        field = problem.where.split('.', 1)[0]\n"
            "        form.add_error(field if field in form.fields else None, problem.message)\n",
        ),
        Example(
            "scoring/web/games/start_views.py",
            "if refused:\n    for message in refused.messages:\n        form.add_error(None, message)\n",
        ),
        Example(
            "scoring/web/calculator/forms.py",
            "[self.add_error(_field_for(p.where), p.message) for p in error.problems]\n",
        ),
    ),
)
