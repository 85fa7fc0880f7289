"""League points adjustments: a penalty or bonus the organiser gives a player in a season, with
the reason. It counts in the player's league points of the season and of all time
(`selectors.league_points`), is listed under the standings and is recorded in the audit with
the player's league points before and after.

Both writes lock the player as a merge does (`player_locked`), then refresh the player's
standing rows (`standings_refresh`, which locks their membership): a merge moves a player's
adjustments to the player kept, and the two never meet half done.
"""

from django.db import transaction

from leagues import selectors
from leagues.models import (
    ADJUSTMENT_POINTS,
    League,
    LeagueEvent,
    Membership,
    Player,
    PointsAdjustment,
    Season,
    Standing,
)
from leagues.services.core import User, player_locked, record_event, refusal, save_unique
from leagues.services.standings import standings_refresh
from scorekeeper.engine.formatting import number

REASON_MAX = 200
POINTS_MESSAGE = (
    f"Give the points as a whole number from {number(ADJUSTMENT_POINTS[0])} to "
    f"{number(ADJUSTMENT_POINTS[1])}: below 0 for a penalty (−10), above for a bonus (5)."
)
ZERO_MESSAGE = "An adjustment of 0 changes nothing: give a penalty below 0 or a bonus above."
REASON_MESSAGE = f"Say why the points are adjusted (up to {REASON_MAX} characters)."
SENT_TWICE = "This adjustment was saved a moment ago; it is listed below, once."


def signed(points: int) -> str:
    """`+5` or `−10`: an adjustment as the pages write it."""
    return f"+{number(points)}" if points > 0 else number(points)


def _league_points(league: League, season: Season | None, player: Player) -> int:
    """The player's league points in the season (all time when None), adjustments included,
    from their standing row; 0 without one."""
    rows = Standing.objects.filter(league=league, player=player)
    rows = rows.filter(season=season) if season is not None else rows.filter(season__isnull=True)
    found = (
        rows.annotate(adjusted=selectors.adjusted_points(season))
        .values_list("wins", "ties", "losses", "points_for", "adjusted")
        .first()
    )
    return selectors.league_points(league, *found) if found is not None else 0


def _figures(league: League, season: Season, player: Player) -> dict[str, int]:
    return {
        "league_points": _league_points(league, season, player),
        "league_points_all_time": _league_points(league, None, player),
    }


@transaction.atomic
def adjustment_add(
    *,
    league: League,
    season: Season,
    player: Player,
    points: int,
    reason: str,
    user: User,
    form_key: str | None = None,
) -> PointsAdjustment:
    """Add `points` (below 0 a penalty) to a member's league points in a season of the league,
    with the reason. `form_key`, the adjustments page's key for its form, saves a form sent
    twice once: the second is refused."""
    if season.league_id != league.pk:
        raise refusal(
            "season", f"{season.name} is a season of another league; choose one of {league.name}'s."
        )
    if isinstance(points, bool) or not isinstance(points, int):
        raise refusal("points", POINTS_MESSAGE)
    if points == 0:
        raise refusal("points", ZERO_MESSAGE)
    if not ADJUSTMENT_POINTS[0] <= points <= ADJUSTMENT_POINTS[1]:
        raise refusal("points", f"{signed(points)} is too many. {POINTS_MESSAGE}")
    reason = (reason or "").strip()
    if not reason:
        raise refusal("reason", REASON_MESSAGE)
    if len(reason) > REASON_MAX:
        raise refusal(
            "reason",
            f"Say why the points are adjusted in at most {REASON_MAX} characters "
            f"(this has {number(len(reason))}).",
        )
    player = player_locked(league, player, "player")
    if not Membership.objects.filter(league=league, player=player).exists():
        raise refusal(
            "player", f"{player.name} is not a member of {league.name}; choose one of its members."
        )
    before = _figures(league, season, player)
    signed_in = user is not None and user.is_authenticated
    adjustment = PointsAdjustment(
        league=league,
        season=season,
        player=player,
        points=points,
        reason=reason,
        user=user if signed_in else None,
        who=user.get_username() if signed_in else "the system",
        form_key=form_key or None,
    )
    # The player's lock queues a form sent twice behind the first; the constraint holds it
    # whatever comes.
    same_form = PointsAdjustment.objects.filter(league=league, form_key=form_key)
    save_unique(
        adjustment,
        clash=same_form if form_key else PointsAdjustment.objects.none(),
        field="points",
        message=SENT_TWICE,
    )
    standings_refresh(league=league, player_ids=[player.pk])
    after = _figures(league, season, player)
    what = {"player": player.pk, "name": player.name, "season": season.name}
    record_event(
        league,
        LeagueEvent.Kind.POINTS_ADJUSTED,
        user,
        f"{signed(points)} league points for {player.name} in {season.name}: {reason}",
        before=what | before,
        after=what | after | {"points": points, "reason": reason, "adjustment": adjustment.pk},
    )
    return adjustment


@transaction.atomic
def adjustment_remove(*, adjustment: PointsAdjustment, user: User) -> None:
    """Take an adjustment back: the player's league points are as they were without it."""
    league = adjustment.league
    gone = refusal("adjustment", "This adjustment was removed already; nothing was changed.")
    found = PointsAdjustment.objects.filter(pk=adjustment.pk).select_related("player")
    current = found.first()
    if current is None:
        raise gone
    player_locked(league, current.player, "adjustment")
    locked = found.select_for_update(of=("self",)).select_related("season", "player").first()
    if locked is None:
        raise gone
    season, player = locked.season, locked.player
    before = _figures(league, season, player)
    removed = {"points": locked.points, "reason": locked.reason, "adjustment": locked.pk}
    locked.delete()
    standings_refresh(league=league, player_ids=[player.pk])
    after = _figures(league, season, player)
    what = {"player": player.pk, "name": player.name, "season": season.name}
    record_event(
        league,
        LeagueEvent.Kind.ADJUSTMENT_REMOVED,
        user,
        f"{signed(removed['points'])} league points for {player.name} in {season.name} "
        f"taken back ({removed['reason']})",
        before=what | before | removed,
        after=what | after,
    )
