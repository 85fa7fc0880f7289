"""A phone's rights to score, kept whatever its requests at the same moment: two requests of one
session (two tabs, or a tab and the offline sync) each grant or keep a right, and neither's
write of the session may lose the other's.

The moments are forced, not hoped for: each request has read the session before the other
writes it, and the write that would lose a right lands last; each race is run ten times, on
PostgreSQL or on an SQLite file with the settings' locking, each thread on its own connection."""

import json
import threading

import pytest
from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import connection
from django.test import Client

from scorekeeper import engine
from scorekeeper.games import services as game_services
from tests.helpers.games import round_form, start_form
from tests.helpers.races import together

pytestmark = pytest.mark.django_db(transaction=True)

RUNS = 10
WAIT = 10  # seconds; only a broken schedule waits this long


@pytest.fixture
def database(request) -> None:
    """Real concurrent transactions: PostgreSQL's, or an SQLite file with the settings' locking
    (the in-memory test database refuses a second writer at once instead of waiting)."""
    if connection.vendor == "sqlite":
        request.getfixturevalue("club_file")


class Schedule:
    """When two requests marked first and second (an X-Race header) write their sessions.

    By default neither writes before both have run their view (and so read the session), and
    the first writes before the second. With `hold_first` the first writes only once the second
    request, sent when the first has run its view, has been answered."""

    def __init__(self, monkeypatch):
        original = SessionMiddleware.process_response
        self.reset()

        def process_response(middleware, request, response):
            mark = request.headers.get("X-Race")
            if mark not in ("first", "second"):
                return original(middleware, request, response)
            self.arrived[mark].set()
            if mark == "first":
                waited = self.answered if self.hold_first else self.arrived["second"]
            else:
                waited = self.first_written
            assert waited.wait(WAIT)
            try:
                return original(middleware, request, response)
            finally:
                if mark == "first":
                    self.first_written.set()

        monkeypatch.setattr(SessionMiddleware, "process_response", process_response)

    def reset(self, *, hold_first: bool = False) -> None:
        self.hold_first = hold_first
        self.arrived = {"first": threading.Event(), "second": threading.Event()}
        self.first_written = threading.Event()
        self.answered = threading.Event()

    def repeat_while_first_answers(self, first, again, *, after: threading.Event | None = None):
        """Run first(), and again() once the first has run its view (or once `after` is set);
        the first's session is written after again() is answered. Their answers, in order."""
        self.reset(hold_first=True)

        def work(index: int):
            if index == 0:
                return first()
            assert (after or self.arrived["first"]).wait(WAIT)
            try:
                return again()
            finally:
                self.answered.set()

        return tuple(together(work, count=2))


def tab_of(phone: Client) -> Client:
    """Another tab of the same phone: its session cookie, sent with every request."""
    tab = Client()
    name = settings.SESSION_COOKIE_NAME
    tab.cookies[name] = phone.cookies[name].value
    return tab


def started_phone() -> tuple[Client, str]:
    """A phone that opened the start page and started a game there; the game's address."""
    phone = Client()
    phone.get("/games/new/baskets/")
    response = phone.post("/games/new/baskets/", start_form("baskets"))
    assert response.status_code == 302
    return phone, response["Location"]


def old_session_phone() -> tuple[Client, str]:
    """A phone whose session is from before the rights were rows: its list of games, no id."""
    game = game_services.game_start_from_form(preset="baskets", form=start_form("baskets"))
    phone = Client()
    session = phone.session
    session["scoring_games"] = [game.public_id]
    session.save()
    return phone, f"/g/{game.public_id}/"


def new_id(run: int) -> str:
    """The address a phone made for the game it started offline in run `run`."""
    return f"started-offline-{run:02d}".ljust(22, "x")


def may_score(phone: Client, url: str) -> bool:
    return phone.get(f"{url}offline.json").json()["can_score"]


def create_offline(tab: Client, public_id: str, mark: str = "") -> int:
    body = {"id": public_id, "preset": "baskets", "form": start_form("baskets")}
    response = tab.post(
        "/offline/games/",
        json.dumps(body),
        content_type="application/json",
        headers={"X-Race": mark},
    )
    return response.status_code


def lost(kept: list[bool]) -> str:
    return f"lost {kept.count(False)} of {len(kept)}"


