"""Games and rounds as the tests make them: the sides of a two-sided game, the start page's form,
and a round's form with the scores it should add up to."""

from scorekeeper import engine
from scorekeeper.engine.cards import deck_points
from scorekeeper.portable.start_fields import SideSpec

TEAM_PRESETS = {"four-rounds", "cutthroat", "canasta", "samba", "buraco"}


def side_specs(preset: str) -> list[SideSpec]:
    if preset in TEAM_PRESETS:
        return [SideSpec("Ann & Cy", ("Ann", "Cy")), SideSpec("Bob & Di", ("Bob", "Di"))]
    return [SideSpec("Ann"), SideSpec("Bob")]


def start_form(preset: str) -> dict[str, str]:
    """What a person types on the start page for a two-sided game, Ann dealing first."""
    if preset in TEAM_PRESETS:
        return {
            "side0-player0": "Ann",
            "side0-player1": "Cy",
            "side1-player0": "Bob",
            "side1-player1": "Di",
            "first_dealer": "0-0",
        }
    return {"side0-player0": "Ann", "side1-player0": "Bob", "first_dealer": "0-0"}


def going_out_canastas(rules: engine.RuleSet) -> dict[str, int]:
    """The fewest canastas by kind that let a side go out under these rules."""
    counts = {kind: n for kind, n in rules.going_out_minimum.items() if n}
    short = rules.going_out_canastas - sum(counts.values())
    if short:
        counts[mixed_kind(rules)] = counts.get(mixed_kind(rules), 0) + short
    return counts


def natural_kind(rules: engine.RuleSet) -> str:
    """The rule set's canasta without wild cards: natural, or Buraco's clean."""
    return next(kind for kind in ("natural", "clean") if kind in rules.canasta_bonus)


def mixed_kind(rules: engine.RuleSet) -> str:
    """The rule set's canasta with wild cards: mixed, or Buraco's dirty."""
    return next(kind for kind in ("mixed", "dirty") if kind in rules.canasta_bonus)


def usual_melded(rules: engine.RuleSet) -> int:
    """What the side that went out melds: 1,000, or 400 where the packs hold too few points
    for 1,000 beside the other side's cards (Buraco's two packs hold 960)."""
    return 1000 if deck_points(rules, rules.decks) >= 1500 else 400


def round_form(
    rules: engine.RuleSet, *, melded: int | None = None, other_melded: int = 310, number: int = 1
) -> dict:
    """Round `number` as the form posts it: side 1 goes out with the fewest canastas it may;
    side 2 has a natural canasta and 85 points left in hand."""
    melded = usual_melded(rules) if melded is None else melded
    data = {"round_number": str(number), "went_out": "s0", "s0-melded_points": str(melded)}
    for kind, count in going_out_canastas(rules).items():
        data[f"s0-canastas-{kind}"] = str(count)
    data.update(
        {
            f"s1-canastas-{natural_kind(rules)}": "1",
            "s1-melded_points": str(other_melded),
            "s1-hand_points": "85",
        }
    )
    return data


def expected_scores(
    rules: engine.RuleSet, *, melded: int | None = None, other_melded: int = 310
) -> tuple[int, int]:
    """The same round added up by hand from the rule set's published numbers."""
    melded = usual_melded(rules) if melded is None else melded
    bonus = sum(rules.canasta_bonus[k] * n for k, n in going_out_canastas(rules).items())
    went_out = bonus + rules.going_out_bonus + melded
    other = rules.canasta_bonus[natural_kind(rules)] + other_melded - 85
    return went_out, other
