from django.urls import include, path

from leagues.public import night_results, players, projector, views

app_name = "leagues"

urlpatterns = [
    # The organiser's routes first: "new/" must not be read as a league's slug.
    path("", include("leagues.organiser.urls")),
    path("", views.league_list, name="list"),
    path("<slug:slug>/", views.league_detail, name="detail"),
    path("<slug:slug>/score-sheet.pdf", views.score_sheet, name="score_sheet"),
    path("<slug:slug>/standings/", views.standings, name="standings"),
    path("<slug:slug>/standings.pdf", views.standings_pdf, name="standings_pdf"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path(
        "<slug:slug>/seasons/<int:season_id>/standings/",
        views.season_standings,
        name="season_standings",
    ),
    path(
        "<slug:slug>/seasons/<int:season_id>/standings.pdf",
        views.season_standings_pdf,
        name="season_standings_pdf",
    ),
    path(
        "<slug:slug>/seasons/<int:season_id>/standings.csv",
        views.season_standings_csv,
        name="season_standings_csv",
    ),
    path(
        "<slug:slug>/seasons/<int:season_id>/games.csv",
        views.season_games_csv,
        name="season_games_csv",
    ),
    path(
        "<slug:slug>/seasons/<int:season_id>/head-to-head/",
        players.head_to_head,
        name="head_to_head",
    ),
    path("<slug:slug>/players/<int:player_id>/", players.player_detail, name="player"),
    path("<slug:slug>/nights/<int:night_id>/", views.night_detail, name="night"),
    path("<slug:slug>/nights/<int:night_id>/pack.pdf", views.night_pack, name="night_pack"),
    path(
        "<slug:slug>/nights/<int:night_id>/results/",
        night_results.night_results_page,
        name="night_results",
    ),
    path(
        "<slug:slug>/nights/<int:night_id>/results.pdf",
        night_results.night_results_pdf,
        name="night_results_pdf",
    ),
    path(
        "<slug:slug>/nights/<int:night_id>/projector/",
        projector.night_projector,
        name="night_projector",
    ),
]
