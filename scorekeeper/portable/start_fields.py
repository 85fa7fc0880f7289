"""The start-a-game form: sides and players, the first dealer, and house rules.

House rules are every parameter of the rule set, each shown with the preset's value; only the
ones a user changes become overrides, and the engine validates them. Plain Python with no Django
import: the start page (`scorekeeper.games.services`) and a game started offline on the phone
(through `phone`, packed for the browser) read the form the same way.
"""

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import engine
from scorekeeper.engine.formatting import number, rule_set_name
from scorekeeper.engine.house_rules import opening_meld_words
from scorekeeper.engine.seating import dealing_order

MAX_SIDE_SLOTS = engine.TABLE_SIDES_MAX
NAME_MAX = 100

LABELS = {
    "going_out_bonus": "Going-out bonus",
    "target_score": "Target score (blank: play a fixed number of rounds)",
    "rounds": "Rounds (blank: play to the target)",
    "decks": "Decks",
    "jokers_per_deck": "Jokers in each deck",
    "cut_bonus": "Exact-cut bonus",
    "red_three_bonus": "Red three laid down (bonus)",
    "red_three_in_hand_penalty": "Red three left in hand (penalty)",
    "black_three_in_hand_penalty": "Black three left in hand (penalty)",
    "foot_penalty": "Foot never picked up (penalty)",
    "going_out_canastas": "Canastas needed to go out",
    "mixed_max_wild": "Most wild cards in a mixed canasta (blank: fewer than naturals)",
    "min_sides": "Fewest sides",
    "max_sides": "Most sides (blank: no limit)",
    "special_threes": "Threes score on their own",
    "black_threes_meld": "Black threes can be melded when going out",
    "open_books_change_sides": "Open books go to the other team (Cutthroat)",
    "went_out_hand": "Cards held by the side that went out",
    "opening_meld_by": "Opening meld set by",
    "opening_meld": "Opening meld levels (JSON)",
    "canasta_bonus": "Canasta bonus",
    "going_out_minimum": "Canastas of each kind needed to go out",
    "card_values": "Card values",
    "concealed_bonus": "Going out concealed (bonus on top)",
    "red_threes_all_bonus": "All the red threes to one side (bonus; 0: each as one)",
    "red_threes_against": "Red threes count against a side",
    "red_threes_canastas_needed": "Canastas that keep red threes from counting against",
    "threes_in_hand": "Threes left in hand",
}
CHOICES = {
    "went_out_hand": (
        ("counts", "count"),
        ("dismissed", "are dismissed"),
        ("must_be_zero", "must be none"),
    ),
    "opening_meld_by": (("score", "the side's score"), ("round", "the round")),
    "red_threes_against": (
        ("never", "never"),
        ("without_meld", "when it melded nothing"),
        ("without_canastas", "when it has too few canastas"),
    ),
    "threes_in_hand": (
        ("counted_apart", "counted apart, at their penalties"),
        ("in_hand_points", "in the points left in hand"),
    ),
}
# A line under a field where its label alone leaves the player guessing.
HINTS = {
    "decks": "More players need more cards: a table of five may need a fourth deck.",
    "opening_meld": "By round: [60, 90, 120, 150]. By score: [[null, 50], [1500, 90]], "
    "each a lowest total and its meld.",
}
YES_NO = (("yes", "yes"), ("no", "no"))


@dataclass(frozen=True)
class SideSpec:
    name: str
    players: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class RuleField:
    key: str
    label: str
    kind: str  # "number", "bool", "choice", "json"
    value: str
    preset: str
    choices: tuple[tuple[str, str], ...] = ()
    errors: tuple[str, ...] = ()
    hint: str = ""

    @property
    def differs(self) -> bool:
        """The value typed is not the preset's: a house rule."""
        return self.value.strip() != self.preset

    @property
    def preset_text(self) -> str:
        """The preset's value as a player reads it: `10,000`, `the round`, `none`."""
        if self.kind == "choice":
            return dict(self.choices).get(self.preset, self.preset)
        if self.kind == "number" and re.fullmatch(r"-?[0-9]{1,12}", self.preset):
            return number(int(self.preset))
        if self.kind == "json":
            return opening_meld_words(json.loads(self.preset))
        return self.preset or "none"


