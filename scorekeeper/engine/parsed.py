"""A round as read from its input, before it is scored: what the reading fills in and the
checks across the sides look at."""

from __future__ import annotations

from dataclasses import dataclass, field

from .rules import RuleSet


@dataclass
class ParsedSide:
    """One side of a round as read from the input; a field is None where its check failed."""

    index: int
    path: str
    who: str
    name: str | None = None
    went_out: bool | None = False
    concealed: bool | None = False
    foot_picked_up: bool | None = True
    canastas: dict[str, int] | None = field(default_factory=dict)
    melded: int | None = 0
    melded_path: str = ""
    melded_by_cards: bool = False
    hand: int | None = 0
    hand_path: str = ""
    red_threes: int | None = 0
    red_in_hand: int | None = 0
    black_in_hand: int | None = 0
    exact_cuts: int | None = 0
    open_books: list[tuple[str, int]] | None = field(default_factory=list)
    # rank -> [(count, path)] from melded_cards and hand_cards, for the checks on what decks hold
    cards: dict[str, list[tuple[int, str]]] | None = field(default_factory=dict)
    # Black threes given in melded_cards, where the rules let them be melded when going out.
    melded_black_threes: int = 0


@dataclass
class ParsedRound:
    """A round that has been read and checked; score() turns it into a RoundResult."""

    rules: RuleSet
    round: int | None
    decks: int | None
    ended_by: str | None
    sides: list[ParsedSide] | None
