"""The round-scoring engine for Hand and Foot and its Canasta relatives: plain Python, no Django.

The web app, the PDF score cards, the league standings and the tests all score through here.
"""

from .cards import card_points
from .errors import FieldError, RoundError
from .game import GameRound, GameStatus, game_status, game_status_after
from .rules import (
    ROUND_MAX,
    RULESETS,
    TABLE_SIDES_MAX,
    RuleSet,
    get_ruleset,
    resolve_rules,
    table_rules,
)
from .scoring import Line, RoundResult, SideScore, score_round
from .sheet import SheetItem, sheet_items

__all__ = [
    "ROUND_MAX",
    "RULESETS",
    "TABLE_SIDES_MAX",
    "FieldError",
    "GameRound",
    "GameStatus",
    "Line",
    "RoundError",
    "RoundResult",
    "RuleSet",
    "SheetItem",
    "SideScore",
    "card_points",
    "game_status",
    "game_status_after",
    "get_ruleset",
    "resolve_rules",
    "score_round",
    "sheet_items",
    "table_rules",
]
