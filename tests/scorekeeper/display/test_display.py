"""The Display page and the header's text-size switch: the choices kept in a cookie and drawn by
the server into every page's <html>; a bad choice refused beside its field, nothing changed."""

import datetime
import re
from http.cookies import SimpleCookie

import pytest

from scorekeeper.games import services
from scorekeeper.models import GameEvent
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record

pytestmark = pytest.mark.django_db


def html_tag(response) -> str:
    return re.search(r"<html[^>]*>", response.content.decode()).group(0)


def test_a_phone_without_choices_gets_normal_text_its_own_colours_and_the_screen_kept_on(client):
    page = client.get("/")

    assert html_tag(page) == '<html lang="en" data-awake="on" data-speak="off">'
    assert '<meta name="color-scheme" content="light dark">' in page.content.decode()
    assert (
        '<button class="button secondary">A+<span class="visually-hidden"> Larger text</span>'
        "</button>"
    ) in page.content.decode()


def test_the_display_page_shows_each_choice_with_the_phones_own_checked(client):
    client.cookies = SimpleCookie({"display": "text=large&theme=dark&awake=on&speak=off"})

    page = client.get("/display/?next=/games/").content.decode()

    checked = re.findall(r'name="(\w+)" value="(\w+)"[^>]* checked', page)
    assert checked == [("text", "large"), ("theme", "dark"), ("awake", "on"), ("speak", "off")]
    assert [legend for legend in re.findall(r"<legend>([^<]+)</legend>", page)] == [
        "Text size",
        "Colours",
        "Keep the screen on during a game",
        "Read the totals aloud after each save",
    ]
    assert '<input type="hidden" name="next" value="/games/">' in page


def test_saving_choices_keeps_them_for_a_year_and_every_page_is_drawn_with_them(client):
    before = html_tag(client.get("/games/"))
    form = {"text": "large", "theme": "dark", "awake": "off", "speak": "on", "next": "/games/"}

    response = client.post("/display/", form)

    assert (response.status_code, response["Location"]) == (302, "/games/")
    kept = response.cookies["display"]
    assert kept.value == "text=large&theme=dark&awake=off&speak=on"
    assert (kept["max-age"], kept["samesite"], kept["httponly"]) == (31536000, "Lax", True)
    after = client.get("/games/")
    assert before == '<html lang="en" data-awake="on" data-speak="off">'
    assert html_tag(after) == (
        '<html lang="en" class="large-text theme-dark" data-awake="off" data-speak="on">'
    )
    assert '<meta name="color-scheme" content="dark">' in after.content.decode()
    assert '<meta name="theme-color" content="#121412">' in after.content.decode()


def test_the_headers_switch_changes_the_text_size_alone_in_one_tap(client):
    client.cookies = SimpleCookie({"display": "theme=light&speak=on"})

    response = client.post("/display/", {"text": "large", "next": "/leagues/"})

    assert response["Location"] == "/leagues/"
    assert response.cookies["display"].value == "text=large&theme=light&awake=on&speak=on"
    page = client.get("/leagues/").content.decode()
    assert '>A−<span class="visually-hidden"> Smaller text</span></button>' in page
    assert '<input type="hidden" name="text" value="normal">' in page


def test_a_choice_not_offered_is_refused_beside_its_field_and_nothing_is_kept(client):
    client.cookies = SimpleCookie({"display": "text=large"})

    response = client.post("/display/", {"text": "normal", "theme": "purple"})

    assert response.status_code == 400
    assert "display" not in response.cookies
    page = response.content.decode()
    assert (
        '<p class="field-error" role="alert">Choose one of: As this phone is set, Light, Dark.</p>'
        in page
    )
    assert (
        html_tag(client.get("/"))
        == '<html lang="en" class="large-text" data-awake="on" data-speak="off">'
    )


def test_a_return_address_on_another_site_goes_home_instead(client):
    response = client.post("/display/", {"text": "large", "next": "https://evil.example/"})

    assert response["Location"] == "/"


def test_a_cookie_with_unknown_values_keeps_only_the_known_ones(client):
    client.cookies = SimpleCookie({"display": "text=huge&theme=dark&awake=maybe&x=1"})

    assert html_tag(client.get("/")) == (
        '<html lang="en" class="theme-dark" data-awake="on" data-speak="off">'
    )


def test_with_reading_aloud_on_the_game_page_holds_the_totals_and_a_save_is_marked(client):
    game = services.game_start(
        preset="four-rounds", sides=[SideSpec("Us", ("Ann", "Bob")), SideSpec("Them", ("Cy", "Di"))]
    )
    round_record(
        game=game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 1215}, {"melded_points": 890}],
    )
    client.cookies = SimpleCookie({"display": "speak=on"})
    client.get(f"/g/{game.public_id}/join/{game.scorer_token}/")
    saved = client.post(
        f"/g/{game.public_id}/rounds/new/",
        {"round_number": "2", "went_out": "stock", "s0-melded_points": "0"},
        follow=True,
    ).content.decode()

    spoken = re.search(r'<p class="visually-hidden" data-spoken>([^<]*)</p>', saved).group(1)
    assert spoken == "Us 1,215, Them 890; Bob deals next."
    assert "data-read-aloud hidden>Read the totals aloud</button>" in saved


def test_without_reading_aloud_the_game_page_has_no_sentence_and_no_button(client):
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])

    page = client.get(f"/g/{game.public_id}/").content.decode()

    assert "data-spoken" not in page
    assert "data-read-aloud" not in page


def test_a_moment_is_written_in_the_servers_zone_labelled_for_the_phone_to_rewrite(client):
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    at = datetime.datetime(2026, 11, 27, 17, 35, tzinfo=datetime.UTC)
    GameEvent.objects.filter(game=game).update(at=at)

    page = client.get(f"/g/{game.public_id}/history/").content.decode()

    assert (
        '<time datetime="2026-11-27T17:35:00+00:00" data-local="short">27 Nov 2026 17:35 UTC</time>'
        in page
    )
