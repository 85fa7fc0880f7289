"""RuleSet, the nine published presets (six of Hand and Foot, and Classic Canasta, Samba and
Buraco), house-rule overrides and the one way to name a ruleset."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import (
    Errors,
    FieldError,
    FrozenMap,
    RoundError,
    counted,
    is_whole,
    join_path,
    listing,
    number,
    shown,
)

# Every kind of canasta any preset knows, in the order a score sheet lists them.
# Samba's samba is a sequence of seven in one suit; Buraco's clean and dirty canastas are its
# natural and mixed ones under its own rules (a deuce in its natural place keeps a canasta clean).
KINDS = ("sevens", "wild", "samba", "natural", "mixed", "clean", "dirty")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
WILD_RANKS = ("2", "joker")
WENT_OUT_HAND = ("must_be_zero", "dismissed", "counts")
OPENING_MELD_BY = ("score", "round")
# When red threes count against the side that laid them down: never (Hand and Foot), when the
# side melded nothing (Classic Canasta), or when it completed fewer canastas than it needs (Samba).
RED_THREES_AGAINST = ("never", "without_meld", "without_canastas")
# Threes left in hand: counted apart at their penalties (Hand and Foot), or never held as threes
# (Canasta and Samba lay a red three down as it comes; a black three in hand is an ordinary card
# inside the points left in hand).
THREES_IN_HAND = ("counted_apart", "in_hand_points")
# `held` names what a side holds at the end of a round (hand and foot, or just the hand where
# the game has no foot, whose word is then empty).
WORD_KEYS = ("side", "sides", "canasta", "canastas", "hand", "foot", "held", *KINDS)

POINTS_MAX = 1_000_000
# The most rounds a game holds. Tables play 4 rounds, or to a target in 5 to 15; a game past 60
# rounds is a phone left sending, and every round kept costs each later read and correction.
ROUND_MAX = 60
DECKS_MAX = 100
# The deepest a house rule's value may nest lists and objects; opening_meld needs 2.
NESTING_MAX = 2

# Fields that describe a ruleset to a player; the rest are parameters a house rule may change.
DISPLAY_FIELDS = ("id", "name", "description", "source", "words", "partnerships")
MAPPING_PARAMETERS = ("canasta_bonus", "going_out_minimum", "card_values")


@dataclass(frozen=True)
class RuleSet:
    """The scoring rules of one game of Hand and Foot: a preset, or a preset with house rules."""

    id: str
    name: str
    description: str
    source: str
    words: FrozenMap
    # Whether the preset is played by partners (a league's teams) rather than each for themselves.
    partnerships: bool
    min_sides: int
    max_sides: int | None
    decks: int
    jokers_per_deck: int
    canasta_bonus: FrozenMap
    going_out_canastas: int
    going_out_minimum: FrozenMap
    going_out_bonus: int
    cut_bonus: int
    special_threes: bool
    red_three_bonus: int
    red_three_in_hand_penalty: int
    black_three_in_hand_penalty: int
    black_threes_meld: bool
    foot_penalty: int
    went_out_hand: str
    opening_meld_by: str
    opening_meld: tuple[Any, ...]
    target_score: int | None
    rounds: int | None
    card_values: FrozenMap
    mixed_max_wild: int | None
    open_books_change_sides: bool
    concealed_bonus: int
    red_threes_all_bonus: int
    red_threes_against: str
    red_threes_canastas_needed: int
    threes_in_hand: str

    # -- house rules ---------------------------------------------------------------------------

    def with_overrides(self, overrides: Mapping[str, Any]) -> RuleSet:
        """A copy with house rules applied; every override is validated like a preset."""
        errors = Errors()
        prefix = "rules.overrides"
        if not isinstance(overrides, Mapping):
            errors.add(
                prefix, f"House rules must be given as {{rule: value}}, not {shown(overrides)}."
            )
            errors.raise_if_any()
        params = self.parameters()
        explicit_card_keys: set[Any] = set()
        for key, value in overrides.items():
            if key not in PARAMETERS:
                errors.add(
                    join_path(prefix, key),
                    f"{shown(key)} is not a rule you can change; "
                    f"the rules are {listing(PARAMETERS)}.",
                )
                continue
            if _nested_deeper_than(value, NESTING_MAX):
                # The checks below (and any message quoting the value) walk it recursively;
                # a value a thousand levels deep must be refused before they do.
                errors.add(
                    join_path(prefix, key),
                    f"The house rule {key} is nested too deeply; its value is a number, true or "
                    f"false, text, or lists and objects at most {NESTING_MAX} levels deep.",
                )
                continue
            if key in MAPPING_PARAMETERS and isinstance(value, Mapping):
                # A mapping override changes only the keys it names; null removes a key.
                merged = dict(params[key])
                for inner, inner_value in value.items():
                    if inner_value is None:
                        merged.pop(inner, None)
                    else:
                        merged[inner] = inner_value
                if key == "card_values":
                    explicit_card_keys = set(value)
                params[key] = merged
            else:
                params[key] = value
        checked = _check_parameters(
            self.name, self.words, params, errors, prefix, explicit_card_keys
        )
        errors.raise_if_any()
        return replace(self, **checked)

    def parameters(self) -> dict[str, Any]:
        """The parameters as JSON values."""
        return {name: _to_json(getattr(self, name)) for name in PARAMETERS}

    def overrides(self) -> dict[str, Any]:
        """The house rules that make this ruleset differ from its preset ({} for a preset)."""
        base = RULESETS[self.id].parameters()
        changes: dict[str, Any] = {}
        for name, value in self.parameters().items():
            if value == base[name]:
                continue
            if name in MAPPING_PARAMETERS:
                diff = {k: v for k, v in value.items() if base[name].get(k) != v}
                diff.update({k: None for k in base[name] if k not in value})
                changes[name] = diff
            else:
                changes[name] = value
        return changes

    def spec(self) -> str | dict[str, Any]:
        """How to name these rules in JSON: the preset id, or {"base": id, "overrides": {...}}."""
        changes = self.overrides()
        return {"base": self.id, "overrides": changes} if changes else self.id

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON, for the rules picker and for storing house rules."""
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "partnerships": self.partnerships,
            "overrides": self.overrides(),
            "words": dict(self.words),
        }
        out.update(self.parameters())
        return out

    # -- words -------------------------------------------------------------------------------

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of canasta this ruleset scores, in score-sheet order."""
        return tuple(self.canasta_bonus)

    def label(self, kind: str) -> str:
        """`Wicker baskets`, `Clean books`, `Red canastas`."""
        return f"{self.words[kind].capitalize()} {self.words['canastas']}"

    def canastas_of(self, kind: str, count: int) -> str:
        """`1 wicker basket`, `3 dirty books`."""
        return counted(
            count,
            f"{self.words[kind]} {self.words['canasta']}",
            f"{self.words[kind]} {self.words['canastas']}",
        )

    def kind_names(self, kinds: tuple[str, ...] | None = None) -> str:
        """`wicker (natural) or plastic (mixed)`: the player's word and the JSON key."""
        return listing(
            (f"{self.words[k]} ({k})" if self.words[k] != k else k for k in kinds or self.kinds),
            "or",
        )

    @property
    def has_foot(self) -> bool:
        """Whether a side plays a second pile (a foot, the buns, a morto) after its hand."""
        return bool(self.words["foot"])

    @property
    def opening_minimum(self) -> bool:
        """Whether any side ever needs an opening meld (Buraco has none)."""
        if self.opening_meld_by == "round":
            return any(self.opening_meld)
        return any(points for _, points in self.opening_meld)

    @property
    def threes_apart(self) -> bool:
        """Whether threes left in hand are counted on their own (red_threes_in_hand and
        black_threes_in_hand), not inside the points left in hand."""
        return self.special_threes and self.threes_in_hand == "counted_apart"

    def opening_meld_for(self, round_number: int, score: int) -> int:
        """The opening meld a side needs in a round, given its total so far."""
        if self.opening_meld_by == "round":
            return self.opening_meld[min(round_number, len(self.opening_meld)) - 1]
        points = self.opening_meld[0][1]
        for minimum, level in self.opening_meld[1:]:
            if score >= minimum:
                points = level
        return points