def rules_open(fields: tuple[RuleField, ...]) -> bool:
    """Whether the house rules are shown unfolded: one differs from the preset or has an error."""
    return any(f.errors or f.differs for f in fields)


@dataclass(frozen=True)
class PlayerSlot:
    key: str
    seat: str
    value: str
    # What the name is until someone types one: "Player 1", "Player 2" round the table.
    default: str = ""
    # A team's player by their seat round the table, as the default names number them (team 1
    # has players 1 and 3, team 2 players 2 and 4); "Name" for a game of players.
    label: str = "Name"
    # A team's third player, folded away until wanted: most tables play teams of two.
    extra: bool = False


@dataclass(frozen=True)
class SideSlot:
    index: int
    name_key: str
    name: str
    players: tuple[PlayerSlot, ...]
    required: bool
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class StartForm:
    rules: engine.RuleSet
    sides: tuple[SideSlot, ...]
    team_size: int
    first_dealer: str
    rule_fields: tuple[RuleField, ...]
    errors: tuple[str, ...] = ()
    dealer_errors: tuple[str, ...] = ()

    @property
    def house_rules_open(self) -> bool:
        return rules_open(self.rule_fields)


def _shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | dict):
        return json.dumps(value)
    return str(value)


def rule_values(rules: engine.RuleSet) -> dict[str, str]:
    """Every parameter as the form shows it: `rule-<name>` or `rule-<name>-<key>`."""
    values = {}
    for name, value in rules.parameters().items():
        if name in ("canasta_bonus", "going_out_minimum", "card_values"):
            keys = list(rules.kinds if name == "going_out_minimum" else value)
            if name == "card_values" and rules.special_threes and "black3" not in keys:
                keys.append("black3")  # blank unless black threes are given a value
            for key in keys:
                default = None if name == "card_values" else 0
                values[f"rule-{name}-{key}"] = _shown(value.get(key, default))
        else:
            values[f"rule-{name}"] = _shown(value)
    return values


def _parse_value(name: str, raw: str) -> Any:
    raw = raw.strip()
    if name in ("special_threes", "black_threes_meld", "open_books_change_sides"):
        return {"yes": True, "no": False}.get(raw, raw)
    if name == "opening_meld":
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            # The engine refuses the text as typed, naming the field and the form it needs.
            return raw
    if name in CHOICES:
        return raw
    if raw == "":
        return None
    if re.fullmatch(r"-?[0-9]{1,3}(,[0-9]{3}){1,3}", raw):
        # 10,000 as the pages write it.
        raw = raw.replace(",", "")
    return int(raw) if re.fullmatch(r"-?[0-9]{1,12}", raw) else raw


def overrides_from(rules: engine.RuleSet, data: Mapping[str, str]) -> dict[str, Any]:
    """The house rules: every posted parameter that differs from the preset's value."""
    preset = rule_values(rules)
    overrides: dict[str, Any] = {}
    for key, shown in preset.items():
        raw = data.get(key)
        if raw is None or raw.strip() == shown:
            continue
        _, name, *inner = key.split("-", 2)
        value = _parse_value(name, raw)
        if inner:
            overrides.setdefault(name, {})[inner[0]] = value
        else:
            overrides[name] = value
    return overrides


# A team game starts with teams of two; a third player is typed in.
DEFAULT_TEAM_SIZE = 2


def team_size(rules: engine.RuleSet) -> int:
    return 3 if rules.partnerships else 1


