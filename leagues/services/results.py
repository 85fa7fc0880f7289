"""The league's record of each game: results, ratings, voids."""

from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Max, OuterRef, Subquery

from leagues import ratings
from leagues.models import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    League,
    LeagueEvent,
    LeagueGame,
    Membership,
    Participation,
)
from leagues.services.closing import night_settle
from leagues.services.core import (
    User,
    full_check,
    record_event,
    refusal,
)
from leagues.services.seasons import day_text
from leagues.services.standings import rating_charts_refresh, standings_refresh
from scorekeeper import engine
from scorekeeper.games.scoring import status_for
from scorekeeper.models import Game, Side
from scorekeeper.rounds.confirmation import all_confirmed, rounds_confirm_all

# What a game gives each of its participations; an import checks a file's against them too.
PARTICIPATION_FIGURES = (
    "counted",
    "outcome",
    "points_for",
    "points_against",
    "rounds",
    "went_out",
    "red_threes",
    "hand_points",
    "canastas",
)


@transaction.atomic
def league_game_refresh(
    *, game: Game, sides: Sequence[Side], status: engine.GameStatus, whole: bool = True
) -> None:
    """Bring a league game's participations and the league's ratings up to date with its
    score; called whenever the kitchen-table app stores a score (`whole` False: `status` holds
    only the rounds just saved)."""
    league_game = LeagueGame.objects.select_for_update().filter(game=game).first()
    if league_game is None:
        return
    if not whole:
        # A participation sums every round of the game.
        status = status_for(game, sides, list(game.rounds.order_by("number")))
    _results_write(league_game, sides, status)
    _settle(league_game)


def _settle(league_game: LeagueGame) -> None:
    if league_game.night_id is not None:
        night_settle(night_id=league_game.night_id, table=league_game.table)


def _results_write(league_game: LeagueGame, sides: Sequence[Side], status) -> None:
    # A game counts once it is over, not voided and, where the table confirms its rounds,
    # every round is confirmed (by another side or an organiser).
    counted = bool(
        status is not None
        and status.finished
        and not league_game.voided
        and all_confirmed(league_game.game)
    )
    if counted or league_game.ledger is not None:
        # A game that counts, or did: it may take a ledger place or replay the ratings. Locked
        # before its participations are read, so that a merge that moved one of them to another
        # player meanwhile is seen, and before they are written, as a merge locks its leagues
        # before it moves participations.
        _ledger_locked(league_game.league_id)
    participations = list(league_game.participations.order_by("side", "place"))
    before = _ranking(participations)
    counted_before = any(p.counted for p in participations)
    figures = side_figures(sides, status) if status is not None else {}
    totals = [status.totals[side.name] for side in sides] if status is not None else []
    for p in participations:
        p.counted, p.outcome = counted, ""
        if status is None:
            continue
        own = totals[p.side]
        best_other = max((t for i, t in enumerate(totals) if i != p.side), default=0)
        p.points_for, p.points_against = own, best_other
        if counted:
            p.outcome = "W" if own > best_other else "T" if own == best_other else "L"
        p.rounds = len(status.rounds)
        fig = figures[p.side]
        p.went_out, p.red_threes = fig["went_out"], fig["red_threes"]
        p.hand_points, p.canastas = fig["hand_points"], fig["canastas"]
    Participation.objects.bulk_update(participations, PARTICIPATION_FIGURES)
    if counted and league_game.ledger is None:
        # Read under the lock: a game that waited for another's place takes the next one, and
        # rates from the members' ratings that game left.
        league_game.ledger = (
            LeagueGame.objects.filter(league=league_game.league_id).aggregate(m=Max("ledger"))["m"]
            or 0
        ) + 1
        league_game.save(update_fields=["ledger"])
        _ratings_apply_last(league_game, participations, totals)
    elif league_game.ledger is not None and _ranking(participations) != before:
        ratings_replay(league=league_game.league, start=league_game.ledger)
    # A game that neither counted nor counts (one still being played) is in no standing.
    if counted or counted_before:
        standings_refresh(
            league=league_game.league_id, player_ids=[p.player_id for p in participations]
        )


def _ledger_locked(league_id: int) -> None:
    """Lock the league's row until the transaction ends: the rating ledger is then written by
    one transaction at a time (a place given, the ratings applied or replayed), so that two
    tables finishing at once take places one after the other and the ratings follow the
    ledger's order. Locked after the game's rows and before its participations, members and
    night; a merge locks its players first, then the league. FOR NO KEY UPDATE, as every lock
    that queues a league's writers: it leaves alone the rows that merely refer to the league
    (an audit entry, a standing), so that a night closing or a member added never waits for
    it while holding what it waits for. (SQLite has no row locks: its writes already run one
    at a time.)"""
    list(
        League.objects.select_for_update(no_key=True)
        .filter(pk=league_id)
        .values_list("pk", flat=True)
    )


