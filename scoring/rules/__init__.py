"""The rules engine of Golf club: pure Python, no Django. See docs/engine.md and docs/rules.md."""

from .cards import RANKS, SUITS, Card, Grid, format_grid, parse_card, parse_grid
from .citations import RULES, cite
from .decks import check_grid_cards, check_table_cards
from .errors import CardError, DeckError, GridError, Problem, RulesError, RulesetError
from .grid import Block, CardScore, GridScore, Match, Position, grid_total, score_grid
from .hole import Adjustment, HoleScore, PlayerEntry, PlayerHoleScore, score_hole
from .match import (
    MatchOutcome,
    TiebreakStep,
    dealer_for_hole,
    first_player_for_hole,
    match_over,
    rank_players,
)
from .ruleset import PARAMETERS, PRESETS, BlockRule, EnderPenalty, ParameterInfo, Ruleset, resolve_ruleset

__all__ = [
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
    "Grid",
    "GridError",
    "GridScore",
    "HoleScore",
    "Match",
    "MatchOutcome",
    "ParameterInfo",
    "PlayerEntry",
    "PlayerHoleScore",
    "Position",
    "Problem",
    "RulesError",
    "Ruleset",
    "RulesetError",
    "TiebreakStep",
    "check_grid_cards",
    "check_table_cards",
    "cite",
    "dealer_for_hole",
    "first_player_for_hole",
    "format_grid",
    "grid_total",
    "match_over",
    "parse_card",
    "parse_grid",
    "rank_players",
    "resolve_ruleset",
    "score_grid",
    "score_hole",
]
