"""Random hostile payloads (hypothesis) against the forms that write: the round form (its htmx
preview and its plain save, for a new round and for a correction), the start form and the
organiser's club-night and member forms. None may answer 5xx, and a refused post leaves every
stored row exactly as it was.
"""

import datetime
from urllib.parse import urlencode

import pytest
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from leagues import services as league_services
from leagues.models import Attendance, ClubNight, LeagueEvent, Membership, Player
from scorekeeper import engine
from scorekeeper.models import Game, GameEvent, Round, RoundScore, Side
from scorekeeper.portable import round_fields
from tests.helpers.games import round_form, start_form
from tests.helpers.leagues import UserFactory, league_with

PRESET = "ten-thousand"
RULES = engine.RULESETS[PRESET]
HOSTILE = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# -- values ---------------------------------------------------------------------------------

# Text a browser can send: any character but lone surrogates, which no encoder sends.
_text = st.text(st.characters(blacklist_categories=("Cs",)))
hostile_value = st.one_of(
    _text,
    st.integers().map(str),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(
        [
            "",
            " ",
            "0",
            "-0",
            "-1",
            "1",
            "5",
            "1e9",
            "0x10",
            "1_000",
            "９",
            "²",
            "½",
            "NaN",
            "inf",
            "true",
            "yes",
            "s0",
            "s1",
            "s2",
            "s-1",
            "stock",
            "natural",
            "mixed",
            "wild",
            "0-0",
            "9-9",
            "[]",
            "{}",
            "null",
            "[[0, 50]]",
            "<script>alert(1)</script>",
            '"><img src=x onerror=alert(1)>',
            "'; DROP TABLE scorekeeper_round; --",
            "{{ 7*7 }}",
            "{% debug %}",
            "\u202e\u200b",
            "\x00",
            "1\x000",
            "9" * 5000,
            "x" * 20000,
            "-" + "9" * 13,
            "999999999999",
            "-999999999999",
        ]
    ),
)
# One value, or several for the same key (the view reads the last, as request.POST.get does).
hostile_values = st.one_of(hostile_value.map(lambda v: [v]), st.lists(hostile_value, max_size=3))


def _round_keys(rules: engine.RuleSet) -> list[str]:
    """Every name the round form uses for these rules, plus names it never shows."""
    keys = ["went_out", "ended_by", "round_number", "confirm", "csrfmiddlewaretoken"]
    for side in range(3):
        p = f"s{side}-"
        keys += [p + "exact_cuts", p + "foot_missed", p + "melded_points", p + "hand_points"]
        keys += [p + name for name in ("red_threes", "red_threes_in_hand", "black_threes_in_hand")]
        keys += [f"{p}canastas-{kind}" for kind in (*rules.kinds, "nonsense")]
        for pile in ("melded", "hand"):
            keys += [f"{p}{pile}_cards-{rank}" for rank in (*rules.card_values, "black3", "Z")]
        for row in range(4):
            keys += [f"{p}open_books-{row}-kind", f"{p}open_books-{row}-points"]
    return keys


ROUND_KEYS = _round_keys(RULES)
any_key = st.one_of(st.sampled_from(ROUND_KEYS), _text.filter(bool))


@st.composite
def round_payloads(draw) -> dict[str, list[str]]:
    """A valid round, a nearly valid one or pure noise, as a key -> values mapping."""
    base = draw(st.sampled_from(["valid", "empty", "stock"]))
    data: dict[str, list[str]] = {}
    if base == "valid":
        data = {key: [value] for key, value in round_form(RULES, number=3).items()}
    elif base == "stock":
        data = {"went_out": ["stock"], "s0-melded_points": ["50"], "s1-melded_points": ["40"]}
    for key in draw(st.lists(st.sampled_from(sorted(data) or ["went_out"]), max_size=3)):
        data.pop(key, None)
    data.update(draw(st.dictionaries(any_key, hostile_values, max_size=8)))
    return data


def _post(client: Client, url: str, data: dict[str, list[str]], *, urlencoded: bool, **extra):
    if urlencoded:
        body = urlencode([(k, v) for k, values in data.items() for v in values])
        return client.post(url, body, content_type="application/x-www-form-urlencoded", **extra)
    return client.post(url, data, **extra)


# -- what is stored -------------------------------------------------------------------------


