"""The round form: which fields a rule set uses, posted values to engine input, errors to fields.

Plain Python with no Django import: the server's round page (`scorekeeper.rounds.page`) and the
phone's offline round form (through `phone`, packed for the browser) read a form the same way.

Field names are `s<side>-<engine field>` (`s1-canastas-natural`, `s0-melded_cards-K`), so an
engine error path (`sides[1].canastas.natural`) leads straight to the field it is about.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import engine
from scorekeeper.engine.cards import allowed_ranks
from scorekeeper.engine.formatting import signed

OPEN_BOOK_ROWS = 3
RANK_LABELS = {"joker": "Joker", "black3": "Black 3"}
STOCK = "stock"


@dataclass(frozen=True)
class Field:
    key: str
    name: str
    kind: str  # "count", "points", "flag"
    value: str = ""
    errors: tuple[str, ...] = ()
    help: str = ""
    step: int = 1
    # What one counts for ("+100 each"): part of the label, drawn under its name.
    amount: str = ""

    @property
    def label(self) -> str:
        """`Red threes laid down (+100 each)`: what the field and its buttons are called."""
        return f"{self.name} ({self.amount})" if self.amount else self.name


@dataclass(frozen=True)
class CardCount:
    key: str
    rank: str
    label: str
    points: int
    value: str = ""
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pile:
    """A points field with its count-cards helper."""

    points: Field
    cards_key: str
    cards: tuple[CardCount, ...]
    errors: tuple[str, ...] = ()
    # What its cards are called in the count-cards helper: "Cards laid down".
    heading: str = ""

    @property
    def counting(self) -> bool:
        return any(card.value not in ("", "0") for card in self.cards)


@dataclass(frozen=True)
class OpenBook:
    kind_key: str
    points_key: str
    kind: str
    points: str
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class SideBlock:
    index: int
    side: Any  # the game's Side row on the server, its name on the phone
    key: str
    is_dealer: bool
    went_out_value: str
    canastas: tuple[Field, ...]
    canastas_errors: tuple[str, ...]
    before_piles: tuple[Field, ...]
    melded: Pile
    hand: Pile
    after_piles: tuple[Field, ...]
    open_books: tuple[OpenBook, ...]
    errors: tuple[str, ...]


@dataclass(frozen=True)
class RoundForm:
    rules: engine.RuleSet
    blocks: tuple[SideBlock, ...]
    went_out: str
    went_out_errors: tuple[str, ...]
    errors: tuple[str, ...]
    kinds: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def slots(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every error container on the form with its errors (empty ones too, to clear them)."""
        out = [("__all__", self.errors), ("went_out", self.went_out_errors)]
        for block in self.blocks:
            out.append((block.key, block.errors))
            out.append((f"{block.key}-canastas", block.canastas_errors))
            for f in (*block.canastas, *block.before_piles, *block.after_piles):
                out.append((f.key, f.errors))
            for pile in (block.melded, block.hand):
                out.append((pile.points.key, pile.points.errors))
                out.append((pile.cards_key, pile.errors))
                out.extend((card.key, card.errors) for card in pile.cards)
            out.extend((book.points_key, book.errors) for book in block.open_books)
        return out

    def errors_in_page_order(self) -> list[tuple[str | None, tuple[str, ...]]]:
        """Every error slot with errors, in the order the page shows them, each with the id of
        the field to focus for it (None for the form's own errors, shown at its top)."""
        out: list[tuple[str | None, tuple[str, ...]]] = [(None, self.errors)]
        if self.blocks:
            out.append((f"went_out-{self.blocks[0].went_out_value}", self.went_out_errors))
        for block in self.blocks:
            first = block.canastas[0].key if block.canastas else block.melded.points.key
            flags = [f for f in block.before_piles if f.kind == "flag"]
            counts = [f for f in block.before_piles if f.kind != "flag"]
            out.append((first, block.errors))
            out.extend((f.key, f.errors) for f in (*flags, *block.canastas))
            out.append((first, block.canastas_errors))
            out.extend((f.key, f.errors) for f in counts)
            for pile in (block.melded, block.hand):
                out.append((pile.points.key, pile.points.errors))
                out.append((pile.cards[0].key if pile.cards else pile.points.key, pile.errors))
                out.extend((card.key, card.errors) for card in pile.cards)
            out.extend((f.key, f.errors) for f in block.after_piles)
            out.extend((book.points_key, book.errors) for book in block.open_books)
        return [(key, errors) for key, errors in out if errors]

    @property
    def error_count(self) -> int:
        return len(self.errors_in_page_order())

    @property
    def focus(self) -> str | None:
        """The field a refused Save focuses: the first one with an error."""
        return next((key for key, _ in self.errors_in_page_order() if key), None)

    @property
    def has_errors(self) -> bool:
        return bool(self.errors_in_page_order())