PARAMETERS = tuple(f.name for f in fields(RuleSet) if f.name not in DISPLAY_FIELDS)


def _nested_deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and objects nest more than `limit` levels deep, found without recursion."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth == limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _to_json(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _to_json(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


# -- parameter checks (presets and house rules go through the same code) ----------------------

_BAD = object()

# name: (text, lowest, highest, null allowed). `{canastas}` and `{foot}` take the ruleset's words.
_WHOLE_PARAMETERS: dict[str, tuple[str, int, int, bool]] = {
    "min_sides": ("The least number of sides", 2, 100, False),
    "max_sides": ("The most sides", 2, 100, True),
    "decks": ("The number of decks", 1, DECKS_MAX, False),
    "jokers_per_deck": ("The number of jokers in each deck", 0, 4, False),
    "going_out_canastas": ("The number of {canastas} needed to go out", 0, 100, False),
    "going_out_bonus": ("The going-out bonus", 0, POINTS_MAX, False),
    "cut_bonus": ("The exact-cut bonus", 0, POINTS_MAX, False),
    "red_three_bonus": ("The red-three bonus", 0, POINTS_MAX, False),
    "red_three_in_hand_penalty": ("The penalty for a red three in hand", 0, POINTS_MAX, False),
    "black_three_in_hand_penalty": ("The penalty for a black three in hand", 0, POINTS_MAX, False),
    "foot_penalty": ("The penalty for never picking up the {foot}", 0, POINTS_MAX, False),
    "target_score": ("The target score", 1, 100 * POINTS_MAX, True),
    "rounds": ("The number of rounds", 1, ROUND_MAX, True),
    "mixed_max_wild": ("The most wild cards in a {mixed} {canasta}", 1, 6, True),
    "concealed_bonus": ("The bonus for going out concealed", 0, POINTS_MAX, False),
    "red_threes_all_bonus": ("The bonus for all the red threes", 0, POINTS_MAX, False),
    "red_threes_canastas_needed": (
        "The number of {canastas} that keep red threes from counting against a side",
        0,
        100,
        False,
    ),
}
_BOOL_PARAMETERS = {
    "special_threes": "Whether threes score on their own",
    "black_threes_meld": "Whether black threes can be melded",
    "open_books_change_sides": "Whether open books go to the other team",
}
_CHOICE_PARAMETERS = {
    "went_out_hand": ("What happens to the cards of the side that went out", WENT_OUT_HAND),
    "opening_meld_by": ("What sets the opening meld", OPENING_MELD_BY),
    "red_threes_against": ("When red threes count against a side", RED_THREES_AGAINST),
    "threes_in_hand": ("How threes left in hand count", THREES_IN_HAND),
}
_THREES_PARAMETERS = {
    "red_three_bonus": "red-three bonus",
    "red_three_in_hand_penalty": "penalty for a red three in hand",
    "black_three_in_hand_penalty": "penalty for a black three in hand",
    "red_threes_all_bonus": "bonus for all the red threes",
}
_HELD_PENALTIES = {
    "red_three_in_hand_penalty": "penalty for a red three in hand",
    "black_three_in_hand_penalty": "penalty for a black three in hand",
}


