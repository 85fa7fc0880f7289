"""The league's own record in a file, checked against itself and against its games: its rules
through the engine (within what a table plays, as the league's settings form holds them), its
seasons, nights and league games on dates that agree, each participation's figures as its game
gives them and every rating as a replay of the league's games gives it.

Nothing derived is taken from the file on trust: a participation's figures must be what the
engine's status of its game gives (`_results_write` keeps them so), and the ratings are replayed
from the games once the rows are in (`check_ratings`, inside the import's transaction); a file
that says otherwise is refused, naming the row and the field. The standings are not in the file:
they are rebuilt from the participations.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from leagues import services
from leagues.backup.errors import BackupError, as_in_file, figure, outside
from leagues.models import (
    ClubNight,
    League,
    LeagueGame,
    Membership,
    Participation,
    PointsAdjustment,
    Season,
)
from scorekeeper import engine
from scorekeeper.models import Game, Side

# A rating read back from the database is the one written; a replay gives it to the last bit.
# The tolerance only forgives the last digits of a backup written by another machine.
RATING_TOLERANCE = 1e-9
RATINGS = ("mu_before", "sigma_before", "mu_after", "sigma_after")
SEASON_RULES = '{"base": ..., "overrides": {...}}'


@dataclass(frozen=True)
class ScoredGame:
    """A game of the file as the engine scored it: its place in the file, its sides in seat
    order and its status."""

    index: int
    game: Game
    sides: Sequence[Side]
    status: engine.GameStatus
    # Every round confirmed, in a game that confirms its rounds (always, in one that does not):
    # until then the league does not count it.
    confirmed: bool = True


# Rules -----------------------------------------------------------------------------------------


def _table_rules(spec: Any, places: Sequence[tuple[str, str]]) -> engine.RuleSet:
    """The rules through the engine, within what a table plays; each error at its place in the
    file (`places` turns the engine's `rules.overrides` into `league.house_rules`)."""
    try:
        return engine.table_rules(spec)
    except engine.RoundError as error:
        lines = []
        for item in error.errors:
            path = item.path
            for prefix, place in places:
                if path == prefix or path.startswith(prefix + "."):
                    path = place + path.removeprefix(prefix)
                    break
            lines.append(f"{path}: {item.message}")
        raise BackupError(" ".join(lines)) from None


def check_league_rules(league: League) -> None:
    """The league's rule set and house rules, as its settings form checks them."""
    _table_rules(
        {"base": league.preset, "overrides": league.house_rules},
        [
            ("rules.overrides", "league.house_rules"),
            ("rules.base", "league.preset"),
            ("rules", "league"),
        ],
    )


def check_season(season: Season, where: str) -> None:
    """A season's rules: the league's whole rule set as the season froze it."""
    rules = season.rules
    _table_rules(rules, [("rules", f"{where}.rules")])
    if not (
        isinstance(rules, Mapping)
        and set(rules) == {"base", "overrides"}
        and isinstance(rules["overrides"], Mapping)
    ):
        raise BackupError(
            f"{where}.rules: {as_in_file(rules)} is not a season's rules, kept whole as "
            f"{SEASON_RULES}."
        )


# Dates -----------------------------------------------------------------------------------------


def _span(season: Season) -> str:
    return f"{season.starts_on} to {season.ends_on}"


def check_seasons(seasons: Sequence[Season]) -> None:
    """No two seasons share a day: a game's date falls in one season only."""
    for later, season in enumerate(seasons):
        for earlier, other in enumerate(seasons[:later]):
            if season.starts_on <= other.ends_on and other.starts_on <= season.ends_on:
                raise BackupError(
                    f"seasons[{later}]: {_span(season)} overlaps seasons[{earlier}], "
                    f"{_span(other)}; a game's date falls in one season only."
                )


def _in_season(date, season: Season, where: str) -> None:
    if not season.starts_on <= date <= season.ends_on:
        raise BackupError(f"{where}: {date} is outside its season, {_span(season)}.")


def check_nights(nights: Sequence[ClubNight], seasons: Mapping[int, Season]) -> None:
    for index, night in enumerate(nights):
        _in_season(night.date, seasons[night.season_id], f"nights[{index}].date")


# League games ----------------------------------------------------------------------------------


def check_league_games(
    league_games: Sequence[LeagueGame],
    seasons: Sequence[Season],
    nights: Mapping[int, ClubNight],
    games: Mapping[int, ScoredGame],
) -> None:
    """Each league game on its night's date and in its night's season, at a table of it, in its
    season's dates and rules, with a place in the rating ledger once it counts; every game of
    the file is one of them."""
    season_at = {season.pk: (index, season) for index, season in enumerate(seasons)}
    for index, league_game in enumerate(league_games):
        where = f"league_games[{index}]"
        night = nights.get(league_game.night_id)
        if night is not None:
            if league_game.season_id != night.season_id:
                raise BackupError(
                    f"{where}.season: {league_game.season_id} is not the season of its club "
                    f"night, {night.season_id}."
                )
            if league_game.date != night.date:
                raise BackupError(
                    f"{where}.date: {league_game.date} is not the date of its club night, "
                    f"{night.date}."
                )
            if league_game.table is None:
                raise BackupError(
                    f"{where}.table: null, but the game is at a club night, where it has a table."
                )
        season_index, season = season_at[league_game.season_id]
        _in_season(league_game.date, season, f"{where}.date")
        scored = games[league_game.game_id]
        if scored.game.rules != season.rules:
            raise BackupError(
                f"games[{scored.index}].rules: they are not the rules of its season, "
                f"seasons[{season_index}]; a league game plays its season's rules."
            )
        if _counts(league_game, scored) and league_game.ledger is None:
            raise BackupError(
                f"{where}.ledger: null, but the game counts, so it has a place in the rating "
                "ledger."
            )
    held = {league_game.game_id for league_game in league_games}
    for pk, scored in games.items():
        if pk not in held:
            raise BackupError(
                f"games[{scored.index}]: no league game holds it; a league export holds the "
                "league's games only."
            )


def _counts(league_game: LeagueGame, scored: ScoredGame) -> bool:
    """A game counts in the standings and the ratings once finished, unless voided, and, in a
    game that confirms its rounds, once every round is confirmed."""
    return scored.status.finished and not league_game.voided and scored.confirmed


# Participations --------------------------------------------------------------------------------


def figures_of(league_game: LeagueGame, scored: ScoredGame) -> list[dict[str, Any]]:
    """Each side's figures as the league keeps them for its players, by seat: what
    `services.league_game_refresh` writes for the game's status."""
    counted = _counts(league_game, scored)
    totals = [scored.status.totals[side.name] for side in scored.sides]
    kept = services.side_figures(scored.sides, scored.status)
    figures = []
    for position, own in enumerate(totals):
        against = max((t for i, t in enumerate(totals) if i != position), default=0)
        outcome = ("W" if own > against else "T" if own == against else "L") if counted else ""
        figures.append(
            {
                "counted": counted,
                "outcome": outcome,
                "points_for": own,
                "points_against": against,
                "rounds": len(scored.status.rounds),
                **kept[position],
            }
        )
    return figures


def check_participations(
    participations: Sequence[Participation],
    league_games: Sequence[LeagueGame],
    games: Mapping[int, ScoredGame],
) -> None:
    """Each participation in its league game's season and date, at one of its sides, with the
    figures its game gives."""
    by_id = {league_game.pk: league_game for league_game in league_games}
    figures: dict[int, list[dict[str, Any]]] = {}
    for index, participation in enumerate(participations):
        where = f"participations[{index}]"
        league_game = by_id[participation.league_game_id]
        scored = games[league_game.game_id]
        for name in ("season_id", "date"):
            stored, given = getattr(participation, name), getattr(league_game, name)
            if stored != given:
                what = name.removesuffix("_id")
                raise BackupError(
                    f"{where}.{what}: {stored} is not the {what} of its league game, {given}."
                )
        sides = len(scored.sides)
        if not participation.side < sides:
            raise outside(
                f"{where}.side", participation.side, 0, sides - 1, ", the sides of its game"
            )
        if league_game.pk not in figures:
            figures[league_game.pk] = figures_of(league_game, scored)
        given = figures[league_game.pk][participation.side]
        for name in services.PARTICIPATION_FIGURES:
            stored = getattr(participation, name)
            if stored != given[name] or type(stored) is not type(given[name]):
                raise BackupError(
                    f"{where}.{name}: {figure(stored)} is not what its game gives: "
                    f"{figure(given[name])}."
                )


# Adjustments -----------------------------------------------------------------------------------


def check_adjustment(adjustment: PointsAdjustment, where: str, member_ids: Collection[int]) -> None:
    """A league points adjustment is a member's: the organiser adjusts the league's members."""
    if adjustment.player_id not in member_ids:
        raise BackupError(
            f"{where}.player: {adjustment.player_id} is not a member of the league; an adjustment "
            "is a member's."
        )


# Ratings ---------------------------------------------------------------------------------------


def _same_rating(stored: float | None, given: float | None) -> bool:
    if stored is None or given is None:
        return stored is given
    return math.isclose(stored, given, rel_tol=RATING_TOLERANCE, abs_tol=RATING_TOLERANCE)


def _different(where: str, stored: Any, given: Any) -> BackupError:
    return BackupError(
        f"{where}: {figure(stored)} is not what the league's games give: {figure(given)}."
    )


def check_ratings(
    league: League, participations: Sequence[Participation], memberships: Iterable[Membership]
) -> None:
    """Replay the league's ratings from its games (the rows are in, inside the import's
    transaction) and refuse the file where its ratings are not the replay's; the replay's stay.
    `participations` and `memberships` are the file's rows, in its order, as inserted."""
    # A game that has not counted yet has no place in the ledger, and its players no rating
    # from it: the replay rates the rest.
    Participation.objects.filter(league=league).update(**dict.fromkeys(RATINGS))
    services.ratings_replay(league=league, start=None)
    replayed = {
        pk: values
        for pk, *values in Participation.objects.filter(league=league).values_list("pk", *RATINGS)
    }
    for index, participation in enumerate(participations):
        for name, given in zip(RATINGS, replayed[participation.pk], strict=True):
            stored = getattr(participation, name)
            if not _same_rating(stored, given):
                raise _different(f"participations[{index}].{name}", stored, given)
    members = {
        pk: (mu, sigma, rated)
        for pk, mu, sigma, rated in Membership.objects.filter(league=league).values_list(
            "pk", "mu", "sigma", "rated_games"
        )
    }
    for index, membership in enumerate(memberships):
        mu, sigma, rated = members[membership.pk]
        for name, given in (("mu", mu), ("sigma", sigma)):
            if not _same_rating(getattr(membership, name), given):
                raise _different(f"memberships[{index}].{name}", getattr(membership, name), given)
        if membership.rated_games != rated:
            raise _different(f"memberships[{index}].rated_games", membership.rated_games, rated)