def posted_round_number(data: Mapping[str, str]) -> int | None:
    """The round a round or delete form was opened for (its hidden `round_number`), or None
    when the form carries no round number."""
    posted = data.get("round_number", "")
    if re.fullmatch("[0-9]{1,6}", posted) and int(posted) >= 1:
        return int(posted)
    return None


def _whole_or_raw(raw: str) -> Any:
    raw = raw.strip()
    # Anything but a whole number goes to the engine as typed, which refuses it in words.
    return int(raw) if re.fullmatch(r"-?[0-9]{1,12}", raw) else raw


def parse(
    rules: engine.RuleSet, side_count: int, data: Mapping[str, str], dealer: int | None
) -> tuple[str, list[dict[str, Any]], list[engine.FieldError]]:
    """Posted form values as the engine's round input: (ended_by, entry per side, form errors)."""
    went_out = data.get("went_out", "")
    problems: list[engine.FieldError] = []
    if went_out == STOCK:
        ended_by = "stock_exhausted"
    else:
        ended_by = "going_out"
        if went_out not in {f"s{i}" for i in range(side_count)}:
            problems.append(
                engine.FieldError(
                    "went_out",
                    f"Choose the {rules.words['side']} that went out, or that the stock ran out.",
                )
            )
    entry = []
    for index in range(side_count):
        prefix = f"s{index}-"
        side: dict[str, Any] = {}
        if went_out == f"s{index}":
            side["went_out"] = True
        if rules.cut_bonus and index == dealer and data.get(prefix + "exact_cuts"):
            side["exact_cuts"] = 1
        if rules.concealed_bonus and data.get(prefix + "went_out_concealed"):
            side["went_out_concealed"] = True
        canastas = {}
        for kind in rules.kinds:
            raw = data.get(f"{prefix}canastas-{kind}", "").strip()
            if raw:
                canastas[kind] = _whole_or_raw(raw)
        if canastas:
            side["canastas"] = canastas
        for name in _used_counts(rules):
            raw = data.get(prefix + name, "").strip()
            if raw:
                side[name] = _whole_or_raw(raw)
        for pile in ("melded", "hand"):
            cards = {}
            for rank in _ranks(rules, pile):
                raw = data.get(f"{prefix}{pile}_cards-{rank}", "").strip()
                if raw and raw != "0":
                    cards[rank] = _whole_or_raw(raw)
            if cards:
                # Counted cards replace the typed points: the helper fills the points in.
                side[f"{pile}_cards"] = cards
            else:
                raw = data.get(f"{prefix}{pile}_points", "").strip()
                if raw:
                    side[f"{pile}_points"] = _whole_or_raw(raw)
        if rules.foot_penalty and data.get(prefix + "foot_missed"):
            side["foot_picked_up"] = False
        if rules.open_books_change_sides:
            books = []
            for row in range(OPEN_BOOK_ROWS):
                kind = data.get(f"{prefix}open_books-{row}-kind", "").strip()
                points = data.get(f"{prefix}open_books-{row}-points", "").strip()
                if kind or points:
                    books.append({"kind": kind, "points": _whole_or_raw(points or "0")})
            if books:
                side["open_books"] = books
        entry.append(side)
    return ended_by, entry, problems


def _used_counts(rules: engine.RuleSet) -> list[str]:
    names = []
    if rules.red_three_bonus:
        names.append("red_threes")
    if rules.threes_apart and rules.red_three_in_hand_penalty:
        names.append("red_threes_in_hand")
    if rules.threes_apart and rules.black_three_in_hand_penalty:
        names.append("black_threes_in_hand")
    return names


def _ranks(rules: engine.RuleSet, pile: str) -> list[str]:
    return sorted(allowed_ranks(rules, pile), key=list(rules.card_values).index)


def values_from_entry(
    rules: engine.RuleSet, ended_by: str, entry: Sequence[Mapping[str, Any]]
) -> dict[str, str]:
    """A stored round as form values, to edit it."""
    data: dict[str, str] = {"went_out": STOCK if ended_by == "stock_exhausted" else ""}
    for index, side in enumerate(entry):
        prefix = f"s{index}-"
        if side.get("went_out"):
            data["went_out"] = f"s{index}"
        if side.get("exact_cuts"):
            data[prefix + "exact_cuts"] = "1"
        if side.get("went_out_concealed"):
            data[prefix + "went_out_concealed"] = "1"
        for kind, count in side.get("canastas", {}).items():
            data[f"{prefix}canastas-{kind}"] = str(count)
        for name in ("red_threes", "red_threes_in_hand", "black_threes_in_hand"):
            if name in side:
                data[prefix + name] = str(side[name])
        for pile in ("melded", "hand"):
            if f"{pile}_points" in side:
                data[f"{prefix}{pile}_points"] = str(side[f"{pile}_points"])
            for rank, count in side.get(f"{pile}_cards", {}).items():
                data[f"{prefix}{pile}_cards-{rank}"] = str(count)
        if side.get("foot_picked_up") is False:
            data[prefix + "foot_missed"] = "1"
        for row, book in enumerate(side.get("open_books", [])):
            data[f"{prefix}open_books-{row}-kind"] = str(book.get("kind", ""))
            data[f"{prefix}open_books-{row}-points"] = str(book.get("points", ""))
    return data


