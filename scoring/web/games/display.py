"""How the live-game pages put a game into words: titles, scorecard rows, the match end, history lines,
and the live preview of a hole being entered (scored by the rules engine).

Presentation only: nothing here writes, and everything it shows comes from what the selectors read
(or, for the preview, from the engine).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from golfclub.core.inputs import int_or_none
from scoring import selectors, services
from scoring.game_errors import ANSWERED_ERRORS
from scoring.models import Game, GameChange
from scoring.rules import PlayerHoleScore, RulesError, Ruleset, parse_grid, score_grid
from scoring.web.calculator.breakdown import AdjustmentLine, citation, grid_breakdown
from scoring.web.games.hole_forms import HoleForm, bad_cards, named_problem
from scoring.web.numbers import minus_sign

TIEBREAK_NAMES = {
    "countback": gettext_lazy("Countback"),
    "most_holes_won": gettext_lazy("Most holes won"),
    "sudden_death": gettext_lazy("Sudden death"),
    "shared": gettext_lazy("Shared victory"),
}


def game_title(game: Game, names: Sequence[str] | None = None) -> str:
    """The game's title, or its players' names."""
    if game.title:
        return game.title
    names = list(names) if names is not None else [seat.name for seat in game.seats.all()]
    if len(names) > 1:
        return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}
    return str(game)


@dataclass(frozen=True)
class ScoreCell:
    """One hole score on the scorecard, with the link to its breakdown (built once, not per render
    of a template tag: a scorecard of 18 holes x 6 players has 108 of them)."""

    score: int
    shown: str  # the score as people read it (a minus sign, not a hyphen)
    is_low: bool
    typed: bool
    seat: int
    url: str
    label: str

    @property
    def html(self) -> str:
        """The cell's <td>, made once here: a scorecard has up to 100-odd cells and a template
        renders each of their tags one node at a time."""
        classes = " ".join(name for name, on in (("best", self.is_low), ("typed", self.typed)) if on)
        return format_html(
            '<td class="{}"><a href="{}" aria-label="{}">{}</a></td>',
            classes,
            self.url,
            self.label,
            self.shown,
        )


@dataclass
class ScoreRow:
    """A player's row on the scorecard: the hole scores in order (None where the hole lacks them)."""

    player: selectors.SeatLine
    cells: list[ScoreCell | None]
    playoff_cells: list[ScoreCell | None]

    @property
    def in_playoff(self) -> bool:
        """True when the player played at least one playoff hole."""
        return any(cell is not None for cell in self.playoff_cells)


def score_rows(board: selectors.Scoreboard, token: str, can_edit: bool) -> list[ScoreRow]:
    """One row per player in seat order, the cells aligned with the board's holes, each cell
    linking to its hole's breakdown (the scorer's or the watcher's page, by the link in use)."""
    prefix = "games:" if can_edit else "games:view-"
    hole_urls = [reverse(f"{prefix}hole-scores", args=[token, hole.number]) for hole in board.holes]
    playoff_urls = [
        reverse(f"{prefix}playoff-scores", args=[token, hole.number]) for hole in board.playoff_holes
    ]
    rows = []
    for player in board.players:
        cells = [
            _score_cell(hole.entry_for(player.name), player.name, number, url, playoff=False)
            for number, (hole, url) in enumerate(zip(board.holes, hole_urls, strict=True), start=1)
        ]
        playoff_cells = [
            _score_cell(hole.entry_for(player.name), player.name, number, url, playoff=True)
            for number, (hole, url) in enumerate(zip(board.playoff_holes, playoff_urls, strict=True), start=1)
        ]
        rows.append(ScoreRow(player=player, cells=cells, playoff_cells=playoff_cells))
    return rows


def _score_cell(
    entry: selectors.EntryLine | None, name: str, number: int, url: str, *, playoff: bool
) -> ScoreCell | None:
    if entry is None:
        return None
    values = {"name": name, "n": number, "score": minus_sign(entry.score)}
    if playoff:
        label = _("%(name)s, playoff hole %(n)s: %(score)s. How it was scored") % values
    elif entry.typed:
        label = _("%(name)s, hole %(n)s: %(score)s (typed total). How it was scored") % values
    else:
        label = _("%(name)s, hole %(n)s: %(score)s. How it was scored") % values
    return ScoreCell(
        score=entry.score,
        shown=minus_sign(entry.score),
        is_low=entry.is_low,
        typed=entry.typed,
        seat=entry.seat,
        url=f"{url}#p-{entry.seat}",
        label=label,
    )


