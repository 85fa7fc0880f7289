"""Player ratings with openskill's Plackett-Luce model, one game at a time.

Teams of different sizes: openskill rates a team as the sum of its players' skills, so a team
of three would be expected to beat a team of two of the same players' strength, win little for
beating them and lose a lot for losing. At a card table a third partner brings a third hand and
foot but not a third share of the skill that decides the game, so we rate each side as one
contestant whose skill is the *mean* of its players' (mu the mean, sigma squared the mean of
the sigmas squared). openskill rates those contestants; every player of a side then moves by the
side's change in mu, scaled by how uncertain that player is compared with the side (so the
side's mean moves by exactly that change), and shares its narrowing of sigma the same way.
A side of one is rated exactly as openskill rates a player, and two equal players on one side
move exactly as a single player of that strength would.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
KAPPA = 0.0001


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float


def ranks_of(totals: Sequence[int]) -> list[int]:
    """Ranks for openskill (1 is best) from the sides' totals; equal totals share a rank."""
    return [1 + sum(1 for other in totals if other > total) for total in totals]


def rate(sides: Sequence[Sequence[Skill]], totals: Sequence[int]) -> list[list[Skill]]:
    """Each player's skill after a game between `sides` that ended with these totals."""
    contestants = []
    for side in sides:
        mu = sum(player.mu for player in side) / len(side)
        variance = sum(player.sigma**2 for player in side) / len(side)
        contestants.append([MODEL.rating(mu=mu, sigma=math.sqrt(variance))])
    before = [(team[0].mu, team[0].sigma) for team in contestants]
    rated = MODEL.rate(contestants, ranks=ranks_of(totals))
    result = []
    for side, (mu, sigma), team in zip(sides, before, rated, strict=True):
        moved = team[0].mu - mu
        narrowed = 1 - (team[0].sigma / sigma) ** 2
        players = []
        for player in side:
            share = player.sigma**2 / sigma**2
            players.append(
                Skill(
                    player.mu + moved * share,
                    player.sigma * math.sqrt(max(1 - share * narrowed, KAPPA)),
                )
            )
        result.append(players)
    return result