def _range_text(lowest: int, highest: int, nullable: bool) -> str:
    text = f"a whole number from {number(lowest)} to {number(highest)}"
    return text + " or left empty" if nullable else text


def card_ranks(special_threes: bool, jokers_per_deck: int) -> tuple[tuple[str, ...], set[str]]:
    """The ranks card_values must price, and those it may price, for this shape of deck."""
    required = [r for r in RANKS if r != "3" or not special_threes]
    if jokers_per_deck:
        required.append("joker")
    optional = {"black3"} if special_threes else set()
    return tuple(required), optional


def _check_parameters(
    ruleset_name: str,
    ruleset_words: Mapping[str, str],
    params: dict[str, Any],
    errors: Errors,
    prefix: str,
    explicit_card_keys: set[Any],
) -> dict[str, Any]:
    """Validate every parameter; return them in RuleSet form (FrozenMaps, tuples)."""
    words = {key: ruleset_words[key] for key in ("canastas", "canasta", "foot", "mixed")}
    out: dict[str, Any] = {}

    def path(*keys: Any) -> str:
        result = prefix
        for key in keys:
            result = join_path(result, key)
        return result

    for name, (text, lowest, highest, nullable) in _WHOLE_PARAMETERS.items():
        value = params[name]
        if (value is None and nullable) or (is_whole(value) and lowest <= value <= highest):
            out[name] = value
        else:
            errors.add(
                path(name),
                f"{text.format(**words)} must be {_range_text(lowest, highest, nullable)}, "
                f"not {shown(value)}.",
            )
            out[name] = _BAD
    for name, text in _BOOL_PARAMETERS.items():
        value = params[name]
        if isinstance(value, bool):
            out[name] = value
        else:
            errors.add(path(name), f"{text} must be true or false, not {shown(value)}.")
            out[name] = _BAD
    for name, (text, choices) in _CHOICE_PARAMETERS.items():
        value = params[name]
        if isinstance(value, str) and value in choices:
            out[name] = value
        else:
            errors.add(path(name), f"{text} must be {listing(choices, 'or')}, not {shown(value)}.")
            out[name] = _BAD

    if (
        out["max_sides"] not in (None, _BAD)
        and out["min_sides"] is not _BAD
        and out["max_sides"] < out["min_sides"]
    ):
        errors.add(
            path("max_sides"),
            f"The most sides, {out['max_sides']}, cannot be fewer than the least, "
            f"{out['min_sides']}.",
        )
    if out["open_books_change_sides"] is True and not (
        out["min_sides"] == 2 and out["max_sides"] == 2
    ):
        errors.add(
            path("open_books_change_sides"),
            "Open books can go to the other team only in a game of exactly 2 sides; "
            "set both the fewest and the most sides to 2.",
        )
    if out["special_threes"] is False:
        for name, what in _THREES_PARAMETERS.items():
            if out[name] not in (0, _BAD):
                errors.add(
                    path(name),
                    f"{ruleset_name} treats threes as ordinary cards, so its {what} must be 0, "
                    f"not {number(out[name])}; turn on “Threes score on their own” first.",
                )
        if out["black_threes_meld"] is True:
            errors.add(
                path("black_threes_meld"),
                f"{ruleset_name} treats threes as ordinary cards, so black threes are melded "
                "like any card; turn on “Threes score on their own” first.",
            )
        if out["red_threes_against"] not in ("never", _BAD):
            errors.add(
                path("red_threes_against"),
                f"{ruleset_name} treats threes as ordinary cards, so red threes never count "
                "against a side; turn on “Threes score on their own” first.",
            )
    if out["special_threes"] is True and out["threes_in_hand"] == "in_hand_points":
        for name, what in _HELD_PENALTIES.items():
            if out[name] not in (0, _BAD):
                errors.add(
                    path(name),
                    f"In {ruleset_name} threes left in hand are counted in the points left in "
                    f"hand, so its {what} must be 0, not {number(out[name])}.",
                )
    if out["red_threes_against"] == "without_canastas" and out["red_threes_canastas_needed"] == 0:
        errors.add(
            path("red_threes_canastas_needed"),
            f"Red threes count against a side with too few {words['canastas']}, so the number "
            f"of {words['canastas']} needed must be 1 or more, not 0.",
        )
    if not ruleset_words["foot"] and out["foot_penalty"] not in (0, _BAD):
        errors.add(
            path("foot_penalty"),
            f"{ruleset_name} has no second pile to pick up, so its penalty for never picking "
            f"one up must be 0, not {number(out['foot_penalty'])}.",
        )

    out["canasta_bonus"] = _check_canasta_bonus(params["canasta_bonus"], errors, path)
    out["going_out_minimum"] = _check_minimum(
        params["going_out_minimum"], out["canasta_bonus"], errors, path
    )
    if out["going_out_minimum"] is not _BAD and out["going_out_canastas"] is not _BAD:
        least = sum(out["going_out_minimum"].values())
        if out["going_out_canastas"] < least:
            errors.add(
                path("going_out_canastas"),
                f"Going out needs at least {number(least)} {words['canastas']} by kind, so the "
                f"number needed in all cannot be {number(out['going_out_canastas'])}.",
            )
    out["opening_meld"] = _check_opening_meld(
        out["opening_meld_by"], params["opening_meld"], errors, path("opening_meld")
    )
    out["card_values"] = _check_card_values(
        out["special_threes"],
        out["jokers_per_deck"],
        params["card_values"],
        explicit_card_keys,
        errors,
        path,
    )
    if (
        out["black_threes_meld"] is True
        and out["special_threes"] is True
        and out["card_values"] is not _BAD
        and "black3" not in out["card_values"]
    ):
        errors.add(
            path("card_values"),
            "Black threes can be melded, so the card values need a value for the black 3.",
        )
    return out