def outcome_context(board: selectors.Scoreboard) -> dict[str, Any]:
    """The match end as the page announces it: winners, shared victory, tiebreak steps, playoff."""
    outcome = board.outcome
    if outcome is None:
        return {}
    steps = [
        {
            "name": TIEBREAK_NAMES.get(step.method, step.method),
            "players": step.players,
            "values": list(step.values),
            "decided": step.decided,
            "explanation": step.explanation,
        }
        for step in outcome.steps
    ]
    return {
        "status": outcome.status,
        "winners": list(outcome.winners),
        "contenders": list(outcome.contenders),
        "steps": steps,
        "explanation": list(outcome.explanation),
        "order": [
            {"names": list(group), "total": board.totals.get(group[0], 0) if group else None}
            for group in outcome.order
        ],
        "shared": board.shared_victory or outcome.status == "shared",
    }


def cards_text(entry: dict[str, Any]) -> str:
    """A snapshot entry's cards, "Q 7 K / Q 7 3", or "typed" for a typed total."""
    if entry.get("cards"):
        return " / ".join(" ".join(str(card) for card in row) for row in entry["cards"])
    return _("typed")


def scores_text(snapshot: Any) -> str:
    """A hole snapshot in one line: "Ann 5 · Bob 12 · ended by Bob"."""
    if not isinstance(snapshot, dict) or "entries" not in snapshot:
        return ""
    text = " · ".join(f"{e['name']} {minus_sign(e['score'])}" for e in snapshot["entries"])
    if snapshot.get("ender"):
        text += " · " + _("ended by %(name)s") % {"name": snapshot["ender"]}
    return text


def changes(before: Any, after: Any) -> list[dict[str, str]]:
    """What an edit changed, player by player: score and cards before and after."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    old = {e["seat"]: e for e in before.get("entries", [])}
    lines = []
    for entry in after.get("entries", []):
        previous = old.get(entry["seat"])
        if previous is None:
            continue
        same = (previous.get("cards"), previous.get("total"), previous.get("score")) == (
            entry.get("cards"),
            entry.get("total"),
            entry.get("score"),
        )
        if not same:
            lines.append(
                {
                    "name": entry["name"],
                    "before": f"{minus_sign(previous['score'])} ({cards_text(previous)})",
                    "after": f"{minus_sign(entry['score'])} ({cards_text(entry)})",
                }
            )
    if before.get("ender") != after.get("ender"):
        nobody = _("nobody")
        lines.append(
            {
                "name": _("ended by"),
                "before": before.get("ender") or nobody,
                "after": after.get("ender") or nobody,
            }
        )
    return lines


def history_item(line: selectors.HistoryLine) -> dict[str, Any]:
    """A change as the history list shows it: what, who, when, why (when given), before and after."""
    if line.hole_number is None:
        subject = _("Rules")
    elif line.is_playoff:
        subject = _("Playoff hole %(n)s") % {"n": line.hole_number}
    else:
        subject = _("Hole %(n)s") % {"n": line.hole_number}
    # A change of the whole game (rules, an early ending, a resume) has no hole scores to show.
    is_ruleset = line.action in ("ruleset", "end", "resume")
    return {
        "id": line.id,
        "action": line.action,
        "label": line.action_label,
        "subject": subject,
        # The whole change in words, what became of it included ("Hole 9 recorded, then undone").
        "headline": line.summary,
        "actor": line.actor or _("someone"),
        "when": line.created_at,
        "reason": line.reason,
        "before": "" if is_ruleset else scores_text(line.before),
        "after": "" if is_ruleset else scores_text(line.after),
        "changes": [] if is_ruleset else changes(line.before, line.after),
        "undone": line.undone,
    }


def preview_scores(
    form: HoleForm, board: selectors.Scoreboard, *, editing: selectors.HoleLine | None
) -> dict[str, Any]:
    """Score what the form holds with the engine: each player's hole score, or what is wrong."""
    entries, ender = form.partial_entries()
    ruleset = board.ruleset
    engine_entries, problems, bad = _entries_to_score(form, entries, ruleset)
    scored = None
    if engine_entries:
        good = {entry.name for entry in engine_entries}
        try:
            # The save's own pipeline, so the preview never shows a score the save would not store.
            scored = services.score_hole_entries(
                engine_entries, ruleset, ender=ender if ender in good else None, table_size=len(board.players)
            ).score
        except ANSWERED_ERRORS as error:  # the table as a whole (more cards than the packs hold)
            problems += [p.message for p in error.problems]
    for index, name in enumerate(form.players):
        if name not in entries:  # half-filled: name its typos now, its empty cells only on save
            problems += [problem.message for problem in bad_cards(name, form.tokens(index), ruleset)]
    by_name = {p.name: p for p in scored.players} if scored else {}
    playoff = editing.is_playoff if editing else bool(board.next_hole and board.next_hole.is_playoff)
    replaced = {e.name: e.score for e in editing.entries} if editing else {}
    rows: list[dict[str, Any]] = []
    for seat, name in enumerate(form.players):
        result = by_name.get(name)
        match_total = None
        if result is not None and not playoff:
            # Playoff holes never change the match totals, so only regular holes show one.
            match_total = board.totals.get(name, 0) - replaced.get(name, 0) + result.score
        row = _preview_row(result, ruleset) | {"match_total": match_total}
        rows.append({"name": name, "seat": seat, "entered": name in entries, "bad": name in bad} | row)
    missing = [row["name"] for row in rows if not row["entered"]]
    return {"rows": rows, "problems": problems, "missing": missing, "complete": not missing and not problems}


