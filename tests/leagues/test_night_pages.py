"""A club night's pages agree: the seating page, the night page and the pack list each table's
sides in the same order, and everyone who came is present whatever became of their game."""

import re

import pytest

from leagues import services
from tests.helpers.leagues import NIGHT, league_with, members, play, table_game
from tests.helpers.pages import text
from tests.helpers.pdfs import download, pdf_words

# Seated by hand in this order, so that seat order differs from the order of the names.
SEATS = {"Zoë": (1, 0), "Ann": (1, 0), "Yan": (1, 1), "Bob": (1, 1)}
# The seat order: side 1, then side 2, each side's players in the seats they were given.
SIDES = ["Zoë & Ann", "Yan & Bob"]


@pytest.fixture
def seated(organiser):
    league = league_with(organiser)
    p = members(league, *SEATS)
    night = services.night_create(
        league=league, date=NIGHT, player_ids=[x.pk for x in p.values()], user=None
    )
    services.night_seating_set(
        night=night,
        choices=[services.SeatChoice(p[name].pk, t, s) for name, (t, s) in SEATS.items()],
        user=None,
    )
    return night


def seating_sides(html: str) -> list[str]:
    return re.findall(r"Side \d: ([^<·]+?)(?: · |</)", html)


def sides_everywhere(client, night) -> dict[str, str]:
    base = f"/leagues/thursday/nights/{night.pk}"
    seating = client.get(f"{base}/seating/").content.decode()
    night_page = text(client.get(f"{base}/"))
    pack = pdf_words(download(client.get(f"{base}/pack.pdf", {"paper": "a4"})))
    return {
        "seating": " | ".join(s.replace("&amp;", "&").strip() for s in seating_sides(seating)),
        "night": night_page,
        "pack": pack,
    }


def test_the_sides_read_in_seat_order_on_the_seating_page_the_night_page_and_the_pack(
    client, organiser, seated
):
    client.force_login(organiser)

    before = sides_everywhere(client, seated)
    services.night_games_start(night=seated, user=organiser)
    after = sides_everywhere(client, seated)

    for found in (before, after):
        assert found["seating"] == " | ".join(SIDES)
        # Before the start, the players; after it, each side's total (0) beside them.
        assert re.search(
            f"Table 1 (not started|playing) {SIDES[0]}( 0)? {SIDES[1]}( 0)? ", found["night"]
        )
        assert f"1 {SIDES[0]} {SIDES[1]} Zoë, Yan, Ann, Bob Zoë deals first." in found["pack"]


def test_the_players_of_a_voided_game_still_attended_the_night(client, organiser):
    league = league_with(organiser)
    p = members(league, "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
    kept = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    voided = table_game(league, [[p["Eve"], p["Fay"]], [p["Gus"], p["Hal"]]])
    play(kept, [500, 300])
    play(voided, [400, 200])
    night = kept.night
    url = f"/leagues/thursday/nights/{night.pk}/"
    before = text(client.get(url))

    services.game_void(league_game=voided, reason="Misdeal", user=None)

    after = text(client.get(url))
    for page in (before, after):
        assert "Present 8 players: Ann , Bob , Cat , Dan , Eve , Fay , Gus , Hal" in page
    assert "Table 2 finished Eve & Fay 400 ★ Gus & Hal 200 Eve & Fay won" in before
    assert "Table 2 voided Eve & Fay 400 ★ Gus & Hal 200 Eve & Fay won" in after
    # The player's page keeps the game, voided, with the night it was played at.
    player = client.get(f"/leagues/thursday/players/{p['Eve'].pk}/").content.decode()
    assert f'<a href="{url}">1 Oct 2026</a>' in player
    assert "Voided" in text(player)
    # The next night's seating counts them as having played, not as having sat out.
    (past,) = services.nights._history(
        services.night_create(
            league=league,
            date=NIGHT.replace(day=8),
            player_ids=[x.pk for x in p.values()],
            user=None,
        )
    )
    assert past.sitting_out == ()
    assert sorted(map(sorted, past.tables[1])) == sorted(
        [sorted([p["Eve"].pk, p["Fay"].pk]), sorted([p["Gus"].pk, p["Hal"].pk])]
    )
