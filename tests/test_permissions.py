"""Every row of docs/permissions.md, allowed and refused: who may view and who may change each
kind of object, and the exact answer everyone else gets.

A case is (row, who, method, path, answer). `who` is one of the table's columns: `anyone` (a
browser not signed in), `user` (signed in, no part in the league or game), `member` and
`organiser` of the league, and the game's scorers: `scorer` (the browser that started the game),
`linked` (a phone given the scorer link) and `owner` (the account the game belongs to). Paths
name `{l}` for the league (the public one, or with the `private` flag the private one), and the
ids of its season, club night, player and games.
"""

import re

import pytest
from django.utils.html import escape

from scorekeeper.models import Game
from tests.helpers.games import start_form
from tests.helpers.paths import DOCS
from tests.helpers.permissions import CHANGE, World, resolve

pytestmark = pytest.mark.django_db


# Answers ------------------------------------------------------------------------------------

OK = ("ok",)
NOT_FOUND = ("not found",)
LOGIN = ("login",)


def forbidden(message: str) -> tuple[str, str]:
    return ("forbidden", message)


def moved(pattern: str) -> tuple[str, str]:
    """A change made: post/redirect/get to a page matching the pattern."""
    return ("moved", pattern)


def organisers_only(name: str) -> tuple[str, str]:
    return forbidden(f"Only the organisers of {name} can do this. Ask one of them to add you.")


LEAGUE_GAME_CLAIM = (
    "A league's game stays with its league: find it on the league's club-night page, "
    "not under My games."
)
ENTER = "Only the phones scoring this game can enter rounds."
CORRECT = "Only the phones scoring this game can correct rounds."
BAD_LINK = "This scorer link is not valid for this game."


# The table ----------------------------------------------------------------------------------

EVERYONE = ("anyone", "user", "member", "organiser")


def league_view(row: str, *paths: str):
    """Public (and unlisted) to anyone; private: members and organisers, 404 to anyone else."""
    for path in paths:
        for who in EVERYONE:
            yield row, who, "GET", path, False, OK
        for who in ("member", "organiser"):
            yield row, who, "GET", path, True, OK
        for who in ("anyone", "user"):
            yield row, who, "GET", path, True, NOT_FOUND


def organiser_page(row: str, path: str, methods=("GET", "POST")):
    """Organisers only: signed out, the sign-in page; a private league's outsiders, 404."""
    yield row, "organiser", "GET", path, False, OK
    yield row, "organiser", "GET", path, True, OK
    for method in methods:
        yield row, "anyone", method, path, False, LOGIN
        yield row, "anyone", method, path, True, LOGIN
        for who in ("user", "member"):
            yield row, who, method, path, False, organisers_only("Thursday Club")
        yield row, "member", method, path, True, organisers_only("Hidden Club")
        yield row, "user", method, path, True, NOT_FOUND


def organiser_action(row: str, path: str, then: str):
    """A change by POST alone, for organisers: made, it goes back to a page matching `then`."""
    for private in (False, True):
        yield row, "organiser", "POST", path, private, moved(then)
        yield row, "anyone", "POST", path, private, LOGIN
    for who in ("user", "member"):
        yield row, who, "POST", path, False, organisers_only("Thursday Club")
    yield row, "member", "POST", path, True, organisers_only("Hidden Club")
    yield row, "user", "POST", path, True, NOT_FOUND


def scorer_action(row: str, path: str, *, allowed=OK, get_refusal=CHANGE, methods=("GET", "POST")):
    """The game's scorers only; anyone else 403 (a plain game: league roles give nothing)."""
    for who in ("scorer", "linked", "owner"):
        yield row, who, methods[0], path, False, allowed
    for method in methods:
        message = get_refusal if method == "GET" else CHANGE
        for who in ("anyone", "user", "member", "organiser"):
            yield row, who, method, path, False, forbidden(message)