_PATH_PART = re.compile(r"\[(\d+)\]|\.?([^.\[]+)")


def field_key(path: str) -> str:
    """`sides[1].canastas.natural` -> `s1-canastas-natural`; `ended_by` -> `went_out`."""
    parts = [index or name for index, name in _PATH_PART.findall(path)]
    if parts and parts[0] == "sides" and len(parts) > 1:
        if parts[2:3] == ["went_out"]:
            return "went_out"
        if parts[2:3] == ["foot_picked_up"]:
            return f"s{parts[1]}-foot_missed"
        return "-".join([f"s{parts[1]}", *parts[2:]])
    if parts[:1] == ["ended_by"]:
        return "went_out"
    return "__all__"


def without_repeats(
    problems: Sequence[engine.FieldError], errors: Sequence[engine.FieldError]
) -> list[engine.FieldError]:
    """The form's own problems, then the engine's errors but those on a field the form already
    flags: one message per problem ("Choose the team that went out" says it; the engine's "no
    team went out" would say it again)."""
    flagged = {problem.path for problem in problems}
    return [*problems, *(e for e in errors if field_key(e.path) not in flagged)]


def errors_by_key(errors: Sequence[engine.FieldError], keys: set[str]) -> dict[str, list[str]]:
    """Each error under the most specific form slot its path reaches."""
    placed: dict[str, list[str]] = {}
    for error in errors:
        key = error.path if error.path in keys else field_key(error.path)
        while key not in keys and "-" in key:
            key = key.rsplit("-", 1)[0]
        if key not in keys:
            key = "__all__"
        placed.setdefault(key, []).append(error.message)
    return placed


def form_keys(rules: engine.RuleSet, side_count: int) -> set[str]:
    """Every slot of the form an error can be shown in: fields and the groups around them."""
    keys = {"__all__", "went_out"}
    for index in range(side_count):
        prefix = f"s{index}-"
        keys |= {f"s{index}", prefix + "canastas", prefix + "melded_cards", prefix + "hand_cards"}
        keys |= {prefix + "exact_cuts", prefix + "foot_missed", prefix + "open_books"}
        keys.add(prefix + "went_out_concealed")
        keys |= {f"{prefix}canastas-{kind}" for kind in rules.kinds}
        keys |= {prefix + name for name in (*_used_counts(rules), "melded_points", "hand_points")}
        for pile in ("melded", "hand"):
            keys |= {f"{prefix}{pile}_cards-{rank}" for rank in _ranks(rules, pile)}
        for row in range(OPEN_BOOK_ROWS):
            keys |= {f"{prefix}open_books-{row}", f"{prefix}open_books-{row}-kind"}
            keys.add(f"{prefix}open_books-{row}-points")
    return keys