def parse_sides(
    rules: engine.RuleSet, data: Mapping[str, str]
) -> tuple[list[SideSpec], int | None, list[engine.FieldError], list[int]]:
    """The named sides, the first dealer's seat, the problems found and each side's form slot."""
    problems: list[engine.FieldError] = []
    specs: list[SideSpec] = []
    seat_of: dict[str, tuple[int, int]] = {}
    slots: list[int] = []  # the form slot of each named side, in seating order
    width = team_size(rules)
    slot_count = min(rules.max_sides or MAX_SIDE_SLOTS, MAX_SIDE_SLOTS)
    filled = []
    for index in range(slot_count):
        players = [data.get(f"side{index}-player{p}", "").strip() for p in range(width)]
        name = data.get(f"side{index}-name", "").strip()
        if any(players) or name:
            filled.append((index, name, players))
    for position, (index, name, players) in enumerate(filled):
        named = [p for p in players if p]
        # A team without a name is called after its players.
        name = name or " & ".join(named)
        if not named:
            problems.append(
                engine.FieldError(f"side{index}", f"Side {index + 1} needs at least one player.")
            )
        if "\x00" in name or any("\x00" in p for p in players):
            # PostgreSQL cannot store a NUL byte in text; no keyboard types one either.
            problems.append(
                engine.FieldError(
                    f"side{index}",
                    f"Side {index + 1}'s names cannot contain a NUL character; "
                    "use letters, digits, spaces and punctuation.",
                )
            )
        if len(name) > NAME_MAX:
            problems.append(
                engine.FieldError(
                    f"side{index}",
                    f"Side {index + 1}'s name has {len(name)} characters; at most {NAME_MAX}.",
                )
            )
        specs.append(SideSpec(name, tuple(named) if width > 1 else ()))
        slots.append(index)
        seat = 0
        for place, player in enumerate(players):
            if player:
                seat_of[f"{index}-{place}"] = (position, seat)
                seat += 1
    need = rules.min_sides
    if len(filled) < need:
        problems.append(
            engine.FieldError(
                "sides",
                f"{rule_set_name(rules.id)} needs at least {need} {rules.words['sides']}; "
                f"name {need - len(filled)} more.",
            )
        )
    dealer = None
    chosen = data.get("first_dealer", "")
    if chosen in seat_of:
        position, place = seat_of[chosen]
        dealer = dealing_order([len(spec.players) for spec in specs]).index((position, place))
    else:
        problems.append(
            engine.FieldError("first_dealer", "Choose who deals first: tap the circle by a name.")
        )
    return specs, dealer, problems, slots


def read_start(
    rules: engine.RuleSet, data: Mapping[str, str]
) -> tuple[list[SideSpec], int | None, dict[str, Any], list[engine.FieldError], list[int]]:
    """The posted start form: sides, first dealer, house rules, every problem found in them
    (the house rules checked within what a table plays) and each side's form slot."""
    specs, dealer, problems, slots = parse_sides(rules, data)
    overrides = overrides_from(rules, data)
    try:
        engine.table_rules({"base": rules.id, "overrides": overrides})
    except engine.RoundError as error:
        problems.extend(error.errors)
    return specs, dealer, overrides, problems, slots


def at_slots(errors: list[engine.FieldError], slots: list[int]) -> list[engine.FieldError]:
    """Engine errors about `sides[i]` moved to the form slot where that side was typed."""
    moved = []
    for error in errors:
        match = re.match(r"sides\[(\d+)\]", error.path)
        if match and int(match.group(1)) < len(slots):
            moved.append(engine.FieldError(f"side{slots[int(match.group(1))]}", error.message))
        else:
            moved.append(error)
    return moved


def default_name(rules: engine.RuleSet, side: int, place: int) -> str:
    """The name a seat has until one is typed: the sides a game needs are filled, numbered in
    seating order (a team's first players, then its second ones), so Start works at once."""
    if side >= rules.min_sides or place >= DEFAULT_TEAM_SIZE:
        return ""
    return f"Player {place * rules.min_sides + side + 1}"


