"""The rules engine of Golf club: pure Python, no Django. See docs/engine.md and docs/rules.md."""

from .cards import RANKS, SUITS, Card, Grid, format_grid, parse_card, parse_grid
from .citations import RULES, cite
from .decks import check_grid_cards, check_table_cards
from .errors import CardError, DeckError, GridError, Problem, RulesError, RulesetError
from .grid import Block, CardScore, GridScore, Match, Position, grid_total, score_grid
from .hole import Adjustment, HoleScore, PlayerEntry, PlayerHoleScore, score_hole
from .holes import PlayedHole, PlayerTotals, holes_won, low_scorers, sum_totals
from .match import (
    MatchOutcome,
    TiebreakStep,
    dealer_for_hole,
    first_player_for_hole,
    match_over,
    rank_players,
)
from .match_state import MatchProgress, compute_match_state
from .presets import PRESETS
from .resolve import resolve_ruleset
from .ruleset import PARAMETERS, BlockRule, EnderPenalty, ParameterInfo, Ruleset
from .standings import EventStandings, PlayerRecord, StandingRow, rank_event, rank_records
from .tiebreak import METRICS, TiebreakData, TiebreakMetric, register_metric

__all__ = [
    "METRICS",
    "PARAMETERS",
    "PRESETS",
    "RANKS",
    "RULES",
    "SUITS",
    "Adjustment",
    "Block",
    "BlockRule",
    "Card",
    "CardError",
    "CardScore",
    "DeckError",
    "EnderPenalty",
    "EventStandings",
    "Grid",
    "GridError",
    "GridScore",
    "HoleScore",
    "Match",
    "MatchOutcome",
    "MatchProgress",
    "ParameterInfo",
    "PlayedHole",
    "PlayerEntry",
    "PlayerHoleScore",
    "PlayerRecord",
    "PlayerTotals",
    "Position",
    "Problem",
    "RulesError",
    "Ruleset",
    "RulesetError",
    "StandingRow",
    "TiebreakData",
    "TiebreakMetric",
    "TiebreakStep",
    "check_grid_cards",
    "check_table_cards",
    "cite",
    "compute_match_state",
    "dealer_for_hole",
    "first_player_for_hole",
    "format_grid",
    "grid_total",
    "holes_won",
    "low_scorers",
    "match_over",
    "parse_card",
    "parse_grid",
    "rank_event",
    "rank_players",
    "rank_records",
    "register_metric",
    "resolve_ruleset",
    "score_grid",
    "score_hole",
    "sum_totals",
]