def _check_canasta_bonus(value: Any, errors: Errors, path: Any) -> Any:
    if not isinstance(value, Mapping) or not value:
        errors.add(
            path("canasta_bonus"),
            "The canasta bonus must be given as {kind: points} with at least one kind, "
            f"not {shown(value)}.",
        )
        return _BAD
    good = True
    for kind, points in value.items():
        if kind not in KINDS:
            errors.add(
                path("canasta_bonus", kind),
                f"{shown(kind)} is not a kind of canasta; the kinds are {listing(KINDS, 'or')}.",
            )
            good = False
        elif not (is_whole(points) and 0 <= points <= POINTS_MAX):
            errors.add(
                path("canasta_bonus", kind),
                f"The bonus for a {kind} canasta must be "
                f"{_range_text(0, POINTS_MAX, False)}, not {shown(points)}.",
            )
            good = False
    return FrozenMap(value) if good else _BAD


def _check_minimum(value: Any, bonus: Any, errors: Errors, path: Any) -> Any:
    if not isinstance(value, Mapping):
        errors.add(
            path("going_out_minimum"),
            f"The canastas needed to go out must be given as {{kind: count}}, not {shown(value)}.",
        )
        return _BAD
    good = True
    for kind, count in value.items():
        if bonus is not _BAD and kind not in bonus:
            errors.add(
                path("going_out_minimum", kind),
                f"Going out cannot need {shown(kind)} canastas: the canasta bonus has no such "
                f"kind; its kinds are {listing(bonus, 'and')}.",
            )
            good = False
        elif not (is_whole(count) and 0 <= count <= 100):
            errors.add(
                path("going_out_minimum", kind),
                f"The number of {kind} canastas needed to go out must be "
                f"{_range_text(0, 100, False)}, not {shown(count)}.",
            )
            good = False
    return FrozenMap(value) if good else _BAD


def _check_opening_meld(by: Any, value: Any, errors: Errors, path: str) -> Any:
    if by is _BAD:
        return _BAD
    if by == "round":
        if (
            isinstance(value, list | tuple)
            and 1 <= len(value) <= 1000
            and all(is_whole(v) and 0 <= v <= POINTS_MAX for v in value)
        ):
            return tuple(value)
        errors.add(
            path,
            "An opening meld set by round must be a list of points, one per round "
            f"(e.g. [60, 90, 120, 150]), each {_range_text(0, POINTS_MAX, False)}; "
            f"got {_as_json(value)}.",
        )
        return _BAD
    levels: list[tuple[int | None, int]] = []
    good = isinstance(value, list | tuple) and 1 <= len(value) <= 1000
    for index, level in enumerate(value if good else ()):
        if not (isinstance(level, list | tuple) and len(level) == 2):
            good = False
            break
        minimum, points = level
        if index == 0:
            floor_ok = minimum is None
        else:
            floor_ok = (
                is_whole(minimum)
                and abs(minimum) <= 100 * POINTS_MAX
                and (levels[-1][0] is None or minimum > levels[-1][0])
            )
        if not (floor_ok and is_whole(points) and 0 <= points <= POINTS_MAX):
            good = False
            break
        levels.append((minimum, points))
    if good:
        return tuple(levels)
    errors.add(
        path,
        "An opening meld set by score must be a list of [lowest score, points] levels in rising "
        "order, the first with null for its lowest score (e.g. [[null, 50], [1500, 90]]); "
        f"got {_as_json(value)}.",
    )
    return _BAD