def _ranking(participations: Sequence[Participation]) -> tuple:
    """What the ratings depend on: whether the game counts and the order of its sides."""
    totals = {p.side: p.points_for for p in participations}
    ranks = ratings.ranks_of([totals[s] for s in sorted(totals)])
    return (tuple(p.counted for p in participations), tuple(ranks))


def side_figures(sides: Sequence[Side], status: engine.GameStatus) -> dict[int, dict]:
    """Each side's figures the league keeps, by position: outs, red threes, hand, canastas."""
    figures = {
        i: {"went_out": 0, "red_threes": 0, "hand_points": 0, "canastas": {}}
        for i in range(len(sides))
    }
    index = {side.name: i for i, side in enumerate(sides)}
    for game_round in status.rounds:
        for side in game_round.result.sides:
            fig = figures[index[side.name]]
            for line in side.lines:
                if line.item == "going_out":
                    fig["went_out"] += 1
                elif line.item == "red_threes":
                    fig["red_threes"] += line.count or 0
                elif line.item == "hand_cards":
                    fig["hand_points"] -= line.points
                elif line.item.endswith("_canastas") and not line.item.startswith("taken_"):
                    kind = line.item.removesuffix("_canastas")
                    fig["canastas"][kind] = fig["canastas"].get(kind, 0) + (line.count or 0)
    return figures


def _ratings_apply_last(
    league_game: LeagueGame, participations: list[Participation], totals: list[int]
) -> None:
    """Rate the newest game of the ledger from the members' current ratings."""
    members = {
        m.player_id: m
        for m in Membership.objects.filter(
            league=league_game.league_id, player__in=[p.player_id for p in participations]
        )
    }
    state = {pid: ratings.Skill(m.mu, m.sigma) for pid, m in members.items()}
    _rate_one(participations, totals, state)
    Participation.objects.bulk_update(
        participations, ["mu_before", "sigma_before", "mu_after", "sigma_after"]
    )
    for pid, member in members.items():
        member.mu, member.sigma = state[pid].mu, state[pid].sigma
        member.rated_games += 1
    Membership.objects.bulk_update(members.values(), ["mu", "sigma", "rated_games"])


def _rate_one(
    participations: Sequence[Participation], totals: Sequence[int], state: dict[int, Any]
) -> None:
    default = ratings.Skill(DEFAULT_MU, DEFAULT_SIGMA)
    sides: dict[int, list[Participation]] = {}
    for p in participations:
        sides.setdefault(p.side, []).append(p)
    order = sorted(sides)
    rated = ratings.rate(
        [[state.get(p.player_id, default) for p in sides[s]] for s in order],
        [totals[s] for s in order],
    )
    for s, skills in zip(order, rated, strict=True):
        for p, skill in zip(sides[s], skills, strict=True):
            before = state.get(p.player_id, default)
            p.mu_before, p.sigma_before = before.mu, before.sigma
            p.mu_after, p.sigma_after = skill.mu, skill.sigma
            state[p.player_id] = skill


@transaction.atomic
def ratings_replay(*, league: League, start: int | None) -> int:
    """Recompute the league's ratings from ledger position `start` on (None: from the first
    game), after a correction, a void or a merge; returns how many games were rated."""
    # Already held when a game's change or a merge replays; taken here for any other caller.
    _ledger_locked(league.pk)
    start = start or 0
    # Every member's skill just before `start`: their last rating from an earlier game.
    earlier = Participation.objects.filter(
        league=league,
        player=OuterRef("player"),
        mu_after__isnull=False,
        league_game__ledger__lt=start,
    ).order_by("-league_game__ledger")
    members = list(
        Membership.objects.filter(league=league).annotate(
            prev_mu=Subquery(earlier.values("mu_after")[:1]),
            prev_sigma=Subquery(earlier.values("sigma_after")[:1]),
        )
    )
    state = {
        m.player_id: ratings.Skill(m.prev_mu, m.prev_sigma)
        for m in members
        if m.prev_mu is not None
    }
    later = Participation.objects.filter(league=league, league_game__ledger__gte=start)
    # Whose charts change: anyone with a game from `start` on, rated before or not.
    redrawn = set(later.values_list("player_id", flat=True))
    later.update(mu_before=None, sigma_before=None, mu_after=None, sigma_after=None)
    rows = list(
        later.filter(counted=True)
        .select_related("league_game")
        .order_by("league_game__ledger", "side", "place")
    )
    by_game: dict[int, list[Participation]] = {}
    for p in rows:
        by_game.setdefault(p.league_game.ledger, []).append(p)
    for ledger in sorted(by_game):
        group = by_game[ledger]
        totals_by_side = {p.side: p.points_for for p in group}
        totals = [totals_by_side.get(s, 0) for s in range(max(totals_by_side) + 1)]
        _rate_one(group, totals, state)
    _ratings_write(rows)
    counts = dict(
        Participation.objects.filter(league=league, mu_after__isnull=False)
        .values("player")
        .annotate(n=Count("id"))
        .values_list("player", "n")
    )
    for m in members:
        skill = state.get(m.player_id, ratings.Skill(DEFAULT_MU, DEFAULT_SIGMA))
        m.mu, m.sigma, m.rated_games = skill.mu, skill.sigma, counts.get(m.player_id, 0)
    Membership.objects.bulk_update(members, ["mu", "sigma", "rated_games"], batch_size=2000)
    rating_charts_refresh(league=league, player_ids=redrawn)
    return len(by_game)