CASES = [
    # League
    *league_view(
        "league-view",
        "{l}/",
        "{l}/standings/",
        "{l}/standings.pdf",
        "{l}/score-sheet.pdf",
    ),
    *(("league-create", who, "GET", "/leagues/new/", False, OK) for who in EVERYONE[1:]),
    ("league-create", "anyone", "GET", "/leagues/new/", False, LOGIN),
    ("league-create", "anyone", "POST", "/leagues/new/", False, LOGIN),
    *organiser_page("league-edit", "{l}/edit/"),
    *organiser_page("league-audit", "{l}/audit/", methods=("GET",)),
    # Season
    *league_view(
        "season-view",
        "{l}/seasons/{season}/standings/",
        "{l}/seasons/{season}/standings.pdf",
        "{l}/seasons/{season}/head-to-head/",
    ),
    *organiser_page("season-create", "{l}/seasons/new/"),
    *organiser_page("season-edit", "{l}/seasons/{season}/edit/"),
    *organiser_page("season-adjust", "{l}/seasons/{season}/adjustments/"),
    # No adjustment 1 in the world: the organiser is told it is gone, back on the list.
    *organiser_action(
        "season-adjust",
        "{l}/seasons/{season}/adjustments/1/remove/",
        r"/leagues/[\w-]+/seasons/\d+/adjustments/",
    ),
    # Club night
    *league_view("night-view", "{l}/nights/{night}/", "{l}/nights/{night}/pack.pdf"),
    *organiser_page("night-create", "{l}/nights/new/"),
    *organiser_page("night-seat", "{l}/nights/{night}/seating/"),
    *organiser_page("night-start", "{l}/nights/{night}/start/"),
    *organiser_page("night-arrival", "{l}/nights/{night}/arrivals/"),
    *organiser_page("night-close", "{l}/nights/{night}/close/"),
    *organiser_page("night-reopen", "{l}/nights/{night}/reopen/"),
    *league_view("night-results", "{l}/nights/{night}/results/", "{l}/nights/{night}/results.pdf"),
    *organiser_action(
        "night-results-mail",
        "{l}/nights/{night}/results/send/",
        r"/leagues/[\w-]+/nights/\d+/results/",
    ),
    *organiser_action(
        "night-timer", "{l}/nights/{night}/timer/stop/", r"/leagues/[\w-]+/nights/\d+/"
    ),
    # Player
    *league_view("player-view", "{l}/players/{player}/"),
    *organiser_page("player-add", "{l}/members/"),
    *organiser_page("player-edit", "{l}/members/{player}/edit/"),
    *organiser_page("player-merge", "{l}/members/merge/"),
    *organiser_page("player-import", "{l}/members/import/"),
    *organiser_action("player-retire", "{l}/members/{player}/retire/", r"/leagues/[\w-]+/members/"),
    *organiser_action("player-retire", "{l}/members/{player}/back/", r"/leagues/[\w-]+/members/"),
    # Game
    *(("game-create", who, "GET", "/games/new/baskets/", False, OK) for who in EVERYONE),
    *(
        ("game-create", who, "POST", "/games/new/baskets/", False, moved(r"/g/[\w-]+/"))
        for who in EVERYONE
    ),
    *(
        ("game-view", who, "GET", path, False, OK)
        for who in EVERYONE
        for path in ("/g/{game}/", "/g/{game}/history/", "/g/{game}/score-card.pdf")
    ),
    # A private league's games too: their address is the secret.
    *(
        ("game-view", who, "GET", "/g/{league_game_public}/", True, OK)
        for who in ("anyone", "user")
    ),
    ("game-view", "anyone", "GET", "/g/not-a-game/", False, NOT_FOUND),
    # The 2-second check of a page that follows the game: whoever may see the page.
    *(("game-state", who, "GET", "/g/{game}/state", False, OK) for who in EVERYONE),
    ("game-state", "anyone", "GET", "/g/not-a-game/state", False, NOT_FOUND),
    *(
        ("game-join", who, "GET", "/g/{game}/join/{token}/", False, moved(r"/g/[\w-]+/"))
        for who in EVERYONE
    ),
    ("game-join", "anyone", "GET", "/g/{game}/join/wrong-token/", False, forbidden(BAD_LINK)),
    *scorer_action("game-end", "/g/{game}/end/"),
    *scorer_action("game-reopen", "/g/{game}/reopen/"),
    *scorer_action(
        "game-rematch", "/g/{game}/rematch/", allowed=moved(r"/g/[\w-]+/"), methods=("POST",)
    ),
    ("game-claim", "owner", "POST", "/g/{game}/claim/", False, moved(r"/g/[\w-]+/")),
    (
        "game-claim",
        "anyone",
        "POST",
        "/g/{game}/claim/",
        False,
        moved(r"/accounts/login/\?next=/g/[\w-]+/"),
    ),
    ("game-claim", "user", "POST", "/g/{game}/claim/", False, forbidden(CHANGE)),
    *(
        (
            "game-claim",
            who,
            "POST",
            "/g/{league_game_public}/claim/",
            False,
            forbidden(LEAGUE_GAME_CLAIM),
        )
        for who in ("member", "organiser")
    ),
    *organiser_page("game-void", "{l}/games/{league_game}/void/"),
    *organiser_page("game-unvoid", "{l}/games/{league_game}/unvoid/"),
    # Back on the night's page, told what was confirmed (or that nothing waited).
    *organiser_action("game-confirm", "{l}/games/{league_game}/confirm/", r"/leagues/[\w-]+/.*"),
    # Round
    *(("round-view", who, "GET", "/g/{game}/rounds/1/", False, OK) for who in EVERYONE),
    *scorer_action("round-enter", "/g/{game}/rounds/new/", get_refusal=ENTER),
    *scorer_action("round-correct", "/g/{game}/rounds/1/edit/", get_refusal=CORRECT),
    *scorer_action("round-delete-last", "/g/{game}/rounds/delete-last/"),
    # A scorer is answered on the game page (undone only on the phone that saved the round).
    *scorer_action(
        "round-undo", "/g/{game}/rounds/undo/", allowed=moved(r"/g/[\w-]+/"), methods=("POST",)
    ),
    # The other side's word on a round: told on the round's page when the game asks for none.
    *scorer_action(
        "round-confirm",
        "/g/{game}/rounds/1/confirm/",
        allowed=moved(r"/g/[\w-]+/(rounds/1/)?"),
        methods=("POST",),
    ),
    *scorer_action(
        "round-dispute",
        "/g/{game}/rounds/1/dispute/",
        allowed=moved(r"/g/[\w-]+/(rounds/1/)?"),
        methods=("POST",),
    ),
    # A league's tables: its members and organisers score them from their own phones.
    *(
        ("round-enter-league", who, "GET", "/g/{league_game_public}/rounds/new/", private, OK)
        for who in ("member", "organiser", "linked")
        for private in (False, True)
    ),
    *(
        (
            "round-enter-league",
            who,
            method,
            "/g/{league_game_public}/rounds/new/",
            private,
            forbidden(ENTER if method == "GET" else CHANGE),
        )
        for who in ("anyone", "user")
        for method in ("GET", "POST")
        for private in (False, True)
    ),
]