def _as_json(value: Any) -> str:
    """A short JSON rendering of a value that failed, for values whose shape is the problem."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        return shown(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_card_values(
    special_threes: Any,
    jokers: Any,
    value: Any,
    explicit: set[Any],
    errors: Errors,
    path: Any,
) -> Any:
    if not isinstance(value, Mapping):
        errors.add(
            path("card_values"),
            f"Card values must be given as {{rank: points}}, not {shown(value)}.",
        )
        return _BAD
    if special_threes is _BAD or jokers is _BAD:
        return _BAD
    required, optional = card_ranks(special_threes, jokers)
    allowed = set(required) | optional
    good = True
    values: dict[str, int] = {}
    for rank, points in value.items():
        if rank not in allowed:
            # A key the preset had but the new deck shape no longer uses (a "3" once threes are
            # special, a joker once there are none) drops out; naming it yourself is an error.
            if rank in explicit:
                errors.add(path("card_values", rank), _rank_not_allowed(rank, special_threes))
                good = False
            continue
        if not (is_whole(points) and 0 <= points <= 1000 and points % 5 == 0):
            errors.add(
                path("card_values", rank),
                f"The value of rank {rank} must be a whole number from 0 to 1,000 and a "
                f"multiple of 5, not {shown(points)}.",
            )
            good = False
            continue
        values[rank] = points
    missing = [rank for rank in required if rank not in value]
    if missing:
        errors.add(
            path("card_values"),
            f"Card values need a value for {listing(missing)}.",
        )
        good = False
    if not good:
        return _BAD
    order = [*required, "black3"]
    return FrozenMap((rank, values[rank]) for rank in order if rank in values)


def _rank_not_allowed(rank: Any, special_threes: bool) -> str:
    if rank == "joker":
        return "There are no jokers in the decks (jokers_per_deck is 0), so a joker has no value."
    if rank == "3":
        return "Threes score on their own in these rules: give black threes a value as black3."
    if rank in ("red3", "black3") and not special_threes:
        return "Threes are ordinary cards in these rules: give them a value as 3."
    if rank == "red3":
        return (
            "A red three is never counted as a card: it scores the red-three bonus when laid "
            "down and the red-three penalty when held."
        )
    return f"{shown(rank)} is not a rank; the ranks are {listing((*RANKS, 'joker'))}."


# -- presets -----------------------------------------------------------------------------------


def _values(**special: int) -> dict[str, int]:
    """Card values with the usual 10 for 8 to K and 5 for 4 to 7, plus the given ranks."""
    values = {"A": 20, **dict.fromkeys(("K", "Q", "J", "10", "9", "8"), 10)}
    values.update(dict.fromkeys(("7", "6", "5", "4"), 5))
    values.update(special)
    return values


def _words(side: str, canasta: str, hand: str = "hand", foot: str = "foot", **kinds: str) -> dict:
    """A rule set's words; foot="" for a game without a foot (Classic Canasta, Samba)."""
    words = {"side": side, "sides": side + "s", "canasta": canasta, "canastas": canasta + "s"}
    words.update(hand=hand, foot=foot, held=f"{hand} and {foot}" if foot else hand)
    words.update({kind: kind for kind in KINDS})
    words.update(kinds)
    return words


_TEN_THOUSAND: dict[str, Any] = {
    "min_sides": 2,
    "max_sides": None,
    "decks": 3,
    "jokers_per_deck": 2,
    "canasta_bonus": {"natural": 500, "mixed": 300, "wild": 1500},
    "going_out_canastas": 5,
    "going_out_minimum": {"natural": 3, "mixed": 1, "wild": 1},
    "going_out_bonus": 100,
    "cut_bonus": 0,
    "special_threes": True,
    "red_three_bonus": 100,
    "red_three_in_hand_penalty": 300,
    "black_three_in_hand_penalty": 5,
    "black_threes_meld": True,
    "foot_penalty": 0,
    "went_out_hand": "counts",
    "opening_meld_by": "score",
    "opening_meld": [[None, 50], [1500, 90], [3000, 120], [5000, 150]],
    "target_score": 10000,
    "rounds": None,
    "card_values": _values(**{"2": 20, "joker": 50, "black3": 5}),
    "mixed_max_wild": None,
    "open_books_change_sides": False,
    "concealed_bonus": 0,
    "red_threes_all_bonus": 0,
    "red_threes_against": "never",
    "red_threes_canastas_needed": 0,
    "threes_in_hand": "counted_apart",
}

# Classic Canasta's card values and opening meld, which Samba shares up to 3,000.
_CANASTA_VALUES = _values(**{"2": 20, "joker": 50, "black3": 5})
_CANASTA_MELD = [[None, 15], [0, 50], [1500, 90], [3000, 120]]

