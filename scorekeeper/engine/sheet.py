"""The rows of a paper score sheet for a rule set, in the order a table fills them in."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import number
from .rules import RuleSet


@dataclass(frozen=True, slots=True)
class SheetItem:
    """One row of a round's block on a score sheet: the `Line.item` it holds and its label."""

    item: str
    label: str
    # Points per thing counted (negative for a penalty); None where the row holds points.
    each: int | None = None

    @property
    def heading(self) -> str:
        """`Red threes × 100`, `Red threes in hand × −300`, `Cards melded`."""
        if self.each is None:
            return self.label
        return f"{self.label} × {number(self.each)}"


def sheet_items(rules: RuleSet) -> tuple[SheetItem, ...]:
    """Every line `score_round` can give under these rules, in paper order: the bonuses a
    table settles first (cut, going out), what is left in hand, the threes, the canastas and
    last the cards laid down. Items the rules never score (no cut bonus, no foot penalty)
    are left out."""
    words = rules.words
    items: list[SheetItem] = []
    if rules.cut_bonus:
        items.append(SheetItem("exact_cuts", "Exact cut", rules.cut_bonus))
    items.append(SheetItem("going_out", "Going out"))
    if rules.concealed_bonus:
        items.append(SheetItem("going_out_concealed", "Going out concealed"))
    items.append(SheetItem("hand_cards", f"Cards left in {words['held']}"))
    if rules.red_three_in_hand_penalty:
        items.append(
            SheetItem("red_threes_in_hand", "Red threes in hand", -rules.red_three_in_hand_penalty)
        )
    if rules.black_three_in_hand_penalty:
        items.append(
            SheetItem(
                "black_threes_in_hand", "Black threes in hand", -rules.black_three_in_hand_penalty
            )
        )
    if rules.foot_penalty:
        items.append(
            SheetItem("foot_not_picked_up", f"{words['foot'].capitalize()} never picked up")
        )
    if rules.red_three_bonus:
        items.append(SheetItem("red_threes", "Red threes", rules.red_three_bonus))
    for kind, bonus in rules.canasta_bonus.items():
        items.append(SheetItem(f"{kind}_canastas", rules.label(kind), bonus))
    if rules.open_books_change_sides:
        for kind, bonus in rules.canasta_bonus.items():
            items.append(
                SheetItem(
                    f"taken_{kind}_canastas", f"{rules.label(kind)} taken from open books", bonus
                )
            )
    items.append(SheetItem("melded_cards", "Cards melded"))
    if rules.open_books_change_sides:
        items.append(SheetItem("taken_cards", "Cards in open books taken"))
        items.append(SheetItem("open_books_given", "Open books given away"))
    return tuple(items)
