"""A scored grid or hole shaped for the page: the engine's GridScore and PlayerHoleScore turned into
matches, a table of card points, adjustments and citations of the rules (the score page's and the
live game's breakdowns alike)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.rules import RULES, GridScore, PlayerHoleScore, cite
from scoring.web.numbers import minus_text
from scoring.web.rule_links import rule_url

Position = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Citation:
    """A rule reference as shown: "rule 2.3" and the section's title."""

    label: str
    title: str
    url: str = ""  # where the rule is explained (`scoring.web.rule_links.rule_url`)


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One match of the breakdown: "Column 1", the cards that cancel, the points, the rule."""

    kind: str
    title: str
    cards: str
    where: str
    points: int
    citation: Citation


@dataclass(frozen=True, slots=True)
class CardLine:
    """One card of the grid as scored: the card, its points, whether a match took it."""

    token: str
    name: str
    where: str
    points: int
    matched: bool
    citation: Citation


@dataclass(frozen=True, slots=True)
class GridBreakdown:
    """A scored grid, ready to draw."""

    total: int
    matches: tuple[MatchLine, ...]
    card_rows: tuple[tuple[CardLine, ...], ...]
    explanation: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AdjustmentLine:
    """A hole adjustment (block, ender penalty) as shown."""

    reason: str
    points: int
    citation: Citation


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's line in the hole result; scores are None until the whole hole can be scored."""

    number: int
    name: str
    grid_score: int | None
    adjustments: tuple[AdjustmentLine, ...]
    score: int | None
    breakdown: GridBreakdown | None
    status: str
    lowest: bool = False


def citation(rule: str) -> Citation:
    """A Citation for a rule key of the engine ("2.3", "seed 001", "project")."""
    return Citation(cite(rule), RULES.get(rule, ""), rule_url(rule))


def position_text(position: Position) -> str:
    """ "row 1, column 2" for the 0-based engine position (0, 1)."""
    return _("row %(row)d, column %(col)d") % {"row": position[0] + 1, "col": position[1] + 1}


def _match_title(kind: str, positions: Sequence[Position]) -> str:
    rows = {row for row, _col in positions}
    cols = {col for _row, col in positions}
    if kind == "column" and len(cols) == 1:
        return _("Column %(col)d") % {"col": next(iter(cols)) + 1}
    if kind == "row" and len(rows) == 1:
        return _("Row %(row)d") % {"row": next(iter(rows)) + 1}
    return {"diagonal": _("Diagonal"), "anywhere": _("Pair"), "column": _("Column"), "row": _("Row")}.get(
        kind, kind
    )


def grid_breakdown(score: GridScore, rows: int, cols: int) -> GridBreakdown:
    """Shape the engine's GridScore for the page: matches, a rows x cols table of card points, explanation."""
    cards_at = {card.position: card for card in score.cards}
    matches = tuple(
        MatchLine(
            kind=match.kind,
            title=_match_title(match.kind, match.positions),
            cards=" + ".join(str(cards_at[p].card) for p in match.positions if p in cards_at),
            where=" · ".join(position_text(p) for p in match.positions),
            points=match.points,
            citation=citation(match.rule),
        )
        for match in score.matches
    )
    card_rows = tuple(
        tuple(
            CardLine(
                token=str(cards_at[(r, c)].card),
                name=cards_at[(r, c)].card.name,
                where=position_text((r, c)),
                points=cards_at[(r, c)].points,
                matched=cards_at[(r, c)].matched,
                citation=citation(cards_at[(r, c)].rule),
            )
            for c in range(cols)
            if (r, c) in cards_at
        )
        for r in range(rows)
    )
    return GridBreakdown(
        score.total, matches, card_rows, tuple(minus_text(line) for line in score.explanation)
    )


def player_result(number: int, score: PlayerHoleScore, rows: int, cols: int) -> PlayerResult:
    """One player's scored hole."""
    return PlayerResult(
        number=number,
        name=score.name,
        grid_score=score.grid_score,
        adjustments=tuple(
            AdjustmentLine(adjustment.reason, adjustment.points, citation(adjustment.rule))
            for adjustment in score.adjustments
        ),
        score=score.score,
        breakdown=grid_breakdown(score.grid, rows, cols) if score.grid is not None else None,
        status="",
    )
