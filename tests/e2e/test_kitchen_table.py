"""The kitchen table in a real Chromium on a phone: from the home page to the winner."""

import re

from playwright.sync_api import Locator, Page, expect

from scorekeeper.models import Game
from tests.helpers.browser import preview, side, tap
from tests.helpers.pdfs import pdf_words


def count_cards(block: Locator, pile: str, taps: dict[str, int], typed: dict[str, int]) -> None:
    """Open the side's count-cards helper if it is closed, and in one pile's cards ("melded" or
    "hand") tap some ranks and type others."""
    # The helper's steppers listen once the round form's modules have run (test_round_taps.py).
    block.page.wait_for_load_state("load")
    opened = block.locator("details.count-cards")
    if opened.get_attribute("open") is None:
        opened.get_by_text("Count cards", exact=True).click()
    helper = opened.locator(f"fieldset.pile-cards[id$='-{pile}_cards']")
    for rank, times in taps.items():
        for _ in range(times):
            helper.get_by_role("button", name=f"{rank}: one more", exact=True).click()
    for rank, count in typed.items():
        helper.get_by_label(re.compile(rf"^{re.escape(rank)} \(")).fill(str(count))


def expect_totals(page: Page, *totals: str) -> None:
    """The scoreboard's footer row, as a screen reader reads it."""
    expect(page.locator("table.scoreboard tfoot")).to_match_aria_snapshot(
        f'- rowgroup:\n  - row "Total {" ".join(totals)}"'
    )


def expect_breakdown(page: Page, index: int, heading: str, rows: list[str]) -> None:
    """One side's live breakdown: its round total and every line, as a screen reader reads them."""
    lines = "".join(f'\n    - row "{row}"' for row in rows)
    expect(preview(page).locator(".breakdown").nth(index)).to_match_aria_snapshot(
        f"- 'heading \"{heading}\" [level=3]'\n- table:\n  - rowgroup:{lines}"
    )