def _ratings_write(rows: Sequence[Participation]) -> None:
    # One prepared UPDATE per row, sent in a batch: bulk_update's CASE expressions grow with
    # the batch and made a 20,000-game replay take minutes.
    table = connection.ops.quote_name(Participation._meta.db_table)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {table} SET mu_before = %s, sigma_before = %s, mu_after = %s, "
            "sigma_after = %s WHERE id = %s",
            [(p.mu_before, p.sigma_before, p.mu_after, p.sigma_after, p.pk) for p in rows],
        )


@transaction.atomic
def game_void(*, league_game: LeagueGame, reason: str, user: User) -> LeagueGame:
    """Void a league game: it stays on record but leaves the standings and the ratings."""
    league_game = LeagueGame.objects.select_for_update().get(pk=league_game.pk)
    reason = reason.strip()
    if not reason:
        raise refusal("reason", "Say why the game is voided (up to 200 characters).")
    if league_game.voided:
        raise refusal("reason", "This game is already voided.")
    league_game.voided, league_game.void_reason = True, reason
    full_check(league_game)
    league_game.save(update_fields=["voided", "void_reason"])
    _refresh_from_game(league_game)
    record_event(
        league_game.league,
        LeagueEvent.Kind.GAME_VOIDED,
        user,
        f"Game {league_game.game} of {day_text(league_game.date)} voided: {reason}",
        before={"voided": False},
        after={"voided": True, "reason": reason, "game": league_game.game.public_id},
    )
    _settle(league_game)
    return league_game


@transaction.atomic
def game_unvoid(*, league_game: LeagueGame, user: User) -> LeagueGame:
    """Lift a void: the game counts again and the ratings are replayed."""
    league_game = LeagueGame.objects.select_for_update().get(pk=league_game.pk)
    if not league_game.voided:
        raise refusal("reason", "This game is not voided.")
    reason = league_game.void_reason
    league_game.voided, league_game.void_reason = False, ""
    league_game.save(update_fields=["voided", "void_reason"])
    _refresh_from_game(league_game)
    record_event(
        league_game.league,
        LeagueEvent.Kind.GAME_RESTORED,
        user,
        f"Game {league_game.game} of {day_text(league_game.date)} counts again",
        before={"voided": True, "reason": reason},
        after={"voided": False, "game": league_game.game.public_id},
    )
    _settle(league_game)
    return league_game


@transaction.atomic
def game_rounds_confirm(*, league_game: LeagueGame, user: User) -> list[int]:
    """The organiser's word on every round of a league game not yet confirmed (waiting for the
    other side, or disputed): the game counts once it is over. Recorded in the audit."""
    name = user.get_username() if user is not None and user.is_authenticated else "an organiser"
    # The game's row first, as every write of a league game locks it (rounds_confirm_all).
    try:
        numbers = rounds_confirm_all(game=league_game.game, organiser=name, user=user)
    except engine.RoundError as error:
        raise refusal("round", error.errors[0].message) from None
    if not numbers:
        raise refusal("round", "Every round of this game is confirmed already.")
    league_game.refresh_from_db()
    listed = ", ".join(str(n) for n in numbers)
    record_event(
        league_game.league,
        LeagueEvent.Kind.ROUNDS_CONFIRMED,
        user,
        f"Round{'s' if len(numbers) > 1 else ''} {listed} of game {league_game.game}"
        f"{f' (table {league_game.table})' if league_game.table else ''} of "
        f"{day_text(league_game.date)} confirmed by the organiser",
        after={"rounds": numbers, "game": league_game.game.public_id},
    )
    return numbers


def _refresh_from_game(league_game: LeagueGame) -> None:
    game = league_game.game
    sides = list(game.sides.order_by("position"))
    rounds = list(game.rounds.order_by("number"))
    status = status_for(game, sides, rounds) if rounds else None
    _results_write(league_game, sides, status)
