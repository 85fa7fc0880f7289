"""A club night from the organiser's phone to the standings: the seating, two tables scored from
two phones at once, the night's page following along by itself, then the standings.

The league plays Four Rounds in partnerships, cut to one round, so that each table's game ends
with the round its phone enters and the standings follow from the numbers typed here.
"""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from leagues import services
from leagues.models import League
from tests.helpers.browser import sign_in
from tests.helpers.leagues import PASSWORD, UserFactory, members

# The seating the organiser settles on. Propose always seats the lowest-numbered member (Ann) at
# table 1, side 1; she sits at table 2 here, so a seating that was proposed but not saved shows.
SEATING = {
    1: (["Bob", "Eve"], ["Cat", "Hana"]),
    2: (["Dan", "Gil"], ["Ann", "Fin"]),
}
SEATS = {
    name: (str(table), str(side))
    for table, sides in SEATING.items()
    for side, names in enumerate(sides, start=1)
    for name in names
}

# Table 1: Bob & Eve go out with two natural and three mixed canastas and a red three laid
# down; Cat & Hana have a natural canasta and are caught with a red three in hand.
#   Bob & Eve:  2 × 500 + 3 × 300 + 100 going out + 100 red three + 1150 laid down = 3250
#   Cat & Hana: 500 + 820 laid down − 95 in hand − 100 red three in hand = 1125
# Table 2: the stock runs out.
#   Dan & Gil:  500 + 300 + 600 laid down − 40 in hand = 1360
#   Ann & Fin:  2 × 500 + 2 × 100 red threes + 700 laid down − 120 in hand = 1780
TOTALS = {1: (3250, 1125), 2: (1360, 1780)}

# The season's standings after those two games: a win is 2 league points, a loss 0. Partners
# have the same record, which no tie-break separates: they share a rank ("=1"), in name order;
# equal league points otherwise go to the bigger margin. Everyone started at the same rating,
# so one game moves each winner to 3.4 and each loser to −1.8, whatever the margin. Numbers are
# written as on every page: thousands separators and a true minus sign (U+2212).
#  # player league-points games W T L win% for against average margin rating
STANDINGS = [
    ("=1 Bob  2 1 1 0 0 100 3,250 1,125 3,250.0  2,125.0 3.4", "Win, newest first"),
    ("=1 Eve  2 1 1 0 0 100 3,250 1,125 3,250.0  2,125.0 3.4", "Win, newest first"),
    ("=3 Ann  2 1 1 0 0 100 1,780 1,360 1,780.0    420.0 3.4", "Win, newest first"),
    ("=3 Fin  2 1 1 0 0 100 1,780 1,360 1,780.0    420.0 3.4", "Win, newest first"),
    ("=5 Dan  0 1 0 0 1   0 1,360 1,780 1,360.0   −420.0 −1.8", "Loss, newest first"),
    ("=5 Gil  0 1 0 0 1   0 1,360 1,780 1,360.0   −420.0 −1.8", "Loss, newest first"),
    ("=7 Cat  0 1 0 0 1   0 1,125 3,250 1,125.0 −2,125.0 −1.8", "Loss, newest first"),
    ("=7 Hana 0 1 0 0 1   0 1,125 3,250 1,125.0 −2,125.0 −1.8", "Loss, newest first"),
]


def team(side_name: str) -> list[str]:
    """The players of a side, whatever order the game names them in."""
    return sorted(side_name.split(" & "))


@pytest.fixture
def club(db) -> League:
    """The Thursday Club: its organiser, a season around today and eight members, two of whom
    (Eve and Ann) have accounts of their own."""
    olive = UserFactory(username="olive", password=PASSWORD)
    league = services.league_create(
        name="Thursday Club",
        slug="thursday",
        preset="four-rounds",
        house_rules={"rounds": 1},
        play=League.Play.TEAMS,
        user=olive,
        # Each table's one phone scores alone here; the other side's word on a round is
        # tests/e2e/test_confirmation.py's journey.
        confirm_rounds=False,
    )
    today = timezone.localdate()
    services.season_create(
        league=league,
        name="This season",
        starts_on=today - datetime.timedelta(days=30),
        ends_on=today + datetime.timedelta(days=60),
        user=olive,
    )
    players = members(league, "Ann", "Bob", "Cat", "Dan", "Eve", "Fin", "Gil", "Hana")
    for name in ("Ann", "Eve"):
        services.player_update(
            league=league,
            player=players[name],
            name=name,
            account=UserFactory(username=name.lower(), password=PASSWORD),
            user=olive,
        )
    return league