def build(
    rules: engine.RuleSet,
    sides: Sequence[Any],
    data: Mapping[str, str],
    dealer: int | None,
    errors: Sequence[engine.FieldError] = (),
    counted: Mapping[str, int] | None = None,
) -> RoundForm:
    """The form for these rules and sides, filled with data, each error beside its field."""
    words = rules.words
    placed = errors_by_key(errors, form_keys(rules, len(sides)))

    def errs(key: str) -> tuple[str, ...]:
        return tuple(placed.get(key, ()))

    def count(key: str, name: str, amount: str = "") -> Field:
        return Field(key, name, "count", data.get(key, ""), errs(key), amount=amount)

    def pile(prefix: str, name: str, label: str, help: str, heading: str) -> Pile:
        key = f"{prefix}{name}_points"
        cards = tuple(
            CardCount(
                f"{prefix}{name}_cards-{rank}",
                rank,
                RANK_LABELS.get(rank, rank),
                rules.card_values[rank],
                data.get(f"{prefix}{name}_cards-{rank}", ""),
                errs(f"{prefix}{name}_cards-{rank}"),
            )
            for rank in _ranks(rules, name)
        )
        # Counted cards fill the points in, with the engine's value for them.
        value = str(counted[key]) if counted and key in counted else data.get(key, "")
        points = Field(key, label, "points", value, errs(key), help, step=5)
        return Pile(points, f"{prefix}{name}_cards", cards, errs(f"{prefix}{name}_cards"), heading)

    blocks = []
    for index, side in enumerate(sides):
        prefix = f"s{index}-"
        canastas = tuple(
            count(f"{prefix}canastas-{kind}", rules.label(kind)) for kind in rules.kinds
        )
        before: list[Field] = []
        if rules.cut_bonus and index == dealer:
            key = prefix + "exact_cuts"
            before.append(
                Field(
                    key,
                    f"Cut the deck exactly ({signed(rules.cut_bonus)})",
                    "flag",
                    data.get(key, ""),
                    errs(key),
                )
            )
        if rules.concealed_bonus:
            key = prefix + "went_out_concealed"
            before.append(
                Field(
                    key,
                    f"Went out concealed ({signed(rules.concealed_bonus)} more)",
                    "flag",
                    data.get(key, ""),
                    errs(key),
                )
            )
        if rules.red_three_bonus:
            before.append(
                count(
                    prefix + "red_threes",
                    "Red threes laid down",
                    f"{signed(rules.red_three_bonus)} each",
                )
            )
        after: list[Field] = []
        if rules.red_three_in_hand_penalty:
            after.append(
                count(
                    prefix + "red_threes_in_hand",
                    "Red threes left in hand",
                    f"{signed(-rules.red_three_in_hand_penalty)} each",
                )
            )
        if rules.black_three_in_hand_penalty:
            after.append(
                count(
                    prefix + "black_threes_in_hand",
                    "Black threes left in hand",
                    f"{signed(-rules.black_three_in_hand_penalty)} each",
                )
            )
        if rules.foot_penalty:
            key = prefix + "foot_missed"
            after.append(
                Field(
                    key,
                    f"Never picked up the {words['foot']} ({signed(-rules.foot_penalty)})",
                    "flag",
                    data.get(key, ""),
                    errs(key),
                )
            )
        books = ()
        if rules.open_books_change_sides:
            books = tuple(
                OpenBook(
                    f"{prefix}open_books-{row}-kind",
                    f"{prefix}open_books-{row}-points",
                    data.get(f"{prefix}open_books-{row}-kind", ""),
                    data.get(f"{prefix}open_books-{row}-points", ""),
                    errs(f"{prefix}open_books-{row}")
                    + errs(f"{prefix}open_books-{row}-kind")
                    + errs(f"{prefix}open_books-{row}-points"),
                )
                for row in range(OPEN_BOOK_ROWS)
            )
        # Threes left in hand have fields of their own: counted there, not in the points.
        # Where a side holds only its hand and threes count in it, the label says it all.
        hand_help = (
            words["held"].capitalize() + (", without threes" if rules.threes_apart else "")
            if words["held"] != words["hand"] or rules.threes_apart
            else ""
        )
        blocks.append(
            SideBlock(
                index=index,
                side=side,
                key=f"s{index}",
                is_dealer=index == dealer,
                went_out_value=f"s{index}",
                canastas=canastas,
                canastas_errors=errs(prefix + "canastas"),
                before_piles=tuple(before),
                melded=pile(prefix, "melded", "Points of cards laid down", "", "Cards laid down"),
                hand=pile(
                    prefix,
                    "hand",
                    "Points left in hand",
                    hand_help,
                    f"Cards left in {words['held']}",
                ),
                after_piles=tuple(after),
                open_books=books,
                errors=errs(f"s{index}") + errs(prefix + "open_books"),
            )
        )
    return RoundForm(
        rules=rules,
        blocks=tuple(blocks),
        went_out=data.get("went_out", ""),
        went_out_errors=errs("went_out"),
        errors=errs("__all__"),
        kinds=tuple((kind, rules.label(kind)) for kind in rules.kinds),
    )


def counted_points(rules: engine.RuleSet, entry: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """The engine's value of every pile given as cards, by its points field."""
    counted = {}
    for index, side in enumerate(entry):
        for pile in ("melded", "hand"):
            cards = side.get(f"{pile}_cards")
            if cards:
                try:
                    counted[f"s{index}-{pile}_points"] = engine.card_points(rules, cards)
                except engine.RoundError:
                    continue  # the round's own check reports these cards beside their ranks
    return counted


def round_errors(error: engine.RoundError, number: int) -> list[engine.FieldError]:
    """The errors of round `number` of a game with paths as in a single round's input."""
    prefix = f"rounds[{number - 1}]"
    fixed = []
    for item in error.errors:
        if item.path.startswith(prefix + "."):
            fixed.append(engine.FieldError(item.path.removeprefix(prefix + "."), item.message))
        elif item.path == prefix:
            fixed.append(engine.FieldError("", item.message))
        else:
            fixed.append(engine.FieldError("", item.message))
    return fixed
