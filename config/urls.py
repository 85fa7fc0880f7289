from django.contrib import admin
from django.urls import include, path

from scorekeeper.accounts import views as account_views
from scorekeeper.games import views
from scorekeeper.offline import pack_views as offline_views
from scorekeeper.offline import shell_views
from scorekeeper.offline import views as sync_views
from scorekeeper.rounds import live_views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.game_list, name="game_list"),
    path("games/new/", views.rules_picker, name="rules_picker"),
    path("games/new/<slug:preset>/", views.game_new, name="game_new"),
    path("games/new/<slug:preset>/score-sheet.pdf", views.score_sheet, name="score_sheet"),
    path("g/<str:public_id>/", views.game_detail, name="game_detail"),
    path("g/<str:public_id>/score-card.pdf", views.game_score_card, name="game_score_card"),
    path("g/<str:public_id>/rounds/new/", views.round_new, name="round_new"),
    path("g/<str:public_id>/rounds/<int:number>/", views.round_detail, name="round_detail"),
    path("g/<str:public_id>/rounds/<int:number>/edit/", views.round_edit, name="round_edit"),
    path("g/<str:public_id>/rounds/delete-last/", views.round_delete, name="round_delete"),
    path("g/<str:public_id>/rounds/undo/", live_views.round_undo, name="round_undo"),
    path("g/<str:public_id>/state", live_views.game_state, name="game_state"),
    path("g/<str:public_id>/end/", views.game_end, name="game_end"),
    path("g/<str:public_id>/reopen/", views.game_reopen, name="game_reopen"),
    path("g/<str:public_id>/rematch/", views.game_rematch, name="game_rematch"),
    path("g/<str:public_id>/claim/", views.game_claim, name="game_claim"),
    path("g/<str:public_id>/history/", views.game_history, name="game_history"),
    path(
        "g/<str:public_id>/history/<int:event_id>/restore/",
        views.round_restore,
        name="round_restore",
    ),
    path("g/<str:public_id>/join/<str:token>/", views.game_join, name="game_join"),
    # Offline play (sync)
    path("g/<str:public_id>/offline.json", sync_views.game_offline, name="game_offline"),
    path("g/<str:public_id>/offline/rounds/", sync_views.round_send, name="offline_round_send"),
    path("offline/games/", sync_views.game_create, name="offline_game_create"),
    # Offline play (runtime)
    path("offline/engine-<str:digest>.zip", offline_views.offline_engine, name="offline_engine"),
    path("leagues/", include("leagues.urls")),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/signup/sent/", account_views.signup_sent, name="signup_sent"),
    path("accounts/signup/<str:token>/", account_views.signup_finish, name="signup_finish"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("healthz", views.healthz, name="healthz"),
    # The installable app: the worker at the root so that its scope is the whole site.
    path("sw.js", shell_views.service_worker, name="service_worker"),
    path("manifest.webmanifest", shell_views.web_manifest, name="web_manifest"),
    path("offline/", shell_views.offline_shell, name="offline_shell"),
    path("admin/", admin.site.urls),
]

handler400 = "config.error_views.bad_request"
