"""The lint rule "a game's views begin with their access call" (issue 35, item 1).

Every view reached by a game's link (a page of scoring/web/games taking `(request, token, ...)`,
every `@token_api` view of the API) makes its access decision as its first line, a plain call
that returns the `GameGrant` or raises the refusal: `grant = game_for_page(request, token, ...)`
(`scoring.web.games.access`) or `grant = game_for_api(request, token, ...)`
(`scoring.api.games.access`; `game_for_api_deferring` for the hole POST). The decorators that
decided before the view (`@game_page`, `game_grant_required`) are gone and refused. A `@token_api`
view taking POST honours the Idempotency-Key with `call_once`, after that call, so a refused client
is told it is refused, not about its key. The access modules themselves are left out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tools.access_rule import ACCESS_FILES, _first_statement, called_name, removed_decorator_uses
from tools.custom_check import Example, Rule, SourceFile

#: The one access call of a view reached by a game's link (`scoring.web.games.access`,
#: `scoring.api.games.access`): its first line, `grant = game_for_page(request, token, ...)`.
GAME_ACCESS_CALLS = frozenset({"game_for_page", "game_for_api", "game_for_api_deferring"})
#: The decorators that decided before the view (issue 35 item 1 made them plain calls).
REMOVED_GAME_DECORATORS = frozenset({"game_page", "game_grant_required"})
GAME_PAGES = "scoring/web/games/"


def _starts_with_access_call(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """`grant = game_for_...(request, token, ...)` first."""
    first = _first_statement(func)
    if not (isinstance(first, ast.Assign) and isinstance(first.value, ast.Call)):
        return False
    arguments = [ast.unparse(argument) for argument in first.value.args[:2]]
    return called_name(first.value) in GAME_ACCESS_CALLS and arguments == ["request", "token"]


def _is_game_view(
    func: ast.FunctionDef | ast.AsyncFunctionDef, path: str, token_api: ast.Call | None
) -> bool:
    """A view reached by a game's link: an API view made by `@token_api`, or a page of
    scoring/web/games taking `(request, token, ...)`."""
    if token_api is not None:
        return True
    parameters = [argument.arg for argument in func.args.args[:2]]
    return path.startswith(GAME_PAGES) and parameters == ["request", "token"]


def _posts_without_call_once(token_api: ast.Call, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A `@token_api` view taking POST whose Idempotency-Key is nowhere taken: no `call_once` in it,
    and no `own_idempotency=True` (the hole POST, which keeps its own keys)."""
    methods = token_api.args[0] if token_api.args else None
    posts = isinstance(methods, ast.List) and any(
        isinstance(method, ast.Constant) and method.value == "POST" for method in methods.elts
    )
    own = any(
        keyword.arg == "own_idempotency" and ast.unparse(keyword.value) == "True"
        for keyword in token_api.keywords
    )
    calls_once = any(
        isinstance(node, ast.Call) and called_name(node) == "call_once" for node in ast.walk(func)
    )
    return posts and not own and not calls_once


def game_views_without_access_call(source: SourceFile) -> Iterator[tuple[int, str]]:
    """Every game view that does not begin with its access call, and every use of a removed decorator."""
    for node in ast.walk(source.tree):
        yield from removed_decorator_uses(node, REMOVED_GAME_DECORATORS, "view")
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        token_api = next(
            (d for d in node.decorator_list if isinstance(d, ast.Call) and called_name(d) == "token_api"),
            None,
        )
        if _is_game_view(node, source.path, token_api) and not _starts_with_access_call(node):
            yield (
                node.lineno,
                f"{node.name}: a game view begins with grant = game_for_...(request, token, ...)",
            )
        if token_api is not None and _posts_without_call_once(token_api, node):
            yield (
                node.lineno,
                f"{node.name}: its POST takes the Idempotency-Key through call_once, after access",
            )


GAME_ACCESS_RULE = Rule(
    name="game-view-begins-with-access-call",
    description=(
        "A view reached by a game's link (a page of scoring/web/games taking `(request, token, ...)`, "
        "any `@token_api` view) begins, after its docstring, with its ONE access call: "
        "`grant = game_for_page(request, token, capability)` or `grant = game_for_api(request, token, "
        "writes=capability)` (`game_for_api_deferring` for the hole POST), which returns the "
        "GameGrant or raises the refusal. The removed decorators (`@game_page`, "
        "`game_grant_required`) decided before the view and are refused. A `@token_api` view "
        "taking POST honours the Idempotency-Key with `call_once` after that call (unless "
        "`own_idempotency=True`)."
    ),
    check=game_views_without_access_call,
    include=("scoring/web/*", "scoring/api/*", "tournaments/*", "clubs/*"),
    exclude=ACCESS_FILES,
    allow={},
    good=(
        Example(
            "scoring/web/games/example.py",
            "def page(request, token, can_edit):\n"
            '    """A page."""\n'
            "    grant = game_for_page(request, token, link_capability(can_edit))\n"
            "    return grant\n\n"
            "def _helper(request, grant):\n    return grant\n",
        ),
        Example(
            "scoring/api/games/example.py",
            '@token_api(["GET", "POST"])\n'
            "def view(request, token):\n"
            "    grant = game_for_api(request, token, writes=Capability.SCORE)\n"
            "    return call_once(request, _write, (grant,), {})\n\n"
            '@token_api(["GET", "POST"], own_idempotency=True)\n'
            "def holes(request, token):\n"
            "    grant = game_for_api_deferring(\n"
            '        request, token, writes=Capability.SCORE, deferred=("POST",)\n'
            "    )\n"
            "    return grant\n",
        ),
    ),
    bad=(
        Example(
            "scoring/web/games/example.py",
            "@game_page(Capability.SCORE)\ndef page(request, grant):\n    return grant\n",
        ),
        Example(
            "scoring/web/games/example.py",
            "def page(request, token):\n    game = load(token)\n"
            "    grant = game_for_page(request, token, Capability.VIEW)\n    return grant\n",
        ),
        Example(
            "scoring/api/games/example.py",
            '@token_api(["GET"])\ndef view(request, token):\n    return Response(token)\n',
        ),
        Example(
            "scoring/api/games/example.py",
            '@token_api(["POST"])\ndef view(request, token):\n'
            "    grant = game_for_api(request, token, writes=Capability.SCORE)\n    return write(grant)\n",
        ),
        Example("tournaments/api/example.py", "from scoring.api.games.access import game_grant_required\n"),
    ),
)
