"""The "Score a grid" page's result: the rules engine called on what the form says, shaped for templates.

Every number shown comes from the engine (score_grid, score_hole); this module only decides when a grid
is ready to score and what the result area says; `breakdown` turns the engine's scores into matches,
card points, adjustments and citations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.rules import (
    CardError,
    DeckError,
    Problem,
    RulesError,
    check_grid_cards,
    low_scorers,
    parse_card,
    parse_grid,
    score_grid,
    score_hole,
)
from scoring.web.grid_entry import filled_count, is_blank, is_complete, names_a_cell, token_problems

from .breakdown import GridBreakdown, PlayerResult, grid_breakdown, player_result
from .page_input import PlayerInput, ScoreInput


@dataclass(frozen=True, slots=True)
class ProblemLine:
    """A problem as listed in the result: whose grid (blank in grid mode) and what is wrong where."""

    who: str
    message: str
    at_cell: bool = False


@dataclass
class ScoreResult:
    """What the result area shows.

    state: "rules" (the rules need fixing), "empty" (no card yet), "incomplete", "error" or "scored".
    In grid mode `breakdown` holds the scored grid; in hole mode `players` holds one line per player.
    `problems` are engine problems by input path ("grid[1][3]", "grids.Ann[2][1]"), for the cells.
    """

    state: str
    announcement: str
    total: int | None = None
    breakdown: GridBreakdown | None = None
    players: list[PlayerResult] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    problem_lines: list[ProblemLine] = field(default_factory=list)
    to_go: int = 0

    @property
    def general_problems(self) -> list[ProblemLine]:
        """Problems not shown on a cell of a grid (rules, names, deck counts)."""
        return [line for line in self.problem_lines if not line.at_cell]

    @property
    def cell_problem_count(self) -> int:
        """How many problems are shown on cells of the grids."""
        return sum(1 for line in self.problem_lines if line.at_cell)


def grid_where(page: ScoreInput, player: PlayerInput) -> str:
    """The engine path of a player's grid: "grid" in grid mode, "grids.<name>" in hole mode."""
    return "grid" if page.mode == "grid" else f"grids.{player.display_name}"


def _moved(problems: Sequence[Problem], old: str, new: str) -> list[Problem]:
    """Problems of a grid scored alone ("grid[1][2]") renamed to its place in the hole ("grids.Ann[1][2]")."""
    return [
        replace(problem, where=new + problem.where.removeprefix(old))
        if problem.where.startswith(old)
        else problem
        for problem in problems
    ]


def _missing_and_bad(tokens: list[list[str]], where: str, jokers: bool) -> list[Problem]:
    """Every problem of an unfinished grid, missing cards included (the player pressed Score)."""
    try:
        parse_grid(tokens, where, jokers=jokers)
    except CardError as error:
        return list(error.problems)
    return []


def _too_many_so_far(page: ScoreInput, tokens: list[list[str]], where: str) -> list[Problem]:
    """The engine's deck check on the cards entered so far, so a fifth Queen is flagged when it is tapped.

    The cards are checked without their positions (some cells are empty), so the problem is the grid's."""
    entered = tuple(row for row in (tuple(parse_card(t) for t in row if t) for row in tokens) if row)
    if page.ruleset is None or not entered:
        return []
    players = len(page.players) if page.mode == "hole" else None
    try:
        check_grid_cards(entered, page.ruleset, players, where)
    except DeckError as error:
        return [replace(problem, where=where) for problem in error.problems]
    return []


def _problems_of_unfinished(page: ScoreInput, tokens: list[list[str]], where: str) -> list[Problem]:
    """What is wrong with a grid still being filled in: bad cards, too many of a card, and (once Score
    is pressed) missing cards."""
    # A ruleset without jokers is not offered them in the messages (as the live game's are not).
    jokers = page.ruleset is None or page.ruleset.jokers > 0
    if page.submitted:
        problems = _missing_and_bad(tokens, where, jokers)
    else:
        problems = token_problems(tokens, where, jokers)
    return problems or _too_many_so_far(page, tokens, where)


def _rules_problem_lines(page: ScoreInput) -> list[ProblemLine]:
    return [
        ProblemLine(str(page.rules.fields[name].label) if name in page.rules.fields else "", str(message))
        for name, messages in page.rules.errors.items()
        for message in messages
    ]


def _to_go_text(to_go: int) -> str:
    return ngettext("%(count)d card to go.", "%(count)d cards to go.", to_go) % {"count": to_go}


def _problems_text(problems: Sequence[object]) -> str:
    count = len(problems)
    return ngettext("%(count)d problem to fix.", "%(count)d problems to fix.", count) % {"count": count}