def game_rows(game: Game) -> dict[str, list]:
    """Every stored row of the game, to compare before and after a request."""
    return {
        "game": list(Game.objects.filter(pk=game.pk).values()),
        "sides": list(Side.objects.filter(game=game).order_by("pk").values()),
        "rounds": list(Round.objects.filter(game=game).order_by("pk").values()),
        "scores": list(RoundScore.objects.filter(round__game=game).order_by("pk").values()),
        "events": [GameEvent.objects.filter(game=game).count()],
        "games": [Game.objects.count()],
    }


@pytest.fixture
def open_game(scorer):
    """An open-ended game (no target, no round limit) with two rounds, scored by `scorer`."""
    response = scorer.post(f"/games/new/{PRESET}/", {**start_form(PRESET), "rule-target_score": ""})
    assert response.status_code == 302
    game = Game.objects.get()
    for number in (1, 2):
        saved = scorer.post(response["Location"] + "rounds/new/", round_form(RULES, number=number))
        assert saved.status_code == 302
    assert game.rounds.count() == 2
    return game


def _check(client: Client, game: Game, url: str, data, *, htmx: bool, urlencoded: bool) -> None:
    before = game_rows(game)
    next_number = game.rounds.count() + 1
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = _post(client, url, data, urlencoded=urlencoded, **extra)
    assert response.status_code < 500, (url, data)
    event(f"answered {response.status_code}")
    after = game_rows(game)
    if htmx or response.status_code != 302:
        assert after == before, (url, data, response.status_code)
    elif "/rounds/" in response["Location"]:
        # A round number already saved: the stored round is shown, nothing is added.
        assert after == before, (url, data, response["Location"])
    else:
        assert response["Location"] == f"/g/{game.public_id}/"
        # A key drawn with no values is not posted at all, as a browser would send it.
        posted = {"round_number": (data.get("round_number") or [""])[-1]}
        number = round_fields.posted_round_number(posted)
        if url.endswith("/rounds/new/") and (number is None or number > next_number):
            # A new round without its number: refused, as a repeat of the same form would be;
            # one for a round past the next: refused, as a round deleted meanwhile leaves it.
            assert after == before, (url, data)
        else:
            assert after["events"][0] == before["events"][0] + 1


@HOSTILE
@given(data=round_payloads(), urlencoded=st.booleans())
def test_the_new_round_preview_never_fails_and_never_saves(scorer, open_game, data, urlencoded):
    url = f"/g/{open_game.public_id}/rounds/new/"
    _check(scorer, open_game, url, data, htmx=True, urlencoded=urlencoded)


@HOSTILE
@given(data=round_payloads(), urlencoded=st.booleans(), number=st.sampled_from([1, 2]))
def test_the_correction_preview_never_fails_and_never_saves(
    scorer, open_game, data, urlencoded, number
):
    url = f"/g/{open_game.public_id}/rounds/{number}/edit/"
    _check(scorer, open_game, url, data, htmx=True, urlencoded=urlencoded)


@HOSTILE
@given(data=round_payloads(), urlencoded=st.booleans())
def test_a_refused_new_round_changes_nothing(scorer, open_game, data, urlencoded):
    url = f"/g/{open_game.public_id}/rounds/new/"
    _check(scorer, open_game, url, data, htmx=False, urlencoded=urlencoded)


@HOSTILE
@given(
    data=round_payloads(),
    urlencoded=st.booleans(),
    number=st.sampled_from([1, 2]),
    confirm=st.sampled_from([None, "1", "", "no"]),
)
def test_a_refused_correction_changes_nothing(scorer, open_game, data, urlencoded, number, confirm):
    if confirm is not None:
        data = {**data, "confirm": [confirm]}
    url = f"/g/{open_game.public_id}/rounds/{number}/edit/"
    _check(scorer, open_game, url, data, htmx=False, urlencoded=urlencoded)


def test_the_payloads_reach_both_outcomes(scorer, open_game):
    """The generator is not all noise: its valid base saves, and noise on it is refused."""
    url = f"/g/{open_game.public_id}/rounds/new/"
    valid = {key: [value] for key, value in round_form(RULES, number=3).items()}
    assert _post(scorer, url, valid, urlencoded=True).status_code == 302
    broken = {**valid, "round_number": ["4"], "s0-melded_points": ["<script>alert(1)</script>"]}
    response = _post(scorer, url, broken, urlencoded=False)
    assert response.status_code == 200
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.content.decode()
    assert open_game.rounds.count() == 3


# -- the start form -------------------------------------------------------------------------