def test_a_baskets_game_from_the_home_page_to_its_winner(page: Page, journey):
    journey.watch(page)
    page.goto(journey.url("/"))
    journey.check(page, "home")

    page.get_by_role("link", name="Start a game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Which game are you playing?")
    journey.check(page, "rules-picker")
    page.get_by_role("link", name="Play Baskets").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New game of Baskets")
    names = page.get_by_label("Name", exact=True)
    names.nth(0).fill("Ann")
    names.nth(1).fill("Zoë")
    journey.check(page, "start-form")
    page.get_by_role("button", name="Start the game").click()

    # The game page: who deals, what each needs to open.
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann vs Zoë")
    next_round = page.locator("section.next-round")
    expect(next_round).to_contain_text("Round 1")
    expect(next_round).to_contain_text("Ann deals.")
    expect(page.locator("ul.meld-needs")).to_have_text(
        re.compile(r"Ann needs\s+50\s+to open\s+Zoë needs\s+50\s+to open")
    )
    journey.check(page, "new-game")

    # Round 1: steppers, the count-cards helper, an error beside its field, the live breakdown.
    page.get_by_role("link", name="Enter round 1").click()
    expect(preview(page)).to_contain_text("It shows here as you type.")
    page.get_by_label("Ann went out").check()
    ann, zoe = side(page, "Ann"), side(page, "Zoë")
    # Going out needs a wicker basket: choosing Ann filled it in.
    expect(ann.get_by_label("Wicker baskets", exact=True)).to_have_value("1")
    tap(ann, "Wicker baskets", 2)
    expect(ann.get_by_label("Wicker baskets", exact=True)).to_have_value("3")
    # Three baskets of seven cards cannot be worth nothing: the breakdown waits for a fix.
    expect(page.locator("#err-s0-melded_points")).to_have_text(
        "Ann's melded points are 0, but it takes at least 105 points of cards to make Ann's "
        "3 wicker baskets (seven cards or more each); melded points count every card laid down."
    )
    expect(preview(page)).to_contain_text("Fix the fields marked in red to see the breakdown.")
    # Ann counts her melded cards by rank: two aces tapped, the rest typed.
    count_cards(ann, "melded", {"A": 2}, {"K": 7, "Q": 7, "8": 7})
    expect(ann.get_by_label("Points of cards laid down", exact=True)).to_have_value("250")
    expect(page.locator("#err-s0-melded_points")).to_have_text("")

    tap(zoe, "Plastic baskets")
    zoe.get_by_label("Points of cards laid down", exact=True).fill("352")
    expect(page.locator("#err-s1-melded_points")).to_have_text(
        "Zoë's melded points must be a multiple of 5, since every card is, not 352."
    )
    expect(preview(page)).to_contain_text("Fix the fields marked in red to see the breakdown.")
    journey.check(page, "round-1-error")
    zoe.get_by_label("Points of cards laid down", exact=True).fill("350")
    count_cards(zoe, "hand", {"2": 1, "5": 2}, {})
    expect(zoe.get_by_label("Points left in hand", exact=True)).to_have_value("30")
    zoe.get_by_label("Never picked up the buns").check()
    expect(page.locator("#err-s1-melded_points")).to_have_text("")
    expect(preview(page)).to_contain_text("Totals after round 1: Ann 2,000, Zoë 520")
    expect_breakdown(
        page,
        0,
        "Ann: +2,000",
        [
            "Wicker baskets 3 × 500 +1,500",
            "Going out +250",
            "Cards melded +250",
        ],
    )
    expect_breakdown(
        page,
        1,
        "Zoë: +520",
        [
            "Plastic baskets 1 × 300 +300",
            "Cards melded +350",
            "Cards left in biscuits and buns −30",
            "Buns never picked up −100",
        ],
    )
    journey.check(page, "round-1-breakdown")
    page.get_by_role("button", name="Save round 1").click()

    # The messages line, not the Share section's Copy status.
    expect(page.get_by_role("status").filter(has_text="Round 1 saved.")).to_be_visible()
    expect_totals(page, "2,000", "520")
    expect(next_round).to_contain_text("Zoë deals.")
    expect(page.locator("ul.meld-needs")).to_have_text(
        re.compile(r"Ann needs\s+70\s+to open\s+Zoë needs\s+50\s+to open")
    )
    journey.check(page, "after-round-1")

    # Round 2: Zoë goes out; typed points this time.
    page.get_by_role("link", name="Enter round 2").click()
    page.get_by_label("Zoë went out").check()
    tap(zoe, "Wicker baskets")
    tap(zoe, "Plastic baskets")
    zoe.get_by_label("Points of cards laid down", exact=True).fill("400")
    tap(ann, "Wicker baskets")
    ann.get_by_label("Points of cards laid down", exact=True).fill("300")
    ann.get_by_label("Points left in hand", exact=True).fill("45")
    expect(preview(page)).to_contain_text("Totals after round 2: Ann 2,755, Zoë 2,470")
    page.get_by_role("button", name="Save round 2").click()
    expect_totals(page, "2,755", "2,470")
    expect(page.locator("ul.meld-needs")).to_have_text(
        re.compile(r"Ann needs\s+70\s+to open\s+Zoë needs\s+70\s+to open")
    )

    # A round's breakdown opens in place (htmx) from the scoreboard, without leaving the page.
    game_url = page.url
    page.get_by_role("link", name="Round 1, Ann: +2,000 , total 2,000").click()
    panel = page.locator("#breakdown-panel")
    expect(panel).to_contain_text("Wicker baskets 3 × 500")
    assert page.url == game_url
    journey.check(page, "round-1-in-place")

    # Correct round 1: Ann had four wicker baskets, not three.
    page.goto(game_url + "rounds/1/")
    page.get_by_role("link", name="Correct round 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct round 1")
    expect(ann.get_by_label("Wicker baskets", exact=True)).to_have_value("3")
    tap(ann, "Wicker baskets")
    expect(preview(page)).to_contain_text("Totals after round 1: Ann 2,500, Zoë 520")
    journey.check(page, "correct-round-1")
    page.get_by_role("button", name="Save correction").click()
    confirm = page.get_by_role("alert")
    expect(confirm).to_contain_text(
        "The game's totals go from Ann 2,755, Zoë 2,470 to Ann 3,255, Zoë 2,470."
    )
    journey.check(page, "confirm-correction")
    page.get_by_role("button", name="Yes, save the correction").click()
    expect_totals(page, "3,255", "2,470")
    expect(page.get_by_role("link", name="Round 1, Ann: +2,500 , total 2,500")).to_be_visible()
    expect(page.locator("ul.meld-needs")).to_have_text(
        re.compile(r"Ann needs\s+90\s+to open\s+Zoë needs\s+70\s+to open")
    )
    journey.check(page, "after-correction")

    # Round 3: Ann goes out past 5,000 and wins.
    page.get_by_role("link", name="Enter round 3").click()
    expect(page.locator("p.dealer")).to_contain_text("Ann deals.")
    page.get_by_label("Ann went out").check()
    tap(ann, "Wicker baskets", 2)
    ann.get_by_label("Points of cards laid down", exact=True).fill("300")
    tap(zoe, "Plastic baskets")
    zoe.get_by_label("Points of cards laid down", exact=True).fill("200")
    zoe.get_by_label("Points left in hand", exact=True).fill("20")
    expect(preview(page)).to_contain_text("Totals after round 3: Ann 5,305, Zoë 2,950")
    page.get_by_role("button", name="Save round 3").click()

    expect(page.locator("section.result h2")).to_have_text("Ann wins!")
    expect(page.locator("section.result")).to_contain_text("Final score: Ann 5,305, Zoë 2,950.")
    # The chart draws a line per player through every round's running total.
    lines = page.locator("svg.chart polyline")
    expect(lines).to_have_count(2)
    assert [len(line.get_attribute("points").split()) for line in lines.all()] == [4, 4]
    expect(page.locator("ul.legend li")).to_have_text(["Ann", "Zoë"])
    journey.check(page, "winner")

    # The score card downloads as a PDF with both names and the final totals in it.
    with page.expect_download() as download_info:
        page.locator("section.print").get_by_role("link", name="A4").click()
    download = download_info.value
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-ann-vs-zoe-score-card\.pdf", download.suggested_filename)
    words = pdf_words(download.path().read_bytes())
    assert "Winner: Ann with 5,305. Final totals: Ann 5,305, Zoë 2,950." in words, words
    game = Game.objects.get()
    assert [s.running_total for s in game.rounds.get(number=3).scores.order_by("side")] == [
        5305,
        2950,
    ]