def score_grid_page(page: ScoreInput) -> ScoreResult:
    """Grid mode: score the one grid once every cell is filled; before that, check what is typed."""
    if page.ruleset is None:
        lines = _rules_problem_lines(page)
        return ScoreResult("rules", _problems_text(lines), problem_lines=lines)
    tokens = page.players[0].tokens
    cells = page.rows * page.cols
    if is_blank(tokens):
        return ScoreResult(
            "empty", _("Enter the %(count)d cards of the grid.") % {"count": cells}, to_go=cells
        )
    if not is_complete(tokens):
        problems = _problems_of_unfinished(page, tokens, "grid")
        to_go = cells - filled_count(tokens)
        announcement = _problems_text(problems) if problems else _to_go_text(to_go)
        return ScoreResult(
            "incomplete",
            announcement,
            problems=problems,
            problem_lines=[ProblemLine("", p.message, names_a_cell(p)) for p in problems],
            to_go=to_go,
        )
    try:
        score = score_grid(tokens, page.ruleset)
    except RulesError as error:
        problems = list(error.problems)
        lines = [ProblemLine("", p.message, names_a_cell(p)) for p in problems]
        return ScoreResult("error", _problems_text(problems), problems=problems, problem_lines=lines)
    return ScoreResult(
        "scored",
        _("Total: %(total)d") % {"total": score.total},
        total=score.total,
        breakdown=grid_breakdown(score, page.rows, page.cols),
    )


def score_hole_page(page: ScoreInput) -> ScoreResult:
    """Hole mode: each finished grid scores on its own at once; the hole (adjustments, ender penalty)
    scores when every grid is finished and the names are distinct."""
    if page.ruleset is None:
        lines = _rules_problem_lines(page)
        return ScoreResult("rules", _problems_text(lines), problem_lines=lines)
    problems: list[Problem] = []
    lines: list[ProblemLine] = []
    players: list[PlayerResult] = []
    to_go = 0
    for player in page.players:
        if player.name_error:
            lines.append(ProblemLine(player.display_name, player.name_error))
        result, found, missing = _grid_on_its_own(page, player)
        problems += found
        lines += [ProblemLine(player.display_name, p.message, names_a_cell(p)) for p in found]
        players.append(result)
        to_go += missing
    if lines:
        return ScoreResult(
            "error", _problems_text(lines), players=players, problems=problems, problem_lines=lines
        )
    if to_go:
        return ScoreResult("incomplete", _to_go_text(to_go), players=players, to_go=to_go)
    return _whole_hole(page, players)


def _grid_on_its_own(page: ScoreInput, player: PlayerInput) -> tuple[PlayerResult, list[Problem], int]:
    """A player's grid before the hole scores: its line (its grid score once finished), its
    problems, and how many of its cards are still missing."""
    assert page.ruleset is not None
    tokens = player.tokens
    found: list[Problem] = []
    grid_score: int | None = None
    breakdown = None
    missing = 0
    if not is_complete(tokens):
        found = _problems_of_unfinished(page, tokens, grid_where(page, player))
        missing = page.rows * page.cols - filled_count(tokens)
        status = _to_go_text(missing)
    else:
        try:
            scored = score_grid(tokens, page.ruleset, players=len(page.players))
        except RulesError as error:
            found = _moved(error.problems, "grid", grid_where(page, player))
            status = _("Check this grid.")
        else:
            grid_score, breakdown = scored.total, grid_breakdown(scored, page.rows, page.cols)
            status = ""
    result = PlayerResult(player.number, player.display_name, grid_score, (), None, breakdown, status)
    return result, found, missing


def _whole_hole(page: ScoreInput, players: list[PlayerResult]) -> ScoreResult:
    """The hole scored by the engine once every grid is finished, the lowest scores marked."""
    assert page.ruleset is not None
    entries = {player.display_name: player.tokens for player in page.players}
    try:
        hole = score_hole(entries, page.ruleset, ender=page.ender_name)
    except RulesError as error:
        problems = list(error.problems)
        lines = [ProblemLine("", p.message, names_a_cell(p)) for p in problems]
        return ScoreResult(
            "error", _problems_text(problems), players=players, problems=problems, problem_lines=lines
        )
    scored_players = [
        player_result(player.number, score, page.rows, page.cols)
        for player, score in zip(page.players, hole.players, strict=True)
    ]
    lows = low_scorers({i: p.score for i, p in enumerate(scored_players) if p.score is not None})
    scored_players = [replace(player, lowest=i in lows) for i, player in enumerate(scored_players)]
    announcement = "; ".join(f"{player.name}: {player.score}" for player in scored_players)
    return ScoreResult("scored", announcement, players=scored_players)


@dataclass(frozen=True, slots=True)
class GridTotal:
    """The line under one grid: its score so far, the hole score once known, or what is still missing."""

    total: int | None
    hole_score: int | None
    status: str


def grid_totals(page: ScoreInput, result: ScoreResult) -> list[GridTotal]:
    """One GridTotal per player of the page, in seat order."""
    if page.mode == "grid":
        status = "" if result.state == "scored" else result.announcement
        return [GridTotal(result.total, None, status)]
    if len(result.players) != len(page.players):
        return [GridTotal(None, None, "") for _player in page.players]
    return [GridTotal(player.grid_score, player.score, player.status) for player in result.players]
