"""Who sits where: the one place that knows the dealing order of a table."""

from collections.abc import Sequence


def dealing_order(team_sizes: Sequence[int]) -> list[tuple[int, int]]:
    """(side, player) pairs in dealing order: the deal passes left, so partners alternate with
    opponents. A side with no named players (individual play) is one seat."""
    sizes = [max(1, size) for size in team_sizes]
    return [
        (side, place)
        for place in range(max(sizes, default=1))
        for side, size in enumerate(sizes)
        if place < size
    ]


def dealer_seat(team_sizes: Sequence[int], first_dealer: int, round_number: int) -> tuple[int, int]:
    """(side, player) dealing round `round_number`, when seat `first_dealer` (in dealing order)
    dealt the first."""
    order = dealing_order(team_sizes)
    return order[(first_dealer + round_number - 1) % len(order)]