def test_a_four_round_team_game_with_the_exact_cut(page: Page, journey):
    journey.watch(page)
    page.goto(journey.url("/games/new/"))
    page.get_by_role("link", name="Play Four Rounds").click()
    team_names = page.get_by_label("Team name")
    team_names.nth(0).fill("Hearts")
    team_names.nth(1).fill("Spades")
    # Players are named by their seats round the table: Hearts sit at 1 and 3, Spades at 2 and 4.
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 3", exact=True).fill("Bob")
    page.get_by_label("Player 2", exact=True).fill("Cy")
    page.get_by_label("Player 4", exact=True).fill("Di")
    # Bob cuts and deals first, so Hearts hold the cut in rounds 1 and 3.
    page.get_by_role("radio", name="Player 3 deals first").check()
    journey.check(page, "start-form")
    page.get_by_role("button", name="Start the game").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Hearts vs Spades")
    expect(page.locator("section.next-round")).to_contain_text("Bob deals.")
    expect(page.locator("ul.meld-needs")).to_have_text(
        re.compile(r"Hearts needs\s+60\s+to open\s+Spades needs\s+60\s+to open")
    )
    journey.check(page, "new-game")

    # Round 1: Bob cut exactly, and Hearts went out.
    page.get_by_role("link", name="Enter round 1").click()
    hearts, spades = side(page, "Hearts"), side(page, "Spades")
    expect(hearts.locator(":scope > legend")).to_have_text("Hearts dealer")
    expect(spades.get_by_label("Cut the deck exactly (+100)")).to_have_count(0)
    hearts.get_by_label("Cut the deck exactly (+100)").check()
    page.get_by_label("Hearts went out").check()
    # The two natural and three mixed canastas going out needs are filled in.
    expect(hearts.get_by_label("Natural canastas", exact=True)).to_have_value("2")
    expect(hearts.get_by_label("Mixed canastas", exact=True)).to_have_value("3")
    tap(hearts, "Red threes laid down (+100 each)", 2)
    hearts.get_by_label("Points of cards laid down", exact=True).fill("1200")
    tap(spades, "Natural canastas")
    spades.get_by_label("Points of cards laid down", exact=True).fill("600")
    count_cards(spades, "hand", {"Joker": 1}, {"5": 7})
    tap(spades, "Red threes left in hand (−100 each)")
    expect(preview(page)).to_contain_text("Totals after round 1: Hearts 3,500, Spades 915")
    expect_breakdown(
        page,
        0,
        "Hearts: +3,500",
        [
            "Natural canastas 2 × 500 +1,000",
            "Mixed canastas 3 × 300 +900",
            "Red threes 2 × 100 +200",
            "Exact cut 1 × 100 +100",
            "Going out +100",
            "Cards melded +1,200",
        ],
    )
    expect_breakdown(
        page,
        1,
        "Spades: +915",
        [
            "Natural canastas 1 × 500 +500",
            "Cards melded +600",
            "Cards left in hand and foot −85",
            "Red threes in hand 1 × −100 −100",
        ],
    )
    journey.check(page, "round-1-breakdown")
    page.get_by_role("button", name="Save round 1").click()
    expect_totals(page, "3,500", "915")
    expect(page.locator("section.next-round")).to_contain_text("Di deals.")
    expect(page.locator("ul.meld-needs")).to_have_text(
        re.compile(r"Hearts needs\s+90\s+to open\s+Spades needs\s+90\s+to open")
    )

    # Rounds 2 and 3: the stock runs out; the deal goes round the table, Spades then Hearts.
    for number, dealer, meld in ((2, "Di", 120), (3, "Ann", 150)):
        page.get_by_role("link", name=f"Enter round {number}").click()
        expect(page.locator("p.dealer")).to_contain_text(f"{dealer} deals.")
        page.get_by_label("The stock ran out").check()
        hearts.get_by_label("Points of cards laid down", exact=True).fill("400")
        spades.get_by_label("Points of cards laid down", exact=True).fill("700")
        expect(preview(page)).to_contain_text(f"Totals after round {number}")
        page.get_by_role("button", name=f"Save round {number}").click()
        expect(page.locator("ul.meld-needs")).to_have_text(
            re.compile(rf"Hearts needs\s+{meld}\s+to open\s+Spades needs\s+{meld}\s+to open")
        )
    expect_totals(page, "4,300", "2,315")
    expect(page.locator("section.next-round")).to_contain_text("Cy deals.")

    # Round 4: now the cut is Spades' to make, and they make it and go out.
    page.get_by_role("link", name="Enter round 4").click()
    expect(spades.locator(":scope > legend")).to_have_text("Spades dealer")
    expect(hearts.get_by_label("Cut the deck exactly (+100)")).to_have_count(0)
    spades.get_by_label("Cut the deck exactly (+100)").check()
    page.get_by_label("Spades went out").check()
    tap(spades, "Natural canastas")
    spades.get_by_label("Points of cards laid down", exact=True).fill("1500")
    hearts.get_by_label("Points of cards laid down", exact=True).fill("300")
    hearts.get_by_label("Points left in hand", exact=True).fill("150")
    expect(preview(page)).to_contain_text("Totals after round 4: Hearts 4,450, Spades 6,415")
    expect(preview(page).locator(".breakdown").nth(1)).to_contain_text("Exact cut 1 × 100+100")
    journey.check(page, "round-4-breakdown")
    page.get_by_role("button", name="Save round 4").click()

    expect(page.locator("section.result h2")).to_have_text("Spades win!")
    expect(page.locator("section.result")).to_contain_text(
        "Final score: Hearts 4,450, Spades 6,415."
    )
    expect_totals(page, "4,450", "6,415")
    journey.check(page, "winner")