START_KEYS = [
    "first_dealer",
    *(f"side{s}-player{p}" for s in range(7) for p in range(4)),
    *(f"side{s}-name" for s in range(7)),
    *engine.RULESETS["sevens"].parameters(),
    *(f"rule-{name}" for name in engine.RULESETS["sevens"].parameters()),
    "rule-canasta_bonus-natural",
    "rule-canasta_bonus-nonsense",
    "rule-going_out_minimum-mixed",
    "rule-card_values-K",
    "rule-card_values-black3",
    "rule-card_values-joker",
]


@st.composite
def start_payloads(draw) -> tuple[str, dict[str, list[str]]]:
    preset = draw(st.sampled_from(sorted(engine.RULESETS)))
    data: dict[str, list[str]] = {}
    if draw(st.booleans()):
        data = {key: [value] for key, value in start_form(preset).items()}
    keys = st.one_of(st.sampled_from(START_KEYS), _text.filter(bool))
    data.update(draw(st.dictionaries(keys, hostile_values, max_size=8)))
    return preset, data


@HOSTILE
@given(payload=start_payloads(), urlencoded=st.booleans())
def test_the_start_form_never_fails_and_a_refused_start_creates_nothing(
    scorer, payload, urlencoded
):
    preset, data = payload
    games, sides, events = Game.objects.count(), Side.objects.count(), GameEvent.objects.count()

    response = _post(scorer, f"/games/new/{preset}/", data, urlencoded=urlencoded)

    assert response.status_code < 500, (preset, data)
    event(f"answered {response.status_code}")
    if response.status_code == 302:
        assert Game.objects.count() == games + 1
    else:
        assert (Game.objects.count(), Side.objects.count(), GameEvent.objects.count()) == (
            games,
            sides,
            events,
        )


# -- the organiser's forms ------------------------------------------------------------------


def league_rows(league) -> dict[str, list]:
    return {
        "members": list(Membership.objects.filter(league=league).order_by("pk").values()),
        "players": list(Player.objects.order_by("pk").values()),
        "nights": list(ClubNight.objects.filter(league=league).order_by("pk").values()),
        "attendances": list(Attendance.objects.order_by("pk").values()),
        "events": [LeagueEvent.objects.filter(league=league).count()],
    }


@pytest.fixture
def organiser_client(db):
    user = UserFactory(username="olive")
    league = league_with(user)
    for name in ("Ann", "Bob", "Cy", "Di"):
        league_services.member_add(league=league, name=name, user=user)
    client = Client()
    client.force_login(user)
    return client, league


ORGANISER_KEYS = ["action", "date", "notes", "players", "name", "username", "player"]


@st.composite
def organiser_payloads(draw, league) -> dict[str, list[str]]:
    data: dict[str, list[str]] = {}
    if draw(st.booleans()):
        ids = [str(pk) for pk in league.members.values_list("pk", flat=True)]
        data = {"date": [datetime.date(2026, 10, 8).isoformat()], "players": ids, "name": ["Eve"]}
    keys = st.one_of(st.sampled_from(ORGANISER_KEYS), _text.filter(bool))
    values = st.one_of(hostile_values, st.sampled_from([["add_new"], ["add_existing"]]))
    data.update(draw(st.dictionaries(keys, values, max_size=6)))
    return data


@HOSTILE
@given(data=st.data(), urlencoded=st.booleans(), page=st.sampled_from(["nights/new", "members"]))
def test_the_organiser_forms_never_fail(organiser_client, data, urlencoded, page):
    client, league = organiser_client
    payload = data.draw(organiser_payloads(league))
    before = league_rows(league)

    response = _post(client, f"/leagues/{league.slug}/{page}/", payload, urlencoded=urlencoded)

    assert response.status_code < 500, (page, payload)
    event(f"{page} answered {response.status_code}")
    if response.status_code != 302:
        assert league_rows(league) == before, (page, payload)


# -- NUL bytes ------------------------------------------------------------------------------


def test_a_nul_byte_in_a_round_field_is_refused(scorer, open_game):
    before = game_rows(open_game)
    data = {**round_form(RULES, number=3), "s0-melded_points": "10\x000"}

    response = scorer.post(f"/g/{open_game.public_id}/rounds/new/", data)

    assert response.status_code == 200
    assert game_rows(open_game) == before


def test_a_nul_byte_in_a_name_is_refused(scorer):
    data = {**start_form("baskets"), "side0-player0": "Ann\x00"}

    response = scorer.post("/games/new/baskets/", data)

    assert response.status_code == 200
    assert (
        "Side 1&#x27;s names cannot contain a NUL character; use letters, digits, spaces and "
        "punctuation." in response.content.decode()
    )
    assert Game.objects.count() == 0
