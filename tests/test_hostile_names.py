"""Names typed to break things: every page shows them as text, every PDF prints them as text,
and no form writes anything without its CSRF token.

The names are `<script>alert(1)</script>`, `<b>bold</b> & "quotes"` and `Zoë'); DROP TABLE`,
given to a kitchen-table game and to a league's members (whose club-night game is played).
"""

import contextlib
import datetime

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from leagues import services as league_services
from leagues.models import League, LeagueGame
from scorekeeper import engine
from scorekeeper.accounts.services import signup_token
from scorekeeper.games import services
from scorekeeper.models import Game, GameEvent
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_delete_last, round_record
from tests.helpers.games import round_form, start_form
from tests.helpers.leagues import UserFactory, league_with, members, play, table_game
from tests.helpers.pdfs import pdf_words

SCRIPT = "<script>alert(1)</script>"
BOLD = '<b>bold</b> & "quotes"'
DROP = "Zoë'); DROP TABLE"
NAMES = (SCRIPT, BOLD, DROP)
# How Django's autoescape writes each name in a page.
ESCAPED = (
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;",
    "Zoë&#x27;); DROP TABLE",
)
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def assert_shown_as_text(response, *, names=(0, 1, 2)) -> None:
    """The page answers 200, shows the names escaped and never as markup."""
    assert response.status_code == 200, response.request["PATH_INFO"]
    html = response.content.decode()
    where = response.request["PATH_INFO"]
    for index in names:
        assert ESCAPED[index] in html, (where, ESCAPED[index])
    assert "<script>alert" not in html, where
    assert "<b>bold</b>" not in html, where
    assert "DROP TABLE" not in html.replace(ESCAPED[2], ""), where


def pdf(response) -> str:
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return pdf_words(b"".join(response.streaming_content))


# -- a kitchen-table game -------------------------------------------------------------------


@pytest.fixture
def scorer(db) -> Client:
    return Client()


