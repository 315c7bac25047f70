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
  (`page.allows(Action.RUN)`, `grant.can_manage`), so a rule about it has one home;
- in the clubs' views: a function reached by a club's id (a `club_id` parameter) that does not
  begin with the access call (`club_for_user(...)` in its first statement, the docstring aside), as
  a decorator's wrapper or a helper answering the refusal its own way did; and a clubs view that
  catches an access refusal (`except NotFoundInClub`, `except NotAnOwner`): refusals propagate to
  the one place that answers them (for a page the site's 404 page and `PageRefusalMiddleware`,
  the API's exception handler).

Two more rules check that the views make that call first: the game views
(tools/game_access_rule.py) and the tournament pages (tools/tournament_access_rule.py).

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


#: The clubs' access call, and the refusals it raises (answered in one place, never by a view).
CLUB_ACCESS_CALL = "club_for_user"
CLUB_REFUSALS = frozenset({"NotFoundInClub", "NotAnOwner"})


def _calls(node: ast.AST, name: str) -> bool:
    """Whether `node` holds a call of `name` (`name(...)` or `module.name(...)`)."""
    return any(
        isinstance(call, ast.Call)
        and (
            (isinstance(call.func, ast.Name) and call.func.id == name)
            or (isinstance(call.func, ast.Attribute) and call.func.attr == name)
        )
        for call in ast.walk(node)
    )


#: The statements that may make the access call: a plain one (no `try:`, `with`, `if` around it).
_PLAIN_STATEMENTS = (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return)


def _first_statement(function: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt | None:
    """The function's first statement after its docstring, when it is a plain one."""
    body = function.body[1:] if ast.get_docstring(function) is not None else function.body
    return body[0] if body and isinstance(body[0], _PLAIN_STATEMENTS) else None


def called_name(node: ast.expr) -> str:
    """`f` of `f`, `f(...)`, `module.f` and `module.f(...)`."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def removed_decorator_uses(node: ast.AST, removed: frozenset[str], what: str) -> Iterator[tuple[int, str]]:
    """Where `node` (an import or a function) uses one of the `removed` access decorators: each is
    now a plain call at the top of the `what` ("view", "page")."""
    if isinstance(node, ast.ImportFrom):
        for alias in node.names:
            if alias.name in removed:
                yield node.lineno, f"{alias.name}: removed; begin the {what} with its access call"
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        for decorator in node.decorator_list:
            if called_name(decorator) in removed:
                yield (
                    decorator.lineno,
                    f"@{called_name(decorator)}: removed; begin the {what} with its access call",
                )


def club_view_findings(source: SourceFile) -> Iterator[tuple[int, str]]:
    """A clubs view reached by a club's id that does not begin with its access call, and a clubs
    view that catches an access refusal instead of letting it reach the one place answering it."""
    for node in ast.walk(source.tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            names = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
            first = _first_statement(node)
            if "club_id" in names and (first is None or not _calls(first, CLUB_ACCESS_CALL)):
                yield node.lineno, f"{node.name}(): a club view begins with its access call, club_for_user()"
        elif isinstance(node, ast.ExceptHandler) and node.type is not None:
            caught = {ast.unparse(kind).rsplit(".", 1)[-1] for kind in _kinds(node.type)}
            for refusal in sorted(caught & CLUB_REFUSALS):
                yield node.lineno, f"except {refusal}: an access refusal propagates to its one answer"


def _kinds(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.Tuple) else [node]


def access_decisions(source: SourceFile) -> Iterator[tuple[int, str]]:
    """Every access decision this view module makes beside the one call of its access module."""
    if source.path.startswith("clubs/"):
        yield from club_view_findings(source)
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
        "`page.allows(Action.RUN)`). A clubs view reached by `club_id` begins with "
        "`club_for_user(...)` and catches no refusal (NotFoundInClub, NotAnOwner): they are "
        "answered in one place. The access modules themselves are left out."
    ),
    check=access_decisions,
    include=VIEWS,
    exclude=ACCESS_FILES,
    allow={
        # Not who may do what: an anonymous client's Idempotency-Keys are kept by its address.
        "scoring/api/write_once.py::write_once.once": "idempotency's scope, not access (effects' store)",
        # Not a club's access: an owner's invitation is for anybody logged in (its token decides).
        "clubs/web/manage_access.py::login_first": "an invitation's page asks for any logged-in user",
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
        Example(
            "clubs/web/example.py",
            "from clubs.access import ClubCapability, club_for_user\n\n"
            "def page(request, club_id):\n"
            '    """A page."""\n'
            "    grant = club_for_user(request.user, club_id, ClubCapability.MANAGE, owners_page=True)\n"
            "    return answer(request, grant)\n\n"
            "def _body(request, grant):\n    return grant.can_manage\n",
        ),
        Example(
            "clubs/api/example.py",
            "from clubs.access import club_for_user, need_for\n\n"
            "def view(request, club_id):\n"
            "    return answer(club_for_user(request.user, club_id, need_for(request.method)))\n",
        ),
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
        Example(  # a wrapper deciding for the view, and answering the refusal its own way
            "clubs/web/example.py",
            "from clubs.access import club_for_user\n\n"
            "def wrapper(request, club_id):\n"
            "    try:\n        return view(request, club_for_user(request.user, club_id))\n"
            "    except NotFoundInClub:\n        raise Http404 from None\n",
        ),
        Example(  # the decision made by a helper
            "clubs/web/example.py",
            "def page(request, club_id):\n    grant = grant_of(request, club_id)\n    return grant\n",
        ),
        Example(
            "clubs/api/example.py",
            "from clubs import errors\n\n"
            "def view(request, grant, member_id):\n"
            "    try:\n        return member_of(grant, member_id)\n"
            "    except (ValueError, errors.NotFoundInClub):\n        return None\n",
        ),
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
