"""Reads for games: querysets and the plain values the pages show."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest

from scorekeeper import engine
from scorekeeper.access import scoring_ids
from scorekeeper.engine.seating import dealer_seat, dealing_order
from scorekeeper.games.scoring import game_ruleset
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side


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


def _game_rows(*, scores: bool = True) -> list[Prefetch]:
    """A game's sides in seating order and its rounds in order, each with its scores (unless
    `scores` is False: a new round's page needs only the totals kept on the sides)."""
    rounds = Round.objects.order_by("number")
    if scores:
        rounds = rounds.prefetch_related(
            Prefetch(
                "scores",
                queryset=RoundScore.objects.select_related("side").order_by("side__position"),
            )
        )
    return [
        Prefetch("sides", queryset=Side.objects.order_by("position")),
        Prefetch("rounds", queryset=rounds),
    ]


# What the game page reads from the game's row at every view; the rest of the page is drawn
# once per version of the game (scorekeeper.games.page), from the whole row.
PAGE_ROW = (
    "public_id",
    "scorer_token",
    "owner_id",
    "updated_at",
    # Whether the page lists the rounds that wait for another side's word.
    "confirm_rounds",
    # A league game's page says which league, night and table it belongs to, and whether it
    # was voided: read at each view, since a void does not change the game.
    "league_game__league__slug",
    "league_game__league__name",
    "league_game__night_id",
    "league_game__date",
    "league_game__table",
    "league_game__voided",
    "league_game__void_reason",
)


def game_row(public_id: str) -> Game | None:
    """The game at this address as its page needs it at every view (`PAGE_ROW`), or None."""
    found = Game.objects.select_related("league_game__league").only(*PAGE_ROW)
    # [:1], not first(): no ORDER BY to build for a unique address.
    return next(iter(found.filter(public_id=public_id)[:1]), None)


def game_loaded(pk: int) -> Game | None:
    """The game with its whole row, its sides and rounds, and the points and running totals of
    their scores (not their breakdowns, which only a round's page shows); or None."""
    scores = RoundScore.objects.order_by("side__position").only(
        "round_id", "points", "running_total"
    )
    rounds = Round.objects.order_by("number").prefetch_related(Prefetch("scores", scores))
    return (
        Game.objects.prefetch_related(
            Prefetch("sides", queryset=Side.objects.order_by("position")),
            Prefetch("rounds", queryset=rounds),
        )
        .filter(pk=pk)
        .first()
    )


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


def game_for_card(public_id: str) -> Game | None:
    """The game at this address as its score card needs it, or None: its row with its league,
    season and club night, and its sides. Its rounds are read only when the card is drawn
    (`game.rounds`), not for a card already in the cache; never the rounds' stored scores, which
    the card does not read (a 20-round game's 40 score rows were a fifth of the request)."""
    found = (
        Game.objects.select_related(
            "league_game__league", "league_game__season", "league_game__night"
        )
        .prefetch_related(Prefetch("sides", queryset=Side.objects.order_by("position")))
        .filter(public_id=public_id)
    )
    # [:1], not first(): no ORDER BY to build for a unique address.
    return next(iter(found[:1]), None)


@dataclass(frozen=True)
class GameView:
    """A game's page: scoreboard rows, totals, the next round's dealer and meld requirements."""

    game: Game
    rules: engine.RuleSet
    sides: list[Side]
    # The stored rounds; empty in a `new_round_view`, which counts them only.
    rounds: list[Round]
    played: int
    totals: list[int]
    next_round: int | None
    dealer: Seat | None
    meld: list[int]

    @property
    def rows(self) -> list[tuple[Round, list[RoundScore]]]:
        """Each round with its sides' scores (fetched with the game by `game_get`)."""
        return [(r, list(r.scores.all())) for r in self.rounds]


def game_view(game: Game) -> GameView:
    """Everything the game page shows, from rows stored by the engine's scoring."""
    rounds = list(game.rounds.all())
    return _view(game, list(game.sides.all()), rounds, len(rounds))


def _view(game: Game, sides: list[Side], rounds: list[Round], played: int) -> GameView:
    rules = game_ruleset(game)
    # The totals after the last round, kept on the sides by every write with the rounds' scores.
    totals = [side.total for side in sides]
    next_round = None if game.finished else played + 1
    dealer = dealer_for(game, sides, next_round) if next_round else None
    meld = [rules.opening_meld_for(next_round, total) for total in totals] if next_round else []
    return GameView(game, rules, sides, rounds, played, totals, next_round, dealer, meld)


def new_round_view(public_id: str) -> GameView | None:
    """A new round's page for the game at this address: its row, its sides (with the totals kept
    on them) and how many rounds were played, without reading the rounds; or None."""
    # [:1], not first(): no ORDER BY to build for a unique address.
    game = next(iter(Game.objects.filter(public_id=public_id)[:1]), None)
    if game is None:
        return None
    # Plain queries, not prefetch_related or a subquery's annotation: at each preview sent as
    # the player types, building those cost more than the queries themselves.
    sides = list(Side.objects.filter(game=game).order_by("position"))
    return _view(game, sides, [], Round.objects.filter(game=game).count())


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


@dataclass(frozen=True)
class Asked:
    """A round that waits for another side's word, as one phone sees it: `own` when this phone
    saved it, so that the other side confirms it here only once the phone is handed over."""

    number: int
    state: str
    own: bool
    checked_by: str
    dispute_reason: str
    version: str

    @property
    def disputed(self) -> bool:
        return self.state == Round.Confirmation.DISPUTED


@dataclass(frozen=True)
class Confirming:
    """A confirming game's rounds as the game page lists them: those not confirmed yet, in
    order, and how many are."""

    asked: list[Asked]
    confirmed: int


def rounds_to_confirm(game: Game, phone: str | None) -> Confirming | None:
    """The game's rounds that wait for a side's word, as this phone sees them; None in a game
    whose rounds need none. One query."""
    if not game.confirm_rounds:
        return None
    asked, confirmed = [], 0
    for r in game.rounds.only(
        "number", "confirmation", "entered_phone", "checked_by", "dispute_reason", "updated_at"
    ).order_by("number"):
        if r.confirmation == Round.Confirmation.CONFIRMED:
            confirmed += 1
            continue
        asked.append(
            Asked(
                number=r.number,
                state=r.confirmation or Round.Confirmation.WAITING,
                own=bool(phone) and r.entered_phone == phone,
                checked_by=r.checked_by,
                dispute_reason=r.dispute_reason,
                version=r.version,
            )
        )
    return Confirming(asked=asked, confirmed=confirmed)
