"""The organiser's pages of a league: settings, seasons, members, club nights, voids, audit."""

from django.urls import path

from leagues.organiser import (
    adjustments,
    audit,
    games,
    leagues,
    members,
    night_mail,
    nights,
    roster,
    seasons,
)

urlpatterns = [
    path("new/", leagues.league_new, name="league_new"),
    path("<slug:slug>/edit/", leagues.league_edit, name="league_edit"),
    path("<slug:slug>/seasons/new/", seasons.season_new, name="season_new"),
    path("<slug:slug>/seasons/<int:season_id>/edit/", seasons.season_edit, name="season_edit"),
    path("<slug:slug>/members/", members.members, name="members"),
    path("<slug:slug>/members/merge/", members.member_merge, name="member_merge"),
    path("<slug:slug>/members/import/", roster.member_import, name="member_import"),
    path("<slug:slug>/members/<int:player_id>/edit/", members.member_edit, name="member_edit"),
    path(
        "<slug:slug>/members/<int:player_id>/retire/", members.member_retire, name="member_retire"
    ),
    path("<slug:slug>/members/<int:player_id>/back/", members.member_return, name="member_return"),
    path(
        "<slug:slug>/nights/<int:night_id>/results/send/",
        night_mail.night_results_mail,
        name="night_results_mail",
    ),
    path("<slug:slug>/nights/new/", nights.night_new, name="night_new"),
    path(
        "<slug:slug>/nights/<int:night_id>/seating/",
        nights.night_seating,
        name="night_seating",
    ),
    path("<slug:slug>/nights/<int:night_id>/start/", nights.night_start, name="night_start"),
    path(
        "<slug:slug>/nights/<int:night_id>/arrivals/",
        nights.night_arrival,
        name="night_arrival",
    ),
    path(
        "<slug:slug>/nights/<int:night_id>/close/",
        nights.night_close,
        name="night_close",
    ),
    path(
        "<slug:slug>/nights/<int:night_id>/reopen/",
        nights.night_reopen,
        name="night_reopen",
    ),
    path(
        "<slug:slug>/nights/<int:night_id>/timer/start/",
        nights.night_timer_start,
        name="night_timer_start",
    ),
    path(
        "<slug:slug>/nights/<int:night_id>/timer/stop/",
        nights.night_timer_stop,
        name="night_timer_stop",
    ),
    path("<slug:slug>/games/<int:league_game_id>/void/", games.game_void, name="game_void"),
    path(
        "<slug:slug>/games/<int:league_game_id>/confirm/",
        games.game_confirm,
        name="game_confirm",
    ),
    path(
        "<slug:slug>/games/<int:league_game_id>/unvoid/",
        games.game_unvoid,
        name="game_unvoid",
    ),
    path("<slug:slug>/audit/", audit.audit, name="audit"),
    path(
        "<slug:slug>/seasons/<int:season_id>/adjustments/",
        adjustments.season_adjustments,
        name="season_adjustments",
    ),
    path(
        "<slug:slug>/seasons/<int:season_id>/adjustments/<int:adjustment_id>/remove/",
        adjustments.adjustment_remove,
        name="adjustment_remove",
    ),
]
