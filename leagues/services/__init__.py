"""Writes for leagues: leagues, seasons, members, club nights and the league's record of games.

Invalid input raises `LeagueError` with the field and a sentence that says what is allowed;
nothing is written then. A unique constraint that a concurrent request beats the check to is
the same refusal, beside the same field, never a server error.

One module a topic; everything is imported from here (`from leagues import services`).
"""

from leagues.services.adjustments import adjustment_add, adjustment_remove
from leagues.services.closing import night_close, night_reopen, night_settle
from leagues.services.core import HISTORY_NIGHTS, RESERVED_SLUGS, LeagueError, User
from leagues.services.league import (
    LEAGUE_FIELDS,
    league_create,
    league_update,
    organiser_add,
    organiser_remove,
)
from leagues.services.members import (
    member_add,
    member_retire,
    member_return,
    player_merge,
    player_update,
)
from leagues.services.night_mail import night_results_send
from leagues.services.nights import (
    SeatChoice,
    night_arrival,
    night_create,
    night_games_start,
    night_seating_propose,
    night_seating_set,
)
from leagues.services.results import (
    PARTICIPATION_FIGURES,
    game_rounds_confirm,
    game_unvoid,
    game_void,
    league_game_refresh,
    ratings_replay,
    side_figures,
)
from leagues.services.roster import RosterResult, roster_import
from leagues.services.seasons import season_create, season_for, season_update
from leagues.services.standings import standings_refresh
from leagues.services.timer import (
    TIMER_MINUTES_MESSAGE,
    clock_text,
    night_timer_start,
    night_timer_stop,
)

__all__ = [
    "adjustment_add",
    "adjustment_remove",
    "PARTICIPATION_FIGURES",
    "HISTORY_NIGHTS",
    "LEAGUE_FIELDS",
    "RESERVED_SLUGS",
    "LeagueError",
    "RosterResult",
    "TIMER_MINUTES_MESSAGE",
    "SeatChoice",
    "User",
    "side_figures",
    "clock_text",
    "game_rounds_confirm",
    "game_unvoid",
    "game_void",
    "league_create",
    "league_game_refresh",
    "league_update",
    "member_add",
    "member_retire",
    "member_return",
    "night_arrival",
    "night_close",
    "night_create",
    "night_results_send",
    "night_games_start",
    "night_reopen",
    "night_seating_propose",
    "night_seating_set",
    "night_settle",
    "night_timer_start",
    "night_timer_stop",
    "organiser_add",
    "organiser_remove",
    "player_merge",
    "player_update",
    "ratings_replay",
    "roster_import",
    "season_create",
    "season_for",
    "season_update",
    "standings_refresh",
]
