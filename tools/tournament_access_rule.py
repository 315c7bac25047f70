"""The lint rule "a tournament page begins with its access call" (issue 35, item 1).

Every page reached by a tournament's id (a view of tournaments/web taking `(request, pk, ...)`, the
URL's `<id:pk>`) makes its access decision as its first line, a plain call that returns the
`TournamentPage` or raises the refusal (answered in one place, `PageRefusalMiddleware`):
`page = tournament_page_for(request, pk, Action.X)` (`tournaments.web.access`), or
`tournament_for_user(request.user, pk, ...)` of `tournaments.access` itself. The decorator that
decided before the view (`@tournament_page`) is gone and refused. A page taking POST carries it out
through `page.write_once(request, ...)`, after that call. The access module itself is left out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tools.access_rule import ACCESS_FILES, _first_statement, called_name, removed_decorator_uses
from tools.custom_check import Example, Rule, SourceFile

#: The one access call of a tournament page: its first line.
TOURNAMENT_ACCESS_CALLS = frozenset({"tournament_page_for", "tournament_for_user"})
#: The decorator that decided before the view (issue 35 item 1 made it a plain call).
REMOVED_TOURNAMENT_DECORATORS = frozenset({"tournament_page"})
TOURNAMENT_PAGES = "tournaments/web/"


def is_tournament_page(func: ast.FunctionDef | ast.AsyncFunctionDef, path: str) -> bool:
    """A page of tournaments/web reached by a tournament's id: `(request, pk, ...)`."""
    parameters = [argument.arg for argument in func.args.args[:2]]
    return path.startswith(TOURNAMENT_PAGES) and parameters == ["request", "pk"]


def starts_with_access_call(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """`page = tournament_page_for(request, pk, ...)` (or `tournament_for_user(request.user, pk,
    ...)`) first, after the docstring."""
    first = _first_statement(func)
    if not (isinstance(first, ast.Assign) and isinstance(first.value, ast.Call)):
        return False
    arguments = [ast.unparse(argument) for argument in first.value.args[:2]]
    return called_name(first.value) in TOURNAMENT_ACCESS_CALLS and arguments in (
        ["request", "pk"],
        ["request.user", "pk"],
    )


def tournament_pages_without_access_call(source: SourceFile) -> Iterator[tuple[int, str]]:
    """Every tournament page not beginning with its access call, and every use of the removed
    decorator."""
    for node in ast.walk(source.tree):
        yield from removed_decorator_uses(node, REMOVED_TOURNAMENT_DECORATORS, "page")
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if is_tournament_page(node, source.path) and not starts_with_access_call(node):
            yield (
                node.lineno,
                f"{node.name}: a tournament page begins with page = tournament_page_for(request, pk, ...)",
            )


TOURNAMENT_ACCESS_RULE = Rule(
    name="tournament-page-begins-with-access-call",
    description=(
        "A page reached by a tournament's id (a view of tournaments/web taking `(request, pk, ...)`) "
        "begins, after its docstring, with its ONE access call: `page = tournament_page_for(request, "
        "pk, Action.X)` (`methods=` for a page taking POST), which returns the TournamentPage or "
        "raises the refusal, answered by PageRefusalMiddleware; a POST is then carried out through "
        "`page.write_once(request, ...)`. The removed decorator `@tournament_page` decided before "
        "the view and is refused."
    ),
    check=tournament_pages_without_access_call,
    include=("tournaments/*",),
    exclude=ACCESS_FILES,
    allow={},
    good=(
        Example(
            "tournaments/web/example.py",
            "def page(request, pk, number):\n"
            '    """A page."""\n'
            "    page = tournament_page_for(request, pk, Action.RUN, methods=POST_ONLY)\n"
            "    return page.write_once(request, lambda: _page(request, page, number))\n\n"
            "def _page(request, page, number):\n    return page\n",
        ),
        Example(
            "tournaments/web/example.py",
            "def export(request, pk):\n"
            "    grant = tournament_for_user(request.user, pk, Action.VIEW)\n    return grant\n",
        ),
        Example("tournaments/api/example.py", "def view(request, pk):\n    return pk\n"),
    ),
    bad=(
        Example(
            "tournaments/web/example.py",
            "@tournament_page(Action.VIEW)\ndef page(request, page):\n    return page\n",
        ),
        Example(
            "tournaments/web/example.py",
            "def page(request, pk):\n    rows = load(pk)\n"
            "    page = tournament_page_for(request, pk, Action.VIEW)\n    return rows\n",
        ),
        Example(
            "tournaments/web/example.py",
            "def page(request, pk):\n    if pk:\n"
            "        page = tournament_page_for(request, pk, Action.VIEW)\n    return pk\n",
        ),
        Example("tournaments/web/example.py", "from tournaments.web.access import tournament_page\n"),
    ),
)
