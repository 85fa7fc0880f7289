"""The organiser's pages of a league: settings, seasons, members, club nights, voids, audit."""

from django.urls import path

from leagues.organiser import nights as organiser_nights
from leagues.organiser import roster as organiser_roster
from leagues.organiser import views as organiser

urlpatterns = [
    path("new/", organiser.league_new, name="league_new"),
    path("<slug:slug>/edit/", organiser.league_edit, name="league_edit"),
    path("<slug:slug>/seasons/new/", organiser.season_new, name="season_new"),
    path("<slug:slug>/seasons/<int:season_id>/edit/", organiser.season_edit, name="season_edit"),
    path("<slug:slug>/members/", organiser.members, name="members"),
    path("<slug:slug>/members/merge/", organiser.member_merge, name="member_merge"),
    path("<slug:slug>/members/import/", organiser_roster.member_import, name="member_import"),
    path("<slug:slug>/members/<int:player_id>/edit/", organiser.member_edit, name="member_edit"),
    path("<slug:slug>/nights/new/", organiser.night_new, name="night_new"),
    path(
        "<slug:slug>/nights/<int:night_id>/seating/",
        organiser.night_seating,
        name="night_seating",
    ),
    path("<slug:slug>/nights/<int:night_id>/start/", organiser.night_start, name="night_start"),
    path(
        "<slug:slug>/nights/<int:night_id>/arrivals/",
        organiser.night_arrival,
        name="night_arrival",
    ),
    path(
        "<slug:slug>/nights/<int:night_id>/close/",
        organiser_nights.night_close,
        name="night_close",
    ),
    path(
        "<slug:slug>/nights/<int:night_id>/reopen/",
        organiser_nights.night_reopen,
        name="night_reopen",
    ),
    path("<slug:slug>/games/<int:league_game_id>/void/", organiser.game_void, name="game_void"),
    path(
        "<slug:slug>/games/<int:league_game_id>/unvoid/",
        organiser.game_unvoid,
        name="game_unvoid",
    ),
    path("<slug:slug>/audit/", organiser.audit, name="audit"),
]