def phone(new_context, journey, who: str) -> Page:
    context: BrowserContext = new_context()
    return journey.watch(context.new_page(), who)


def seats_on_page(page: Page) -> dict[str, tuple[str, str]]:
    """Each player's table and side as the seating form shows them."""
    seats = {}
    for row in page.locator(".seat-row").all():
        name = row.locator(".seat-name").inner_text().strip()
        table = row.get_by_label(f"Table for {name}").input_value()
        side = row.get_by_label(f"Side for {name}").input_value()
        seats[name] = (table, side)
    return seats


def step(block, label: str, times: int, *, direction: str = "more") -> None:
    """Press a stepper's + (or −) as many times as a person would."""
    button = block.get_by_role("button", name=f"{label}: {direction}", exact=True)
    for _ in range(times):
        button.click()


def test_a_club_night_is_seated_scored_at_two_tables_at_once_and_followed_live(
    club, page: Page, new_context, journey
):
    slug = club.slug
    today = timezone.localdate()
    journey.watch(page, "organiser")

    # The organiser signs in and opens tonight's club night with everyone present.
    sign_in(page, journey, "olive", f"/leagues/{slug}/", check=True)
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursday Club")
    journey.check(page, "league")
    page.get_by_role("link", name="Open a club night").click()
    expect(page.get_by_role("heading", name="New club night")).to_be_visible()
    expect(page.get_by_label("Date")).to_have_value(today.isoformat())
    journey.check(page, "night-new")
    page.get_by_role("button", name="Tick everyone").click()
    who = page.get_by_role("group", name="Who is here")
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fin", "Gil", "Hana"):
        expect(who.get_by_label(name, exact=True)).to_be_checked()
    page.get_by_role("button", name="Open the club night").click()
    expect(page.get_by_text("opened with 8 players")).to_be_visible()
    night_path = page.get_by_role("link", name="The night's page").get_attribute("href")
    journey.check(page, "seating-empty")

    # A proposal seats all eight: two tables of two partnerships.
    page.get_by_role("button", name="Propose a seating").click()
    expect(page.get_by_text("Seating proposed: 2 tables.")).to_be_visible()
    proposed = seats_on_page(page)
    assert sorted(proposed) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fin", "Gil", "Hana"]
    assert sorted(proposed.values()) == sorted(
        (str(t), str(s)) for t in (1, 2) for s in (1, 2) for _ in range(2)
    )
    expect(page.get_by_role("group", name="Table 1")).to_be_visible()
    expect(page.get_by_role("group", name="Table 2")).to_be_visible()
    journey.check(page, "seating-proposed")

    # The organiser seats the partnerships the club asked for, and saves.
    for name, (table, side) in SEATS.items():
        page.get_by_label(f"Table for {name}").fill(table)
        page.get_by_label(f"Side for {name}").select_option(f"Side {side}")
    page.get_by_role("button", name="Save the seating").click()
    expect(page.get_by_text("Seating saved.")).to_be_visible()
    # Each side's players in seat order, which the start page and the night's page keep.
    seat_order: dict[int, list[str]] = {}
    for table, sides in SEATING.items():
        hint = page.get_by_role("group", name=f"Table {table}").locator(".hint").inner_text()
        labels = [part.split(": ", 1) for part in hint.split(" · ")]
        assert [label for label, _ in labels] == ["Side 1", "Side 2"]
        seat_order[table] = [players for _, players in labels]
        assert [team(players) for players in seat_order[table]] == [sorted(s) for s in sides]
    assert seats_on_page(page) == SEATS
    journey.check(page, "seating-saved")

    # From the night's page, the organiser asks to start the seated tables and confirms.
    page.get_by_role("link", name="The night's page").click()
    expect(page).to_have_url(journey.url(night_path))
    results = page.locator("#night-results")
    for table in SEATING:
        expect(results.get_by_role("heading", name=f"Table {table} not started")).to_be_visible()
    journey.check(page, "night-seated")
    page.get_by_role("link", name="Start the seated tables' games").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Start the games at tables 1 and 2?")
    for table in SEATING:
        card = page.locator("article").filter(
            has=page.get_by_role("heading", name=f"Table {table}", exact=True)
        )
        listed = card.get_by_role("listitem").all_inner_texts()
        assert [item.split(": ", 1)[1] for item in listed] == seat_order[table]
    journey.check(page, "start-confirmation")
    page.get_by_role("button", name="Start the games").click()

    expect(page).to_have_url(journey.url(night_path))
    # The page's own message, not the header's status line (static/js/offline.js).
    expect(page.locator("main").get_by_role("status")).to_have_text(
        "Games started at tables 1 and 2."
    )
    day = f"{today.day} {today:%B %Y}"
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Club night, {today:%A} {day}")
    names: dict[int, list[str]] = {}
    for table in SEATING:
        card = results.locator("article").filter(
            has=page.get_by_role("heading", name=re.compile(f"^Table {table} "))
        )
        expect(card.get_by_role("heading")).to_have_text(f"Table {table} playing")
        names[table] = card.locator(".side-players").all_inner_texts()
        assert names[table] == seat_order[table]
        expect(card.locator(".game-meta")).to_have_text("0 rounds played")
    journey.check(page, "night-playing")

    # Table 2's sheet carries a QR code for its scorer link: the game page shows the same link.
    game_links = {
        table: results.get_by_role("link", name=f"Game page for table {table}").get_attribute(
            "href"
        )
        for table in SEATING
    }
    page.goto(journey.url(game_links[2]))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{names[2][0]} vs {names[2][1]}")
    expect(page.locator(".league-context")).to_have_text(
        f"Thursday Club · club night of {day}, table 2"
    )
    journey.check(page, "game-before-scoring")
    scorer_link = page.locator("a#scorer-link").get_attribute("href")

    # A spectator keeps the night's page open on a phone, signed out, with a clock the test
    # can wind on: the page asks for fresh results every 15 seconds.
    spectator = phone(new_context, journey, "spectator")
    spectator.clock.install()
    spectator.goto(journey.url(night_path))
    live = spectator.locator("#night-results")
    expect(live).to_have_attribute("hx-trigger", "every 15s")
    expect(spectator.get_by_role("navigation", name="Organiser")).to_have_count(0)
    journey.check(spectator, "night-spectator-before")
    spectator.evaluate("() => { window.stillTheSamePage = true; }")
    # From a few seconds on, its time stands still until the test winds it on, however long
    # the scoring takes; its next look is due 15 seconds after it loaded.
    page_time = spectator.evaluate("() => Date.now()") / 1000
    spectator.clock.pause_at(datetime.datetime.fromtimestamp(page_time + 3, datetime.UTC))

    # Eve, a member, signs in on her own phone to score table 1; Fin's phone scans the QR code
    # on table 2's sheet.
    eve = phone(new_context, journey, "Eve")
    sign_in(eve, journey, "eve", game_links[1])
    fin = phone(new_context, journey, "Fin")
    fin.goto(scorer_link)
    expect(fin.get_by_text("This phone can now score the game.")).to_be_visible()

    # Both open round 1 before either saves.
    for scorer in (eve, fin):
        scorer.get_by_role("link", name="Enter round 1").click()
        expect(scorer.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    (bob_eve, cat_hana), (dan_gil, ann_fin) = (
        [eve.get_by_role("group", name=re.compile(f"^{re.escape(n)}")) for n in names[1]],
        [fin.get_by_role("group", name=re.compile(f"^{re.escape(n)}")) for n in names[2]],
    )

    # Their thumbs move at the same time.
    eve.get_by_label(f"{names[1][0]} went out").check()
    fin.get_by_label("The stock ran out").check()
    # Going out filled in the two natural and three mixed canastas it needs.
    step(dan_gil, "Natural canastas", 1)
    step(dan_gil, "Mixed canastas", 1)
    step(ann_fin, "Natural canastas", 2)
    step(bob_eve, "Red threes laid down (+100 each)", 1)
    step(ann_fin, "Red threes laid down (+100 each)", 2)
    bob_eve.get_by_label("Points of cards laid down", exact=True).fill("1150")
    dan_gil.get_by_label("Points of cards laid down", exact=True).fill("600")
    step(cat_hana, "Natural canastas", 1)
    dan_gil.get_by_label("Points left in hand", exact=True).fill("40")
    cat_hana.get_by_label("Points of cards laid down", exact=True).fill("820")
    ann_fin.get_by_label("Points of cards laid down", exact=True).fill("700")
    cat_hana.get_by_label("Points left in hand", exact=True).fill("95")
    ann_fin.get_by_label("Points left in hand", exact=True).fill("120")
    step(cat_hana, "Red threes left in hand (−100 each)", 1)

    # Each breakdown adds the round up before it is saved.
    for scorer, table in ((eve, 1), (fin, 2)):
        first, second = TOTALS[table]
        expect(scorer.locator("#preview .new-totals")).to_have_text(
            f"Totals after round 1: {names[table][0]} {first:,}, {names[table][1]} {second:,}"
        )
    expect(eve.locator("#preview")).to_contain_text("Going out")
    journey.check(eve, "round-table-1-breakdown")
    journey.check(fin, "round-table-2-breakdown")

    for scorer in (eve, fin):
        scorer.get_by_role("button", name="Save round 1").click()
    winners = {1: names[1][0], 2: names[2][1]}
    for scorer, table in ((eve, 1), (fin, 2)):
        first, second = TOTALS[table]
        expect(
            scorer.get_by_role("heading", level=2, name=f"{winners[table]} win!")
        ).to_be_visible()
        expect(scorer.get_by_text("Final score:")).to_have_text(
            f"Final score: {names[table][0]} {first:,}, {names[table][1]} {second:,}."
        )
        expect(scorer.locator("tfoot td")).to_have_text([f"{first:,}", f"{second:,}"])
    journey.check(eve, "game-table-1-finished")
    journey.check(fin, "game-table-2-finished")

    # Both games are over, but the spectator's page has not looked again yet.
    expect(live.locator(".live-badge")).to_have_text(["playing", "playing"])
    expect(live.locator(".side-total")).to_have_text(["0", "0", "0", "0"])

    # Fifteen seconds on, the spectator's page has fetched the results by itself.
    spectator.clock.fast_forward("00:16")
    for table in SEATING:
        card = live.locator("article").filter(
            has=spectator.get_by_role("heading", name=re.compile(f"^Table {table} "))
        )
        expect(card.get_by_role("heading")).to_have_text(f"Table {table} finished")
        first, second = TOTALS[table]
        expect(card.locator(".side-total")).to_have_text([f"{first:,}", f"{second:,}"])
        expect(card.locator(".winner .side-players")).to_have_text(winners[table])
        expect(card.locator(".game-meta")).to_have_text(f"{winners[table]} won after 1 round")
    assert spectator.evaluate("() => window.stillTheSamePage === true")
    spectator.clock.resume()
    journey.check(spectator, "night-spectator-after")

    # The season's standings, from the spectator's phone.
    spectator.get_by_role("link", name="This season").click()
    expect(spectator.get_by_role("heading", name="Standings: This season")).to_be_visible()
    rows = spectator.locator("#standings-table tbody tr")
    expect(rows).to_have_count(len(STANDINGS))
    for row, (expected, last_five) in zip(rows.all(), STANDINGS, strict=True):
        cells = row.locator("th, td")
        assert cells.all_inner_texts()[:-1] == expected.split()
        expect(cells.last.get_by_role("img")).to_have_accessible_name(last_five)
    journey.check(spectator, "season-standings")

    # The all-time standings hold the same eight, since the league has played nothing else.
    spectator.get_by_role("navigation", name="Seasons").get_by_role("link", name="All time").click()
    expect(spectator.get_by_role("heading", name="Standings: all time")).to_be_visible()
    expect(rows.locator("th")).to_have_text([line.split()[1] for line, _ in STANDINGS])
    expect(rows.locator("td.total")).to_have_text([line.split()[2] for line, _ in STANDINGS])
    journey.check(spectator, "all-time-standings")