def test_a_round_is_entered_and_corrected_with_javascript_off(new_context, journey):
    page = journey.watch(new_context(java_script_enabled=False).new_page(), "no-js phone")
    page.goto(journey.url("/games/new/baskets/"))
    names = page.get_by_label("Name", exact=True)
    names.nth(0).fill("Ann")
    names.nth(1).fill("Zoë")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter round 1").click()
    expect(preview(page)).to_contain_text("It shows here as you type.")

    # Without steppers or a live breakdown the numbers are typed, and Save checks them.
    page.get_by_label("Ann went out").check()
    ann, zoe = side(page, "Ann"), side(page, "Zoë")
    ann.get_by_label("Wicker baskets", exact=True).fill("3")
    ann.get_by_text("Count cards", exact=True).first.click()
    ann.get_by_label(re.compile(r"^K \(")).first.fill("10")
    ann.get_by_label(re.compile(r"^Q \(")).first.fill("4")
    ann.get_by_label(re.compile(r"^8 \(")).first.fill("7")
    zoe.get_by_label("Plastic baskets", exact=True).fill("1")
    zoe.get_by_label("Points of cards laid down", exact=True).fill("352")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#err-s1-melded_points")).to_have_text(
        "Zoë's melded points must be a multiple of 5, since every card is, not 352."
    )
    expect(ann.get_by_label("Wicker baskets", exact=True)).to_have_value("3")
    assert Game.objects.get().rounds.count() == 0
    journey.check(page, "error-after-save", axe=False)

    zoe.get_by_label("Points of cards laid down", exact=True).fill("350")
    page.get_by_role("button", name="Save round 1").click()
    # The messages line, not the Share section's Copy status.
    expect(page.get_by_role("status").filter(has_text="Round 1 saved.")).to_be_visible()
    # Ann's counted cards (10 kings, 4 queens and 7 eights: 210) stood in for her melded points.
    expect_totals(page, "1,960", "650")
    journey.check(page, "after-round-1", axe=False)

    # The scoreboard's cells are plain links to the round's page.
    page.get_by_role("link", name="Round 1, Ann: +1,960 , total 1,960").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    page.get_by_role("link", name="Correct round 1").click()
    zoe.get_by_label("Points of cards laid down", exact=True).fill("400")
    page.get_by_role("button", name="Save correction").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "The game's totals go from Ann 1,960, Zoë 650 to Ann 1,960, Zoë 700."
    )
    page.get_by_role("button", name="Yes, save the correction").click()
    expect_totals(page, "1,960", "700")
    journey.check(page, "after-correction", axe=False)
