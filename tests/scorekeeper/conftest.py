import pytest
from django.test import Client

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record

TEAM_PRESETS = {"four-rounds", "cutthroat"}


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
        counts["mixed"] = counts.get("mixed", 0) + short
    return counts


def round_form(
    rules: engine.RuleSet, *, melded: int = 1000, other_melded: int = 310, number: int = 1
) -> dict:
    """Round `number` as the form posts it: side 1 goes out with the fewest canastas it may;
    side 2 has a natural canasta and 85 points left in hand."""
    data = {"round_number": str(number), "went_out": "s0", "s0-melded_points": str(melded)}
    for kind, count in going_out_canastas(rules).items():
        data[f"s0-canastas-{kind}"] = str(count)
    data.update(
        {
            "s1-canastas-natural": "1",
            "s1-melded_points": str(other_melded),
            "s1-hand_points": "85",
        }
    )
    return data


def expected_scores(rules: engine.RuleSet, *, melded: int = 1000, other_melded: int = 310):
    """The same round added up by hand from the rule set's published numbers."""
    bonus = sum(rules.canasta_bonus[k] * n for k, n in going_out_canastas(rules).items())
    went_out = bonus + rules.going_out_bonus + melded
    other = rules.canasta_bonus["natural"] + other_melded - 85
    return went_out, other


@pytest.fixture
def scorer(db) -> Client:
    return Client()


@pytest.fixture
def start_game(scorer):
    """Start a game through the start page, as the scoring phone; returns its address."""

    def start(preset: str) -> str:
        response = scorer.post(f"/games/new/{preset}/", start_form(preset))
        assert response.status_code == 302, response.content.decode()[:2000]
        return response["Location"]

    return start


@pytest.fixture
def game_with_rounds(db):
    """A Baskets game with n small rounds (the stock ran out each time), made by the services."""

    def make(n: int):
        game = services.game_start(preset="baskets", sides=side_specs("baskets"))
        for number in range(1, n + 1):
            round_record(
                game=game,
                number=number,
                ended_by="stock_exhausted",
                entry=[{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}],
            )
        return game

    return make