def test_a_game_created_offline_while_a_round_is_saved_on_another_keeps_both_rights(
    database, monkeypatch
):
    schedule = Schedule(monkeypatch)
    form = {**round_form(engine.RULESETS["baskets"]), "round_number": "1"}
    kept = []
    for run in range(RUNS):
        schedule.reset()
        phone, playing = started_phone()
        creating, saving = tab_of(phone), tab_of(phone)

        def work(index: int, creating=creating, saving=saving, playing=playing, run=run):
            if index == 0:
                return create_offline(creating, new_id(run), "first")
            # The round's save writes the session (its Undo), last: before, with its old list.
            return saving.post(f"{playing}rounds/new/", form, headers={"X-Race": "second"})

        created, saved = together(work, count=2)
        assert (created, saved.status_code) == (201, 302)
        kept.append(may_score(phone, playing) and may_score(phone, f"/g/{new_id(run)}/"))

    assert lost(kept) == "lost 0 of 10"


def test_two_games_started_at_once_from_two_tabs_keep_both_rights(database, monkeypatch):
    schedule = Schedule(monkeypatch)
    kept = []
    for _ in range(RUNS):
        schedule.reset()
        phone, first_game = started_phone()
        tabs = [tab_of(phone), tab_of(phone)]
        for tab in tabs:
            tab.get("/games/new/baskets/")

        def work(index: int, tabs=tabs):
            mark = ("first", "second")[index]
            response = tabs[index].post(
                "/games/new/baskets/", start_form("baskets"), headers={"X-Race": mark}
            )
            return response["Location"]

        started = together(work, count=2)
        assert len(set(started)) == 2
        kept.append(all(may_score(phone, url) for url in [first_game, *started]))

    assert lost(kept) == "lost 0 of 10"


def test_the_same_offline_create_sent_twice_at_once_answers_201_then_200(database, monkeypatch):
    """The repeat finds the game the first request created, before that request has answered."""
    schedule = Schedule(monkeypatch)
    answers = []
    for run in range(RUNS):
        phone, _ = started_phone()
        tabs = [tab_of(phone), tab_of(phone)]
        answers.append(
            schedule.repeat_while_first_answers(
                lambda tabs=tabs, run=run: create_offline(tabs[0], new_id(run), "first"),
                lambda tabs=tabs, run=run: create_offline(tabs[1], new_id(run)),
            )
        )

    assert answers == [(201, 200)] * RUNS


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="on SQLite the repeat's transaction waits for the first's before it looks",
)
def test_the_same_offline_create_meeting_the_first_at_its_insert_answers_201_then_200(
    database, monkeypatch
):
    """The repeat looks for the game before the first request commits it, then meets it at
    its insert (the unique address) and takes it."""
    schedule = Schedule(monkeypatch)
    original = game_services.game_start_from_form
    moments: dict[str, threading.Event] = {}
    role = threading.local()

    def game_start_from_form(**kwargs):
        if getattr(role, "name", None) == "first":
            game = original(**kwargs)
            moments["inserted"].set()
            # Still in its transaction: the repeat has looked and found nothing.
            assert moments["looked"].wait(WAIT)
            return game
        if getattr(role, "name", None) == "again":
            moments["looked"].set()
        return original(**kwargs)

    def as_(name: str, tab: Client, public_id: str, mark: str = "") -> int:
        role.name = name
        return create_offline(tab, public_id, mark)

    monkeypatch.setattr(game_services, "game_start_from_form", game_start_from_form)
    answers = []
    for run in range(RUNS):
        phone, _ = started_phone()
        tabs = [tab_of(phone), tab_of(phone)]
        moments.update(inserted=threading.Event(), looked=threading.Event())
        answers.append(
            schedule.repeat_while_first_answers(
                lambda tabs=tabs, run=run: as_("first", tabs[0], new_id(run), "first"),
                lambda tabs=tabs, run=run: as_("again", tabs[1], new_id(run)),
                after=moments["inserted"],
            )
        )

    assert answers == [(201, 200)] * RUNS


def test_an_old_sessions_first_requests_at_once_share_one_id_and_keep_every_right(
    database, monkeypatch
):
    """A session from before the rights were rows: its first two requests, sent at once, each
    make its id, and make the same one."""
    schedule = Schedule(monkeypatch)
    answers, kept = [], []
    for run in range(RUNS):
        phone, old = old_session_phone()
        tabs = [tab_of(phone), tab_of(phone)]
        answers.append(
            schedule.repeat_while_first_answers(
                lambda tabs=tabs, run=run: create_offline(tabs[0], new_id(run), "first"),
                lambda tabs=tabs, run=run: create_offline(tabs[1], new_id(run)),
            )
        )
        kept.append(may_score(phone, old) and may_score(phone, f"/g/{new_id(run)}/"))

    assert answers == [(201, 200)] * RUNS
    assert lost(kept) == "lost 0 of 10"