def error_key(rule_keys: set[str], path: str) -> str:
    """The form slot an error's path is shown at: its house-rule field, `sides` for the sides
    as a whole, else the path itself (`side2`, `first_dealer`)."""
    if path.startswith("rules.overrides."):
        key = "rule-" + path.removeprefix("rules.overrides.").replace(".", "-")
        while key not in rule_keys and key.count("-") > 1:
            key = key.rsplit("-", 1)[0]
        return key
    if path.startswith("sides["):
        return "sides"
    return path


def placed_errors(
    rules: engine.RuleSet, errors: Sequence[engine.FieldError]
) -> dict[str, list[str]]:
    """Each error's message under the form slot it is shown at (see `error_key`)."""
    placed: dict[str, list[str]] = {}
    rule_keys = set(rule_values(rules))
    for error in errors:
        placed.setdefault(error_key(rule_keys, error.path), []).append(error.message)
    return placed


def rule_fields(
    rules: engine.RuleSet,
    data: Mapping[str, str],
    placed: Mapping[str, Sequence[str]] | None = None,
) -> tuple[RuleField, ...]:
    """Every parameter of a preset as a house-rule field: the value in `data` (the preset's
    where it has none), the preset's beside it, and the errors placed at it. The game's start
    form and a league's settings both show the rules through this."""
    placed = placed or {}
    fields = []
    for key, shown in rule_values(rules).items():
        _, name, *inner = key.split("-", 2)
        label = LABELS.get(name, name)
        if name == "foot_penalty" and rules.has_foot:
            label = f"{rules.words['foot'].capitalize()} never picked up (penalty)"
        if inner:
            inner_label = (
                rules.label(inner[0])
                if name != "card_values"
                else inner[0].replace("black3", "black 3")
            )
            label = f"{label}: {inner_label}"
        if name in ("special_threes", "black_threes_meld", "open_books_change_sides"):
            kind, choices = "choice", YES_NO
        elif name in CHOICES:
            kind, choices = "choice", CHOICES[name]
        elif name == "opening_meld":
            kind, choices = "json", ()
        else:
            kind, choices = "number", ()
        fields.append(
            RuleField(
                key,
                label,
                kind,
                data.get(key, shown),
                shown,
                choices,
                tuple(placed.get(key, ())),
                HINTS.get(name, "") if not inner else "",
            )
        )
    return tuple(fields)


def build(
    rules: engine.RuleSet,
    data: Mapping[str, str],
    errors: list[engine.FieldError] = (),
) -> StartForm:
    """The start form for a preset, filled with data, each error beside its field."""
    placed = placed_errors(rules, errors)
    rule_keys = set(rule_values(rules))
    fields = rule_fields(rules, data, placed)
    width = team_size(rules)
    slots = min(rules.max_sides or MAX_SIDE_SLOTS, MAX_SIDE_SLOTS)
    sides = tuple(
        SideSlot(
            index,
            f"side{index}-name",
            data.get(f"side{index}-name", ""),
            tuple(
                PlayerSlot(
                    f"side{index}-player{p}",
                    f"{index}-{p}",
                    data.get(f"side{index}-player{p}", default_name(rules, index, p)),
                    default_name(rules, index, p),
                    label=f"Player {p * slots + index + 1}" if width > 1 else "Name",
                    extra=p >= DEFAULT_TEAM_SIZE,
                )
                for p in range(width)
            ),
            index < rules.min_sides,
            tuple(placed.get(f"side{index}", ())),
        )
        for index in range(slots)
    )
    general = [m for k, ms in placed.items() for m in ms if k in ("sides", "__all__", "")]
    general += [
        m
        for k, ms in placed.items()
        for m in ms
        if k not in rule_keys
        and k not in ("sides", "__all__", "", "first_dealer")
        and not k.startswith("side")
    ]
    return StartForm(
        rules=rules,
        sides=sides,
        team_size=width,
        first_dealer=data.get("first_dealer", "0-0"),
        rule_fields=fields,
        errors=tuple(general),
        dealer_errors=tuple(placed.get("first_dealer", ())),
    )