@pytest.fixture
def hostile_game(scorer) -> Game:
    """A four-rounds game, its teams named after the hostile players, with two rounds."""
    data = {
        "side0-player0": SCRIPT,
        "side0-player1": BOLD,
        "side1-player0": DROP,
        "side1-player1": "Dan",
        "first_dealer": "0-0",
    }
    response = scorer.post("/games/new/four-rounds/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get()
    for number in (1, 2):
        saved = scorer.post(
            f"/g/{game.public_id}/rounds/new/",
            round_form(engine.RULESETS["four-rounds"], number=number),
        )
        assert saved.status_code == 302
    return game


def test_the_names_are_stored_as_typed(hostile_game):
    assert [side.players for side in hostile_game.sides.all()] == [[SCRIPT, BOLD], [DROP, "Dan"]]
    assert [side.name for side in hostile_game.sides.all()] == [
        f"{SCRIPT} & {BOLD}",
        f"{DROP} & Dan",
    ]


def test_every_game_page_shows_the_names_as_text(scorer, hostile_game):
    base = f"/g/{hostile_game.public_id}/"
    for url in (
        "/",
        "/games/",
        base,
        base + "rounds/1/",
        base + "rounds/new/",
        base + "rounds/2/edit/",
        base + "history/",
    ):
        assert_shown_as_text(scorer.get(url))
    assert_shown_as_text(scorer.get(base + "rounds/1/", HTTP_HX_REQUEST="true"))


def test_a_preview_and_a_refused_round_show_the_names_as_text(scorer, hostile_game):
    url = f"/g/{hostile_game.public_id}/rounds/new/"
    data = round_form(engine.RULESETS["four-rounds"], number=3)

    assert_shown_as_text(scorer.post(url, data, HTTP_HX_REQUEST="true"))
    assert_shown_as_text(scorer.post(url, {**data, "went_out": ""}))


def test_a_correction_asks_with_the_names_as_text(scorer, hostile_game):
    url = f"/g/{hostile_game.public_id}/rounds/1/edit/"

    assert_shown_as_text(scorer.post(url, round_form(engine.RULESETS["four-rounds"])))


def test_the_score_card_prints_the_names_as_text(scorer, hostile_game):
    text = pdf(scorer.get(f"/g/{hostile_game.public_id}/score-card.pdf"))

    for name in NAMES:
        assert name in text, name


# -- a league -------------------------------------------------------------------------------

NIGHT = datetime.date(2026, 10, 1)


@pytest.fixture
def organiser(db):
    return UserFactory(username="olive")


@pytest.fixture
def hostile_league(organiser) -> tuple[League, LeagueGame]:
    """A league whose members are the hostile names, with one club-night game played."""
    league = league_with(organiser)
    players = members(league, *NAMES, "Dan")
    league_game = table_game(
        league, [[players[SCRIPT], players[BOLD]], [players[DROP], players["Dan"]]], date=NIGHT
    )
    play(league_game, [600, 250])
    return league, league_game


@pytest.fixture
def as_organiser(organiser) -> Client:
    client = Client()
    client.force_login(organiser, backend=MODEL_BACKEND)
    return client


def test_every_league_page_shows_the_names_as_text(as_organiser, hostile_league):
    league, league_game = hostile_league
    slug = league.slug
    season = league.seasons.get()
    night = league_game.night
    player = league_game.participations.get(player__name=SCRIPT).player
    game = league_game.game
    public = [
        f"/leagues/{slug}/",
        f"/leagues/{slug}/standings/",
        f"/leagues/{slug}/seasons/{season.pk}/standings/",
        f"/leagues/{slug}/seasons/{season.pk}/head-to-head/",
        f"/leagues/{slug}/players/{player.pk}/",
        f"/leagues/{slug}/nights/{night.pk}/",
        f"/g/{game.public_id}/",
        f"/g/{game.public_id}/rounds/1/",
    ]
    organisers = [
        f"/leagues/{slug}/members/",
        f"/leagues/{slug}/nights/{night.pk}/seating/",
        f"/leagues/{slug}/games/{league_game.pk}/void/",
        f"/leagues/{slug}/audit/",
        f"/leagues/{slug}/seasons/{season.pk}/adjustments/",
    ]
    anonymous = Client()
    for url in public:
        assert_shown_as_text(anonymous.get(url))
        assert_shown_as_text(as_organiser.get(url))
    for url in organisers:
        assert_shown_as_text(as_organiser.get(url))
    # Every table has started and everyone is there: these name nobody.
    for page in ("start", "arrivals"):
        url = f"/leagues/{slug}/nights/{night.pk}/{page}/"
        assert_shown_as_text(as_organiser.get(url), names=())
    # The player's own pages name only them.
    assert_shown_as_text(as_organiser.get(f"/leagues/{slug}/members/{player.pk}/edit/"), names=[0])
    merge = f"/leagues/{slug}/members/merge/?keep={player.pk}"
    assert_shown_as_text(as_organiser.get(merge))


def test_every_league_pdf_prints_the_names_as_text(as_organiser, hostile_league):
    league, league_game = hostile_league
    season = league.seasons.get()
    for url in (
        f"/leagues/{league.slug}/standings.pdf",
        f"/leagues/{league.slug}/seasons/{season.pk}/standings.pdf",
        f"/leagues/{league.slug}/nights/{league_game.night.pk}/pack.pdf",
        f"/g/{league_game.game.public_id}/score-card.pdf",
    ):
        text = pdf(as_organiser.get(url))
        for name in NAMES:
            assert name in text, (url, name)


# -- CSRF -----------------------------------------------------------------------------------

# Pages that only answer GET (require_GET); every other page of the two apps is posted below.
GET_ONLY = {
    "home",
    "game_list",
    "rules_picker",
    "score_sheet",
    "game_detail",
    "game_state",
    "game_offline",
    "game_score_card",
    "round_detail",
    "game_history",
    "game_join",
    "healthz",
    "offline_engine",
    "service_worker",
    "web_manifest",
    "offline_shell",
    "signup_sent",
    "leagues:list",
    "leagues:detail",
    "leagues:score_sheet",
    "leagues:standings",
    "leagues:standings_pdf",
    "leagues:standings_csv",
    "leagues:season_standings_csv",
    "leagues:season_games_csv",
    "leagues:season_standings",
    "leagues:season_standings_pdf",
    "leagues:head_to_head",
    "leagues:player",
    "leagues:night",
    "leagues:night_results",
    "leagues:night_results_pdf",
    "leagues:night_projector",
    "leagues:night_pack",
    "leagues:audit",
}


def app_url_names() -> set[str]:
    """Every named URL whose view lives in scorekeeper or leagues."""
    names = set()

    def walk(patterns, namespace=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                module = pattern.callback.__module__
                if module.split(".")[0] in ("scorekeeper", "leagues"):
                    names.add(namespace + pattern.name)

    walk(get_resolver().url_patterns)
    return names


def everything() -> dict[str, list]:
    """Every stored row but the sessions."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in apps.get_models()
        if model is not Session
    }


@pytest.fixture
def csrf_world(organiser):
    """A game the organiser owns (ended, so that reopen has something to do) and an open one,
    a league with a night, a played game and a second season."""
    league = league_with(organiser)
    first = members(league, "Ann", "Bob", "Cy", "Di")
    sides = [[first["Ann"], first["Bob"]], [first["Cy"], first["Di"]]]
    league_game = table_game(league, sides, date=NIGHT)
    play(league_game, [600, 250])
    night = league_game.night
    extra = members(league, "Eve")["Eve"]
    ended = services.game_start(
        preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")], owner=organiser
    )
    round_record(
        game=ended, number=1, ended_by="stock_exhausted", entry=[{"melded_points": 50}, {}]
    )
    services.game_end(game=ended, user=organiser)
    game = services.game_start(
        preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")], owner=organiser
    )
    for number in (1, 2):
        round_record(
            game=game, number=number, ended_by="stock_exhausted", entry=[{"melded_points": 50}, {}]
        )
    round_delete_last(game=game, user=organiser)
    deleted = game.events.get(kind=GameEvent.Kind.ROUND_DELETED)
    season = league.seasons.get()
    ann = league_game.participations.get(player__name="Ann").player
    adjustment = league_services.adjustment_add(
        league=league, season=season, player=ann, points=-2, reason="Late", user=organiser
    )
    g, e = game.public_id, ended.public_id
    s = league.slug
    rules = engine.RULESETS["baskets"]
    posts = {
        "game_new": ("/games/new/baskets/", start_form("baskets")),
        "round_new": (f"/g/{g}/rounds/new/", {**round_form(rules), "round_number": "2"}),
        "round_edit": (f"/g/{g}/rounds/1/edit/", {**round_form(rules), "confirm": "1"}),
        "round_delete": (f"/g/{g}/rounds/delete-last/", {}),
        "round_undo": (f"/g/{g}/rounds/undo/", {"round_number": "1"}),
        "round_confirm": (f"/g/{g}/rounds/1/confirm/", {}),
        "round_dispute": (f"/g/{g}/rounds/1/dispute/", {"reason": "Two red threes, not one"}),
        "game_end": (f"/g/{g}/end/", {}),
        "game_reopen": (f"/g/{e}/reopen/", {}),
        "game_rematch": (f"/g/{g}/rematch/", {}),
        "game_claim": (f"/g/{g}/claim/", {}),
        # Only a cookie changes, but a forged post could still change how a phone shows pages.
        "display": ("/display/", {"text": "large"}),
        # JSON from offline.js; the CSRF token comes in the X-CSRFToken header.
        "offline_round_send": (f"/g/{g}/offline/rounds/", {}),
        "offline_confirm_send": (f"/g/{g}/offline/confirm/", {}),
        "offline_game_create": ("/offline/games/", {}),
        "signup": ("/accounts/signup/", {"username": "newbie", "email": "newbie@example.org"}),
        "leagues:league_new": (
            "/leagues/new/",
            {
                "name": "Friday Club",
                "preset": "baskets",
                "scoring": "match",
                "win_points": "2",
                "tie_points": "1",
                "loss_points": "0",
                "visibility": "public",
            },
        ),
        "leagues:league_edit": (
            f"/leagues/{s}/edit/",
            {"action": "remove_organiser", "username": "olive"},
        ),
        "leagues:season_new": (
            f"/leagues/{s}/seasons/new/",
            {"name": "Winter", "starts_on": "2027-01-01", "ends_on": "2027-03-31"},
        ),
        "leagues:season_edit": (
            f"/leagues/{s}/seasons/{season.pk}/edit/",
            {"name": "Renamed", "starts_on": "2026-09-01", "ends_on": "2026-11-30"},
        ),
        "leagues:members": (f"/leagues/{s}/members/", {"action": "add_new", "name": "Zed"}),
        "leagues:member_merge": (
            f"/leagues/{s}/members/merge/",
            {"keep": str(ann.pk), "absorb": str(extra.pk), "confirm": "yes"},
        ),
        "leagues:member_edit": (f"/leagues/{s}/members/{ann.pk}/edit/", {"name": "Annie"}),
        "leagues:member_retire": (f"/leagues/{s}/members/{extra.pk}/retire/", {}),
        "leagues:member_return": (f"/leagues/{s}/members/{ann.pk}/back/", {}),
        "leagues:night_results_mail": (f"/leagues/{s}/nights/{night.pk}/results/send/", {}),
        "leagues:night_timer_start": (
            f"/leagues/{s}/nights/{night.pk}/timer/start/",
            {"minutes": "20"},
        ),
        "leagues:night_timer_stop": (f"/leagues/{s}/nights/{night.pk}/timer/stop/", {}),
        "leagues:member_import": (
            f"/leagues/{s}/members/import/",
            {"action": "confirm", "rows": '[[1, "Zed", "", ""]]', "seen": '["add"]'},
        ),
        "leagues:night_new": (
            f"/leagues/{s}/nights/new/",
            {"date": "2026-10-08", "players": [str(ann.pk), str(extra.pk)]},
        ),
        "leagues:night_seating": (
            f"/leagues/{s}/nights/{night.pk}/seating/",
            {"action": "propose"},
        ),
        "leagues:night_start": (f"/leagues/{s}/nights/{night.pk}/start/", {}),
        "leagues:night_arrival": (
            f"/leagues/{s}/nights/{night.pk}/arrivals/",
            {"player": str(extra.pk)},
        ),
        "leagues:night_close": (f"/leagues/{s}/nights/{night.pk}/close/", {}),
        "leagues:night_reopen": (f"/leagues/{s}/nights/{night.pk}/reopen/", {"then": "night"}),
        "leagues:game_void": (f"/leagues/{s}/games/{league_game.pk}/void/", {"reason": "Misdeal"}),
        "leagues:game_unvoid": (f"/leagues/{s}/games/{league_game.pk}/unvoid/", {"reason": "Back"}),
        "leagues:game_confirm": (f"/leagues/{s}/games/{league_game.pk}/confirm/", {}),
        "leagues:season_adjustments": (
            f"/leagues/{s}/seasons/{season.pk}/adjustments/",
            {"player": str(ann.pk), "points": "-5", "reason": "Late"},
        ),
        "leagues:adjustment_remove": (
            f"/leagues/{s}/seasons/{season.pk}/adjustments/{adjustment.pk}/remove/",
            {},
        ),
    }
    with contextlib.suppress(NoReverseMatch):  # restoring a round is newer than this test
        posts["round_restore"] = (reverse("round_restore", args=[g, deleted.pk]), {})
    # Last: finishing a sign-up signs the new account in, which renews the CSRF token.
    posts["signup_finish"] = (
        "/accounts/signup/" + signup_token(username="newbie", email="newbie@example.org") + "/",
        {"new_password1": "a-long-pass-1234", "new_password2": "a-long-pass-1234"},
    )
    return posts


def test_every_form_of_the_apps_is_checked_for_csrf(csrf_world):
    assert app_url_names() - GET_ONLY == set(csrf_world)


def test_no_post_without_a_csrf_token_changes_anything(organiser, csrf_world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser, backend=MODEL_BACKEND)
    # Every game of the world is scored from this phone too.
    session = client.session
    session["scoring_games"] = list(Game.objects.values_list("public_id", flat=True))
    session.save()
    before = everything()

    for name, (url, data) in csrf_world.items():
        response = client.post(url, data)
        assert response.status_code == 403, (name, response.status_code)
        assert "CSRF" in response.content.decode(), name

    assert everything() == before


def test_the_same_posts_with_a_token_do_change_things(organiser, csrf_world):
    """The posts above are real ones: with the token, each passes the CSRF check."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser, backend=MODEL_BACKEND)
    client.get("/games/new/baskets/")
    token = client.cookies["csrftoken"].value
    for name, (url, data) in csrf_world.items():
        response = client.post(url, {**data, "csrfmiddlewaretoken": token})
        assert response.status_code != 403 or "CSRF" not in response.content.decode(), name


# Django's own account pages, which the site links to.
AUTH_POSTS = {
    "login": ("/accounts/login/", {"username": "olive", "password": "a-long-enough-password"}),
    "logout": ("/accounts/logout/", {}),
    "password_change": (
        "/accounts/password_change/",
        {
            "old_password": "a-long-enough-password",
            "new_password1": "another-long-pass-987",
            "new_password2": "another-long-pass-987",
        },
    ),
    "password_reset": ("/accounts/password_reset/", {"email": "olive@example.com"}),
}


def test_the_account_pages_refuse_a_post_without_a_token(organiser):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser, backend=MODEL_BACKEND)
    before = everything()

    for name, (url, data) in AUTH_POSTS.items():
        response = client.post(url, data)
        assert response.status_code == 403, (name, response.status_code)

    assert everything() == before
    assert client.get("/").context["user"] == organiser


def test_a_signed_out_post_without_a_token_is_refused_too(db):
    client = Client(enforce_csrf_checks=True)
    users = get_user_model().objects.count()

    response = client.post(
        "/accounts/signup/", {"username": "x", "password1": "p", "password2": "p"}
    )

    assert response.status_code == 403
    assert get_user_model().objects.count() == users
