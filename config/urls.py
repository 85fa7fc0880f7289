"""Every address of the site, grouped by the package that answers it."""

from django.contrib import admin
from django.urls import include, path

from config import health
from scorekeeper.accounts import views as accounts
from scorekeeper.display import views as display
from scorekeeper.documents import views as documents
from scorekeeper.games import views as games
from scorekeeper.offline import views as offline
from scorekeeper.rounds import views as rounds

urlpatterns = [
    # Games
    path("", games.home, name="home"),
    path("games/", games.game_list, name="game_list"),
    path("games/new/", games.rules_picker, name="rules_picker"),
    path("games/new/<slug:preset>/", games.game_new, name="game_new"),
    path("g/<str:public_id>/", games.game_detail, name="game_detail"),
    path("g/<str:public_id>/state", games.game_state, name="game_state"),
    path("g/<str:public_id>/end/", games.game_end, name="game_end"),
    path("g/<str:public_id>/reopen/", games.game_reopen, name="game_reopen"),
    path("g/<str:public_id>/rematch/", games.game_rematch, name="game_rematch"),
    path("g/<str:public_id>/claim/", games.game_claim, name="game_claim"),
    path("g/<str:public_id>/history/", games.game_history, name="game_history"),
    path("g/<str:public_id>/join/<str:token>/", games.game_join, name="game_join"),
    # Rounds
    path("g/<str:public_id>/rounds/new/", rounds.round_new, name="round_new"),
    path("g/<str:public_id>/rounds/<int:number>/", rounds.round_detail, name="round_detail"),
    path("g/<str:public_id>/rounds/<int:number>/edit/", rounds.round_edit, name="round_edit"),
    path(
        "g/<str:public_id>/rounds/<int:number>/confirm/",
        rounds.round_confirm,
        name="round_confirm",
    ),
    path(
        "g/<str:public_id>/rounds/<int:number>/dispute/",
        rounds.round_dispute,
        name="round_dispute",
    ),
    path("g/<str:public_id>/rounds/delete-last/", rounds.round_delete, name="round_delete"),
    path("g/<str:public_id>/rounds/undo/", rounds.round_undo, name="round_undo"),
    path(
        "g/<str:public_id>/history/<int:event_id>/restore/",
        rounds.round_restore,
        name="round_restore",
    ),
    # Documents
    path("games/new/<slug:preset>/score-sheet.pdf", documents.score_sheet, name="score_sheet"),
    path("g/<str:public_id>/score-card.pdf", documents.game_score_card, name="game_score_card"),
    # Offline play: sync, the engine for the phone, and the installable app (the worker at the
    # root so that its scope is the whole site).
    path("g/<str:public_id>/offline.json", offline.game_offline, name="game_offline"),
    path("g/<str:public_id>/offline/rounds/", offline.round_send, name="offline_round_send"),
    path("g/<str:public_id>/offline/confirm/", offline.confirm_send, name="offline_confirm_send"),
    path("offline/games/", offline.game_create, name="offline_game_create"),
    path("offline/engine-<str:digest>.zip", offline.offline_engine, name="offline_engine"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.web_manifest, name="web_manifest"),
    path("offline/", offline.offline_shell, name="offline_shell"),
    # Leagues
    path("leagues/", include("leagues.urls")),
    # Accounts
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/signup/sent/", accounts.signup_sent, name="signup_sent"),
    path("accounts/signup/<str:token>/", accounts.signup_finish, name="signup_finish"),
    path("accounts/", include("django.contrib.auth.urls")),
    # How this phone shows the app
    path("display/", display.display_settings, name="display"),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]

handler400 = "config.error_views.bad_request"