def verdict(answer) -> str:
    return "allowed" if answer == OK or answer[0] == "moved" else "refused"


def case_id(case) -> str:
    row, who, method, path, private, answer = case
    where = "private" if private else "public"
    return f"{row}: {who} {method} {path} ({where} league) {verdict(answer)}"


# One test per row of the table and verdict, each trying every case of that row.
ROWS: dict[tuple[str, str], list] = {}
for _case in CASES:
    ROWS.setdefault((_case[0], verdict(_case[5])), []).append(_case)


def data_for(path: str) -> dict:
    # A complete form where one is needed for the change to go through; refusals never read it.
    if path.endswith("/dispute/"):
        return {"reason": "We had two red threes, not one"}
    return start_form("baskets") if path.startswith("/games/new/") else {}


def check(world: World, case) -> None:
    row, who, method, path, private, answer = case
    url = resolve(path, world, private)
    client = world.clients[who]

    response = client.get(url) if method == "GET" else client.post(url, data_for(url))

    where = case_id(case)
    kind = answer[0]
    if kind == "ok":
        assert response.status_code == 200, where
    elif kind == "moved":
        assert response.status_code == 302, where
        assert re.fullmatch(answer[1], response["Location"]), where
    elif kind == "login":
        assert response.status_code == 302, where
        assert response["Location"] == f"/accounts/login/?next={url}", where
    elif kind == "not found":
        assert response.status_code == 404, where
    else:
        assert response.status_code == 403, where
        assert escape(answer[1]) in response.content.decode(), where


@pytest.mark.parametrize(("row", "verdict"), list(ROWS), ids=[f"{r}-{v}" for r, v in ROWS])
def test_permission(world, row, verdict):
    for case in ROWS[(row, verdict)]:
        check(world, case)


def test_every_row_of_the_table_has_its_tests():
    """docs/permissions.md names each row's test; each is here, allowed and refused."""
    table = (DOCS / "permissions.md").read_text()
    named = set(re.findall(r"`test_permission\[([a-z-]+)\]`", table))
    covered = {row for row, _ in ROWS}
    assert named == covered
    nobody_refused = {"game-create", "round-view"}
    for row in covered - nobody_refused:
        assert (row, "refused") in ROWS, row
    for row in covered:
        assert (row, "allowed") in ROWS, row


def test_refusals_change_nothing(world):
    """A refused POST leaves the game as it was: one round, not finished, no rematch."""
    before = (Game.objects.count(), list(Game.objects.values_list("rounds__number", flat=True)))
    for path in ("/g/{game}/rounds/delete-last/", "/g/{game}/end/", "/g/{game}/rematch/"):
        world.clients["user"].post(resolve(path, world, False))
    after = (Game.objects.count(), list(Game.objects.values_list("rounds__number", flat=True)))
    assert after == before
    assert not Game.objects.get(public_id=world.game).finished