_PRESETS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (
        {
            "id": "baskets",
            "name": "Baskets",
            "partnerships": False,
            "source": "Baskets, two-player Canasta with a hand and a foot (M. E. Allen, 2019)",
            "words": _words(
                "player", "basket", "biscuits", "buns", natural="wicker", mixed="plastic"
            ),
            "description": (
                "Two-player Canasta with a hand and a foot, called biscuits and buns, after Miles "
                "Edward Allen's rules (2019). Three decks without jokers; deuces are wild and "
                "threes are ordinary cards. A basket is a meld of seven or more cards: wicker "
                "(no deuces) scores 500, plastic (at most three deuces) 300. Going out takes "
                "three baskets, at least one of them wicker, and scores 250; the other player "
                "loses the value of the cards left in hand, and 100 more for never reaching the "
                "buns. The opening meld rises with your score (15 below zero, then 50, 70 from "
                "1,500 and 90 from 3,000), and the game ends when a player reaches 5,000."
            ),
        },
        {
            **_TEN_THOUSAND,
            "min_sides": 2,
            "max_sides": 2,
            "jokers_per_deck": 0,
            "canasta_bonus": {"natural": 500, "mixed": 300},
            "going_out_canastas": 3,
            "going_out_minimum": {"natural": 1},
            "going_out_bonus": 250,
            "special_threes": False,
            "red_three_bonus": 0,
            "red_three_in_hand_penalty": 0,
            "black_three_in_hand_penalty": 0,
            "black_threes_meld": False,
            "foot_penalty": 100,
            "went_out_hand": "must_be_zero",
            "opening_meld": [[None, 15], [0, 50], [1500, 70], [3000, 90]],
            "target_score": 5000,
            "card_values": _values(**{"3": 5, "2": 20}),
            "mixed_max_wild": 3,
        },
    ),
    (
        {
            "id": "four-rounds",
            "name": "Four Rounds",
            "source": "Hand and Foot, 4 rounds, cut bonus",
            "words": _words("team", "canasta"),
            "description": (
                "Hand and Foot for two teams over exactly four rounds, with the paper score "
                "sheet's bonus for cutting the deal exactly. Six decks with jokers. Natural "
                'canastas score 500 and mixed ones (the score sheet\'s "wild canastas") 300; '
                "going out needs five canastas, at least two natural and three mixed, and scores "
                "100, and the dealer's team scores 100 for an exact cut. Red threes laid down "
                "score 100 and cost 100 in hand; the cards the partners of the player who went "
                "out still hold are dismissed. The opening meld is 60, 90, 120 and 150 in "
                "rounds 1 to 4, and the highest total after round 4 wins."
            ),
        },
        {
            **_TEN_THOUSAND,
            "max_sides": 2,
            "decks": 6,
            "canasta_bonus": {"natural": 500, "mixed": 300},
            "going_out_minimum": {"natural": 2, "mixed": 3},
            "cut_bonus": 100,
            "red_three_in_hand_penalty": 100,
            "black_three_in_hand_penalty": 0,
            "black_threes_meld": False,
            "went_out_hand": "dismissed",
            "opening_meld_by": "round",
            "opening_meld": [60, 90, 120, 150],
            "target_score": None,
            "rounds": 4,
            "card_values": _values(**{"A": 15, "2": 20, "joker": 50, "black3": 0}),
        },
    ),
    (
        {
            "id": "sevens",
            "name": "Sevens",
            "source": "Hand and Foot Canasta, sevens and wild canastas",
            "words": _words("side", "canasta", mixed="dirty"),
            "description": (
                "Hand and Foot Canasta with sevens and wild canastas, played to 50,000 or until "
                "a set time. Six decks with jokers for four players (seven for six). A sevens "
                "canasta scores 5,000, a wild one 2,500, a natural one 500 and a dirty one (at "
                "most three wild cards) 300; going out needs one of each and scores 200. Red "
                "threes laid down score 100, and every three left in hand, red or black, costs "
                "100. The opening meld is 50, rising to 90 at 15,000 and 120 at 30,000."
            ),
        },
        {
            **_TEN_THOUSAND,
            "decks": 6,
            "canasta_bonus": {"sevens": 5000, "wild": 2500, "natural": 500, "mixed": 300},
            "going_out_canastas": 4,
            "going_out_minimum": {"sevens": 1, "wild": 1, "natural": 1, "mixed": 1},
            "going_out_bonus": 200,
            "red_three_in_hand_penalty": 100,
            "black_three_in_hand_penalty": 100,
            "black_threes_meld": False,
            "opening_meld": [[None, 50], [15000, 90], [30000, 120]],
            "target_score": 50000,
            "card_values": _values(**{"2": 20, "joker": 50}),
            "mixed_max_wild": 3,
        },
    ),
    (
        {
            "id": "ten-thousand",
            "name": "Ten Thousand",
            "source": "Hand and Foot to 10,000",
            "words": _words("side", "canasta", natural="red", mixed="black"),
            "description": (
                "Hand and Foot played to 10,000, with red (natural) canastas worth 500, black "
                "(mixed) ones 300 and wild ones 1,500. One deck per player less one (three by "
                "default, for four players), jokers included. Going out needs five canastas, at "
                "least three red, one black and one wild, and scores 100. Red threes laid down "
                "score 100; a red three left in hand costs 300 and a black three 5. The opening "
                "meld rises with your score: 50, then 90 from 1,500, 120 from 3,000 and 150 "
                "from 5,000."
            ),
        },
        _TEN_THOUSAND,
    ),
    (
        {
            "id": "cutthroat",
            "name": "Cutthroat",
            "source": "Cutthroat variant of Hand and Foot to 10,000",
            "words": _words("team", "canasta", natural="red", mixed="black"),
            "description": (
                "The Cutthroat variant of Hand and Foot to 10,000, for two teams who may play on "
                "each other's melds. It scores like Ten Thousand, except that when the round "
                "ends every open book of seven or more cards goes to the other team, which "
                "scores it as a canasta, bonus and cards, while the team that built it loses its "
                "cards."
            ),
        },
        {**_TEN_THOUSAND, "max_sides": 2, "open_books_change_sides": True},
    ),
    (
        {
            "id": "contract",
            "name": "Contract",
            "source": "Contract Hand and Foot (clean, dirty and wild books)",
            "words": _words("side", "book", natural="clean", mixed="dirty"),
            "description": (
                "Contract Hand and Foot as played online, with clean books (no wild cards) worth "
                "500, dirty books (at most three wild cards) 300 and wild books 1,500. One deck "
                "per player plus one (five by default), jokers included. Going out needs the "
                "contract, two clean, two dirty and one wild book, and scores 100. Red threes "
                "laid down score 100 and cost 100 in hand; a black three in hand costs 5. The "
                "opening meld is 50, 90, 120 and 150 in rounds 1 to 4, and the highest total "
                "after round 4 wins."
            ),
        },
        {
            **_TEN_THOUSAND,
            "decks": 5,
            "going_out_minimum": {"natural": 2, "mixed": 2, "wild": 1},
            "red_three_in_hand_penalty": 100,
            "black_threes_meld": False,
            "opening_meld_by": "round",
            "opening_meld": [50, 90, 120, 150],
            "target_score": None,
            "rounds": 4,
            "mixed_max_wild": 3,
        },
    ),
    (
        {
            "id": "canasta",
            "name": "Canasta",
            "source": (
                "Classic Canasta: the Official Canasta Laws (Hoyle), as summarised by "
                "pagat.com/rummy/canasta.html and bicyclecards.com"
            ),
            "words": _words("side", "canasta", foot=""),
            "description": (
                "Classic Canasta, the parent of Hand and Foot: four players in two "
                "partnerships, two packs and four jokers, no foot. A natural canasta scores 500 "
                "and a mixed one (at most three wild cards) 300. Going out needs a canasta and "
                "scores 100, or 200 for going out concealed. Red threes score 100 each and 800 "
                "for all four, but count against a side that melded nothing; a black three "
                "left in hand is an ordinary 5-point card. The opening meld rises with the "
                "side's total (15 below zero, then 50, 90 from 1,500 and 120 from 3,000), and "
                "the game ends when a side reaches 5,000. Two players (two canastas to go out) "
                "or three, each for themselves, are house rules."
            ),
        },
        {
            **_TEN_THOUSAND,
            "max_sides": 3,
            "decks": 2,
            "canasta_bonus": {"natural": 500, "mixed": 300},
            "going_out_canastas": 1,
            "going_out_minimum": {},
            "red_three_in_hand_penalty": 0,
            "black_three_in_hand_penalty": 0,
            "opening_meld": _CANASTA_MELD,
            "target_score": 5000,
            "card_values": _CANASTA_VALUES,
            "mixed_max_wild": 3,
            "concealed_bonus": 100,
            "red_threes_all_bonus": 800,
            "red_threes_against": "without_meld",
            "threes_in_hand": "in_hand_points",
        },
    ),
    (
        {
            "id": "samba",
            "name": "Samba",
            "source": "Samba, as given by bicyclecards.com and pagat.com/rummy/samba.html",
            "words": _words("side", "canasta", foot=""),
            "description": (
                "Samba, the Canasta of three packs and six jokers: four players in two "
                "partnerships (six in three as a house rule), with sequences as well as groups. "
                "A samba, seven cards in sequence in one suit, scores 1,500, a natural canasta "
                "500 and a mixed one (at most two wild cards) 300. Going out needs two canastas "
                "and scores 200. Red threes score 100 each and 1,000 for all six, but count "
                "against a side without two canastas. The opening meld is 15 below zero, 50, "
                "90 from 1,500, 120 from 3,000 and 160 from 7,000, and the game ends when a "
                "side reaches 10,000."
            ),
        },
        {
            **_TEN_THOUSAND,
            "max_sides": 3,
            "decks": 3,
            "canasta_bonus": {"samba": 1500, "natural": 500, "mixed": 300},
            "going_out_canastas": 2,
            "going_out_minimum": {},
            "going_out_bonus": 200,
            "red_three_in_hand_penalty": 0,
            "black_three_in_hand_penalty": 0,
            "opening_meld": [*_CANASTA_MELD, [7000, 160]],
            "target_score": 10000,
            "card_values": _CANASTA_VALUES,
            "mixed_max_wild": 2,
            "red_threes_all_bonus": 1000,
            "red_threes_against": "without_canastas",
            "red_threes_canastas_needed": 2,
            "threes_in_hand": "in_hand_points",
        },
    ),
    (
        {
            "id": "buraco",
            "name": "Buraco",
            "source": (
                "Buraco as played in Brazil (buraco aberto), after pagat.com/rummy/buraco.html"
            ),
            # A side's morto, once taken, is its hand: the cards left are the hand's alone.
            "words": {
                **_words("side", "canasta", foot="morto", natural="clean", mixed="dirty"),
                "held": "hand",
            },
            "description": (
                "Buraco as played in Brazil: four players in two partnerships, two packs and "
                "four jokers, and a morto for each side, an 11-card pile taken by the first "
                "player of the side to run out of cards. A clean canasta (no wild card, or a "
                "two in its natural place) scores 200 and a dirty one 100. Going out (the "
                "batida) needs the side's morto taken and a clean canasta, and scores 100; a "
                "side that never took its morto loses 100. Jokers count 20, twos 10, aces 15; "
                "threes are ordinary cards and there is no opening minimum. The game ends when "
                "a side reaches 3,000."
            ),
        },
        {
            **_TEN_THOUSAND,
            "max_sides": 2,
            "decks": 2,
            "canasta_bonus": {"clean": 200, "dirty": 100},
            "going_out_canastas": 1,
            "going_out_minimum": {"clean": 1},
            "special_threes": False,
            "red_three_bonus": 0,
            "red_three_in_hand_penalty": 0,
            "black_three_in_hand_penalty": 0,
            "black_threes_meld": False,
            "foot_penalty": 100,
            "opening_meld": [[None, 0]],
            "target_score": 3000,
            "card_values": _values(**{"A": 15, "3": 5, "2": 10, "joker": 20}),
            "mixed_max_wild": 1,
            "threes_in_hand": "in_hand_points",
        },
    ),
]