def _entries_to_score(
    form: HoleForm, entries: dict[str, Any], ruleset: Ruleset
) -> tuple[list[services.EntryToScore], list[str], set[str]]:
    """The entered grids and totals ready for the engine, each grid checked on its own first (its
    cards, its shape, the joker rule): one player's bad grid shows that player's error and leaves
    everyone else's score on screen. Answers (the entries, the problems, the players with a bad grid)."""
    blocks: dict[str, int] = {}
    for index, name in enumerate(form.players):
        marked = int_or_none(form.data.get(f"p{index}-blocks"), minimum=0)
        if marked is not None:
            blocks[name] = marked
    problems: list[str] = []
    bad: set[str] = set()
    engine_entries: list[services.EntryToScore] = []
    for name in form.players:
        if name not in entries:
            continue
        value = entries[name]
        marked = blocks.get(name, 0)
        if isinstance(value, int):
            engine_entries.append(services.EntryToScore(name=name, total=value, blocks_marked=marked))
            continue
        try:
            score_grid(parse_grid(value, where=f"entries.{name}", jokers=ruleset.jokers > 0), ruleset)
        except RulesError as error:
            problems += [named_problem(name, p.message) for p in error.problems]
            bad.add(name)
            continue
        engine_entries.append(services.EntryToScore(name=name, cards=value, blocks_marked=marked))
    return engine_entries, problems, bad


def _preview_row(result: PlayerHoleScore | None, ruleset: Ruleset) -> dict[str, Any]:
    """A player's scores in the preview (all empty until the engine scored them)."""
    if result is None:
        return {"score": None, "grid_score": None, "adjustments": [], "breakdown": None, "cited": []}
    return {
        "score": result.score,
        "grid_score": result.grid_score,
        "adjustments": list(result.adjustments),
        # How the score was made, drawn like /score/ draws it (the engine's breakdown, rules cited).
        "breakdown": (
            grid_breakdown(result.grid, ruleset.rows, ruleset.cols) if result.grid is not None else None
        ),
        "cited": [AdjustmentLine(a.reason, a.points, citation(a.rule)) for a in result.adjustments],
    }


def change_summary(change: GameChange) -> dict[str, str]:
    """What a change did, for the message after an undo: {"label": "Recorded", "subject": "hole 3"}."""
    if change.hole_number is None:
        subject = _("rules")
    elif change.is_playoff:
        subject = _("playoff hole %(n)s") % {"n": change.hole_number}
    else:
        subject = _("hole %(n)s") % {"n": change.hole_number}
    return {"label": str(change.get_action_display()), "subject": subject}


def entry_breakdown(entry: selectors.EntryLine, ruleset: Ruleset) -> dict[str, Any]:
    """How one player's recorded hole score was made, drawn like /score/ draws it: the grid's matches,
    card points and line-by-line explanation from the engine, then the hole adjustments, each citing
    its rule. A typed total has no cards, so only the total and its adjustments."""
    breakdown = None
    if entry.cards:
        try:
            grid = score_grid(entry.cards, ruleset)
        except RulesError:
            grid = None
        if grid is not None:
            breakdown = grid_breakdown(grid, len(entry.cards), len(entry.cards[0]))
    adjustments = [
        AdjustmentLine(str(a.get("reason", "")), int(a.get("points", 0)), citation(str(a.get("rule", ""))))
        for a in entry.adjustments
        if isinstance(a, dict)
    ]
    return {
        "name": entry.name,
        "seat": entry.seat,
        "score": entry.score,
        "grid_score": entry.grid_score,
        "typed": entry.typed,
        "adjustments": adjustments,
        "breakdown": breakdown,
        "is_low": entry.is_low,
    }
