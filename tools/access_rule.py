"""The lint rule "no access decision outside the access modules" (issue 35, items 1 and 6).

Every view reaches its object through ONE call of its app's access module, which answers the object
and what the caller may do (`scoring.access.decide` behind the games' access calls, `game_for_page`
and `game_for_api`, `tournaments.access.tournament_for_user`, `clubs.access.club_for_user`); the
view then reads the answer (`grant.can_manage`, `page.sees_live_standings`). So, in the views (the
`web` and `api` packages of scoring, tournaments and clubs) but not in their access modules, this
rule finds:

- a call of a decision's internals imported from an access module (`role_of`, `allowed_actions`,
  `may`, `require`, `decide`, `grant_for`, `sees_seating`, `sees_live_standings`, ...): the
  decision made a second time beside the one call;
- `.is_authenticated`: a login test is an access decision too (`require_login`, `login_first`,
  the page decorators make it);
- a comparison with `StandingsRelease.LIVE`: who sees live standings is decided by
  `tournaments.access.sees_live_standings` only;
- a capability tested by hand (`Action.RUN in page.actions`): the grant answers it
  (`page.allows(Action.RUN)`, `grant.can_manage`), so a rule about it has one home.

A second rule (`GAME_ACCESS_RULE`, below) checks that the game views make that call first.

Templates may still show what the caller may do (`{% if "officiate" in page.actions %}`): they read
the grant, they decide nothing. What the rule cannot see is a decision written another way (a
role compared by hand with a user's id): that is left to review.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tools.custom_check import Example, Rule, SourceFile

ACCESS_MODULES = frozenset({"scoring.access", "tournaments.access", "clubs.access"})

#: What an access module decides with, inside its one call: never called by a view.
DECISION_INTERNALS = frozenset(
    {
        "role_of",
        "allowed_actions",
        "may",
        "require",
        "refuse_unless_allowed",
        "tournament_grant",
        "sees_seating",
        "sees_live_standings",
        "table_staff_capabilities",
        "decide",
        "grant_for",
        "capabilities_of",
        "is_owner",
    }
)

VIEWS = tuple(f"{app}/{layer}/*" for app in ("scoring", "tournaments", "clubs") for layer in ("web", "api"))
ACCESS_FILES = (
    "scoring/web/games/access.py",
    "scoring/api/games/access.py",
    "tournaments/web/access.py",
    "clubs/web/manage_access.py",
)


def _access_names(source: SourceFile) -> tuple[dict[str, str], set[str]]:
    """The decision internals this module imports (local name -> name) and the local names it binds
    to the access modules themselves (`from tournaments import access`)."""
    internals: dict[str, str] = {}
    modules: set[str] = set()
    for node in ast.walk(source.tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                local = alias.asname or alias.name
                if node.module in ACCESS_MODULES and alias.name in DECISION_INTERNALS:
                    internals[local] = alias.name
                elif f"{node.module}.{alias.name}" in ACCESS_MODULES:
                    modules.add(local)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ACCESS_MODULES:
                    modules.add(alias.asname or alias.name)
    return internals, modules


def _decision_called(node: ast.Call, internals: dict[str, str], modules: set[str]) -> str | None:
    """The internal this call makes, if it is one."""
    func = node.func
    if isinstance(func, ast.Name):
        return internals.get(func.id)
    if isinstance(func, ast.Attribute) and func.attr in DECISION_INTERNALS:
        return func.attr if ast.unparse(func.value) in modules else None
    return None


def _is_live_release(node: ast.expr) -> bool:
    return ast.unparse(node) in {"StandingsRelease.LIVE", "models.StandingsRelease.LIVE"}


CAPABILITY_KINDS = frozenset({"Action", "Capability", "ClubCapability"})


def _capability_tested_by_hand(node: ast.Compare) -> bool:
    """`Action.RUN in page.actions` (or `not in`), rather than `page.allows(Action.RUN)`."""
    left = node.left
    return (
        any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
        and isinstance(left, ast.Attribute)
        and isinstance(left.value, ast.Name)
        and left.value.id in CAPABILITY_KINDS
    )


def access_decisions(source: SourceFile) -> Iterator[tuple[int, str]]:
    """Every access decision this view module makes beside the one call of its access module."""
    internals, modules = _access_names(source)
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Call) and (name := _decision_called(node, internals, modules)):
            yield node.lineno, f"{name}(): a view makes one access call and reads its grant"
        elif isinstance(node, ast.Attribute) and node.attr == "is_authenticated":
            yield node.lineno, "is_authenticated: the access module decides who is let in"
        elif isinstance(node, ast.Compare) and any(map(_is_live_release, [node.left, *node.comparators])):
            yield node.lineno, "StandingsRelease.LIVE: who sees live standings is sees_live_standings()"
        elif isinstance(node, ast.Compare) and _capability_tested_by_hand(node):
            yield node.lineno, f"{ast.unparse(node.left)} tested by hand: ask the grant (grant.allows)"


ACCESS_RULE = Rule(
    name="access-decision-outside-access-modules",
    description=(
        "A view (the web and api packages of scoring, tournaments and clubs) makes ONE call of its "
        "app's access module and reads what it answers: it calls none of that module's internals "
        "(role_of, allowed_actions, may, require, decide, grant_for, sees_seating, "
        "sees_live_standings...), tests no is_authenticated, compares nothing with "
        "StandingsRelease.LIVE and tests no capability by hand (`Action.RUN in page.actions`: "
        "`page.allows(Action.RUN)`). The access modules themselves are left out."
    ),
    check=access_decisions,
    include=VIEWS,
    exclude=ACCESS_FILES,
    allow={
        # Not who may do what: an anonymous client's Idempotency-Keys are kept by its address.
        "scoring/api/write_once.py::write_once.once": "idempotency's scope, not access (effects' store)",
    },
    good=(
        Example(
            "tournaments/web/example.py",
            "from tournaments.access import Action, tournament_for_user\n\n"
            "def page(request, pk):\n"
            "    grant = tournament_for_user(request.user, pk, Action.VIEW)\n"
            "    return grant.sees_live_standings and grant.allows(Action.RUN)\n",
        ),
        Example(
            "tournaments/web/access.py",
            "from tournaments.access import role_of\n\ndef wrapper(request, t):\n"
            "    return request.user.is_authenticated and role_of(request.user, t)\n",
        ),
        Example("tournaments/services/example.py", "def f(user):\n    return user.is_authenticated\n"),
    ),
    bad=(
        Example(
            "tournaments/api/example.py",
            "from tournaments.access import Action, may\n\n"
            "def view(request, t):\n    return may(request.user, t, Action.SEE_LIVE)\n",
        ),
        Example(
            "scoring/web/games/example.py",
            "from scoring import access\n\ndef view(request, token):\n    return access.decide(token)\n",
        ),
        Example("clubs/web/example.py", "def view(request):\n    return request.user.is_authenticated\n"),
        Example(
            "tournaments/web/example.py",
            "from tournaments.access import Action\n\n"
            "def view(page):\n    return Action.RUN not in page.actions\n",
        ),
        Example(
            "tournaments/web/example.py",
            "from tournaments.models import StandingsRelease\n\n"
            "def live(t):\n    return t.standings_release == StandingsRelease.LIVE\n",
        ),
    ),
)


# --------------------------------------------------------------------------------------------
# A game's views begin with their access call

#: The one access call of a view reached by a game's link (`scoring.web.games.access`,
#: `scoring.api.games.access`): its first line, `grant = game_for_page(request, token, ...)`.
GAME_ACCESS_CALLS = frozenset({"game_for_page", "game_for_api", "game_for_api_deferring"})
#: The decorators that decided before the view (issue 35 item 1 made them plain calls).
REMOVED_GAME_DECORATORS = frozenset({"game_page", "game_grant_required"})
GAME_PAGES = "scoring/web/games/"


def _called_name(node: ast.expr) -> str:
    """`f` of `f`, `f(...)`, `module.f` and `module.f(...)`."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def _first_statement(func: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt | None:
    """The function's first statement after its docstring."""
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return body[0] if body else None


def _starts_with_access_call(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """`grant = game_for_...(request, token, ...)` first."""
    first = _first_statement(func)
    if not (isinstance(first, ast.Assign) and isinstance(first.value, ast.Call)):
        return False
    arguments = [ast.unparse(argument) for argument in first.value.args[:2]]
    return _called_name(first.value) in GAME_ACCESS_CALLS and arguments == ["request", "token"]


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
        isinstance(node, ast.Call) and _called_name(node) == "call_once" for node in ast.walk(func)
    )
    return posts and not own and not calls_once


def game_views_without_access_call(source: SourceFile) -> Iterator[tuple[int, str]]:
    """Every game view that does not begin with its access call, and every use of a removed decorator."""
    for node in ast.walk(source.tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in REMOVED_GAME_DECORATORS:
                    yield node.lineno, f"{alias.name}: removed; begin the view with its access call"
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            if _called_name(decorator) in REMOVED_GAME_DECORATORS:
                yield (
                    decorator.lineno,
                    f"@{_called_name(decorator)}: removed; begin the view with its access call",
                )
        token_api = next(
            (d for d in node.decorator_list if isinstance(d, ast.Call) and _called_name(d) == "token_api"),
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