def _preset(display: dict[str, Any], params: dict[str, Any]) -> RuleSet:
    # Presets go through the same checks as house rules, so a typo here fails at import.
    errors = Errors()
    checked = _check_parameters(
        display["name"], display["words"], dict(params), errors, f"presets.{display['id']}", set()
    )
    errors.raise_if_any()
    display = {"partnerships": True, **display}
    return RuleSet(**{**display, "words": FrozenMap(display["words"]), **checked})


RULESETS: Mapping[str, RuleSet] = FrozenMap(
    (display["id"], _preset(display, params)) for display, params in _PRESETS
)


# -- what a table plays ------------------------------------------------------------------------
#
# The checks above keep any rule set printable and scoreable (the engine answers for 30,000
# sides, and games saved before these bounds still load). House rules a player types in, for a
# new game, a league or a blank sheet, are also held to what a table plays, which bounds what a
# score sheet prints: at most 20 rounds, 6 sides.

TABLE_SIDES_MAX = 6
TABLE_ROUNDS_MAX = 20
TABLE_DECKS_MAX = 12
TABLE_POINTS_MAX = 10_000
TABLE_TARGET_MAX = 100_000
TABLE_CANASTAS_MAX = 20
TABLE_CARD_VALUE_MAX = 100
TABLE_MELD_LEVELS_MAX = 10

