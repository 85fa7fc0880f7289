"""Reads for games: querysets and the plain values the pages show."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.http import HttpRequest

from scorekeeper import engine
from scorekeeper.access import scoring_ids
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side
from scorekeeper.scoring import game_ruleset
from scorekeeper.seating import dealer_seat, dealing_order


@dataclass(frozen=True)
class Seat:
    side_index: int
    player: str


def seats(sides: Sequence[Side]) -> list[Seat]:
    """Players in dealing order."""
    order = dealing_order([len(side.players) for side in sides])
    return [
        Seat(index, (sides[index].players or [sides[index].name])[place]) for index, place in order
    ]


def dealer_for(game: Game, sides: Sequence[Side], round_number: int) -> Seat:
    """Who deals the given round."""
    index, place = dealer_seat(
        [len(side.players) for side in sides], game.first_dealer, round_number
    )
    return Seat(index, (sides[index].players or [sides[index].name])[place])


def _game_rows() -> list[Prefetch]:
    """A game's sides in seating order and its rounds in order, each with its scores."""
    return [
        Prefetch("sides", queryset=Side.objects.order_by("position")),
        Prefetch(
            "rounds",
            queryset=Round.objects.order_by("number").prefetch_related(
                Prefetch(
                    "scores",
                    queryset=RoundScore.objects.select_related("side").order_by("side__position"),
                )
            ),
        ),
    ]


def game_row(public_id: str) -> Game | None:
    """The game at this address with its league's context (its page says which league, night
    and table it belongs to), without its sides and rounds; or None."""
    return (
        Game.objects.select_related(
            "league_game__league", "league_game__season", "league_game__night"
        )
        .filter(public_id=public_id)
        .first()
    )


def game_loaded(game: Game) -> Game:
    """The game with its sides and rounds (and their scores) fetched, as `game_get` gives it."""
    prefetch_related_objects([game], *_game_rows())
    return game


def game_get(public_id: str) -> Game | None:
    """The game at this address, with what its page needs, or None."""
    return (
        # A league game's page says which league, night and table it belongs to.
        Game.objects.select_related(
            "winner",
            "owner",
            "league_game__league",
            "league_game__season",
            "league_game__night",
        )
        .prefetch_related(*_game_rows())
        .filter(public_id=public_id)
        .first()
    )


@dataclass(frozen=True)
class GameView:
    """A game's page: scoreboard rows, totals, the next round's dealer and meld requirements."""

    game: Game
    rules: engine.RuleSet
    sides: list[Side]
    rounds: list[Round]
    rows: list[tuple[Round, list[RoundScore]]]
    totals: list[int]
    next_round: int | None
    dealer: Seat | None
    meld: list[int]


def game_view(game: Game) -> GameView:
    """Everything the game page shows, from rows stored by the engine's scoring."""
    rules = game_ruleset(game)
    sides = list(game.sides.all())
    rounds = list(game.rounds.all())
    rows = [(r, list(r.scores.all())) for r in rounds]
    totals = [score.running_total for score in rows[-1][1]] if rows else [0] * len(sides)
    next_round = None if game.finished else len(rounds) + 1
    dealer = dealer_for(game, sides, next_round) if next_round else None
    meld = [rules.opening_meld_for(next_round, total) for total in totals] if next_round else []
    return GameView(game, rules, sides, rounds, rows, totals, next_round, dealer, meld)


def games_for(request: HttpRequest) -> QuerySet[Game]:
    """The games this browser or signed-in user is scoring, unfinished first."""
    ids = scoring_ids(request)
    games = Game.objects.filter(public_id__in=ids)
    if request.user.is_authenticated:
        games = games | Game.objects.filter(owner=request.user)
    return games.for_listing()


def game_events(game: Game) -> QuerySet[GameEvent]:
    """The game's history, newest first."""
    return game.events.select_related("user")