_TABLE_BOUNDS: dict[str, tuple[int, int]] = {
    "min_sides": (2, TABLE_SIDES_MAX),
    "max_sides": (2, TABLE_SIDES_MAX),
    "decks": (1, TABLE_DECKS_MAX),
    "going_out_canastas": (0, TABLE_CANASTAS_MAX),
    "going_out_bonus": (0, TABLE_POINTS_MAX),
    "cut_bonus": (0, TABLE_POINTS_MAX),
    "red_three_bonus": (0, TABLE_POINTS_MAX),
    "red_three_in_hand_penalty": (0, TABLE_POINTS_MAX),
    "black_three_in_hand_penalty": (0, TABLE_POINTS_MAX),
    "foot_penalty": (0, TABLE_POINTS_MAX),
    "target_score": (1, TABLE_TARGET_MAX),
    "rounds": (1, TABLE_ROUNDS_MAX),
}


def table_rules(spec: Any) -> RuleSet:
    """resolve_rules for house rules a player sets: also within what a table plays (at most
    20 rounds, 6 sides, 12 decks, 10,000 points a bonus); every bound is named in its error."""
    rules = resolve_rules(spec)
    errors = Errors()
    prefix = "rules.overrides"
    words = {key: rules.words[key] for key in ("canastas", "canasta", "foot", "mixed")}

    def bound(path: str, text: str, value: Any, lowest: int, highest: int) -> None:
        if value is not None and not lowest <= value <= highest:
            errors.add(path, f"{text} must be between {number(lowest)} and {number(highest)}.")

    for name, (lowest, highest) in _TABLE_BOUNDS.items():
        text = _WHOLE_PARAMETERS[name][0].format(**words)
        bound(join_path(prefix, name), text, getattr(rules, name), lowest, highest)
    for kind, points in rules.canasta_bonus.items():
        path = join_path(prefix, f"canasta_bonus.{kind}")
        bound(path, f"The bonus for a {kind} canasta", points, 0, TABLE_POINTS_MAX)
    for kind, count in rules.going_out_minimum.items():
        path = join_path(prefix, f"going_out_minimum.{kind}")
        text = f"The number of {kind} canastas needed to go out"
        bound(path, text, count, 0, TABLE_CANASTAS_MAX)
    for rank, points in rules.card_values.items():
        path = join_path(prefix, f"card_values.{rank}")
        bound(path, f"The value of rank {rank}", points, 0, TABLE_CARD_VALUE_MAX)
    _table_opening_meld(rules, errors, join_path(prefix, "opening_meld"))
    errors.raise_if_any()
    return rules


def _table_opening_meld(rules: RuleSet, errors: Errors, path: str) -> None:
    if rules.opening_meld_by == "round":
        steps, most = rules.opening_meld, TABLE_ROUNDS_MAX
        what = "An opening meld set by round has one level a round, so at most"
    else:
        steps, most = tuple(points for _, points in rules.opening_meld), TABLE_MELD_LEVELS_MAX
        what = "An opening meld set by score has at most"
        floors = [floor for floor, _ in rules.opening_meld if floor is not None]
        if any(abs(floor) > TABLE_TARGET_MAX for floor in floors):
            errors.add(
                path,
                f"Each lowest score of an opening meld level must be between "
                f"{number(-TABLE_TARGET_MAX)} and {number(TABLE_TARGET_MAX)}.",
            )
    if len(steps) > most:
        errors.add(path, f"{what} {most} levels, not {number(len(steps))}.")
    if any(points > TABLE_POINTS_MAX for points in steps):
        errors.add(
            path, f"Each opening meld must be between 0 and {number(TABLE_POINTS_MAX)} points."
        )


def get_ruleset(ruleset_id: str) -> RuleSet:
    """The preset with this id, e.g. "baskets"."""
    if isinstance(ruleset_id, str) and ruleset_id in RULESETS:
        return RULESETS[ruleset_id]
    raise RoundError([_unknown_ruleset("rules", ruleset_id)])


def _unknown_ruleset(path: str, ruleset_id: Any) -> FieldError:
    return FieldError(
        path,
        f"There are no rules called {shown(ruleset_id)}; the rulesets are "
        f"{listing(RULESETS, 'and')}.",
    )


def resolve_rules(spec: Any) -> RuleSet:
    """A RuleSet from a RuleSet, a preset id, or {"base": id, "overrides": {...}}."""
    path = "rules"
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, str):
        if spec in RULESETS:
            return RULESETS[spec]
        raise RoundError([_unknown_ruleset(path, spec)])
    errors = Errors()
    if not isinstance(spec, Mapping):
        errors.add(
            path,
            'The rules must be a ruleset id such as "baskets", or '
            f'{{"base": id, "overrides": {{...}}}} for house rules; got {shown(spec)}.',
        )
        errors.raise_if_any()
    for key in spec:
        if key not in ("base", "overrides"):
            errors.add(
                join_path(path, key),
                f"House rules have a base and overrides, not {shown(key)}.",
            )
    base = spec.get("base")
    if base is None:
        errors.add(join_path(path, "base"), "House rules need a base: the id of a preset.")
    elif not isinstance(base, str) or base not in RULESETS:
        errors.items.append(_unknown_ruleset(join_path(path, "base"), base))
    errors.raise_if_any()
    return RULESETS[base].with_overrides(spec.get("overrides", {}))
