"""Classic Canasta, Samba and Buraco at the kitchen table, on a phone: each game started from its
card, a round entered with the fields its rules use (and none it does not), the breakdown read
before saving, and played to the rule set's winner."""

import re

from playwright.sync_api import Page, expect

from tests.helpers.browser import preview, side, tap
from tests.helpers.games import start_form


def start(page: Page, journey, name: str, preset: str) -> None:
    page.goto(journey.url("/games/new/"))
    page.get_by_role("link", name=f"Play {name}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"New game of {name}")
    for field, value in start_form(preset).items():
        if field != "first_dealer":
            page.locator(f"input[name='{field}']").fill(value)
    journey.check(page, f"{preset}-start")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann & Cy vs Bob & Di")


def enter_round(page: Page, number: int) -> None:
    page.get_by_role("link", name=f"Enter round {number}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Round {number}")
    # The heading shows before the round form's modules run (tests/e2e/test_round_taps.py).
    page.wait_for_load_state("load")


def fields_of(page: Page) -> list[str]:
    """The labels of the first side's fields, as a player reads them down the form."""
    return page.locator("#s0 label").all_inner_texts()


def test_a_canasta_game_with_a_concealed_going_out_and_red_threes_against(page: Page, journey):
    journey.watch(page)
    start(page, journey, "Canasta", "canasta")
    expect(page.locator("ul.meld-needs")).to_contain_text("Ann & Cy need 50 to open")

    enter_round(page, 1)
    us, them = side(page, "Ann & Cy"), side(page, "Bob & Di")
    # No foot and no threes held: Canasta's fields only.
    labels = " / ".join(fields_of(page))
    assert "Went out concealed (+100 more)" in labels
    assert "foot" not in labels.lower() and "left in hand (" not in labels, labels
    page.get_by_label("Ann & Cy went out").check()
    us.get_by_label("Went out concealed (+100 more)").check()
    tap(us, "Natural canastas")
    tap(us, "Mixed canastas")
    tap(us, "Red threes laid down (+100 each)", 2)
    us.get_by_label("Points of cards laid down", exact=True).fill("470")
    tap(them, "Red threes laid down (+100 each)")
    them.get_by_label("Points left in hand", exact=True).fill("85")
    expect(preview(page)).to_contain_text("Totals after round 1: Ann & Cy 1,670, Bob & Di −185")
    expect(preview(page).locator(".breakdown").nth(1)).to_contain_text(
        "Red threes 1 × −100 (counted against: nothing melded)−100"
    )
    expect(preview(page).locator(".breakdown").nth(0)).to_contain_text("Going out concealed+100")
    journey.check(page, "canasta-round-1")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("table.scoreboard tfoot")).to_contain_text("1,670")
    # Ann & Cy's 1,670 asks them for 90 to open; Bob & Di, below zero, for 15.
    expect(page.locator("ul.meld-needs")).to_have_text(
        re.compile(r"Ann & Cy need\s+90\s+to open\s+Bob & Di need\s+15\s+to open")
    )

    # Round 2 takes Ann & Cy past 5,000: the game is theirs.
    enter_round(page, 2)
    page.get_by_label("Ann & Cy went out").check()
    us.get_by_label("Natural canastas", exact=True).fill("5")
    us.get_by_label("Mixed canastas", exact=True).fill("3")
    us.get_by_label("Points of cards laid down", exact=True).fill("900")
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator("section.result h2")).to_have_text("Ann & Cy win!")
    journey.check(page, "canasta-winner")


def test_a_samba_game_scores_sambas_and_red_threes_against_a_side_short_of_canastas(
    page: Page, journey
):
    journey.watch(page)
    start(page, journey, "Samba", "samba")
    enter_round(page, 1)
    us, them = side(page, "Ann & Cy"), side(page, "Bob & Di")
    assert "Went out concealed" not in " / ".join(fields_of(page))
    page.get_by_label("Ann & Cy went out").check()
    tap(us, "Samba canastas")
    tap(us, "Natural canastas")
    tap(us, "Red threes laid down (+100 each)", 4)
    us.get_by_label("Points of cards laid down", exact=True).fill("620")
    tap(them, "Mixed canastas")
    tap(them, "Red threes laid down (+100 each)", 2)
    them.get_by_label("Points of cards laid down", exact=True).fill("150")
    them.get_by_label("Points left in hand", exact=True).fill("40")
    expect(preview(page)).to_contain_text("Totals after round 1: Ann & Cy 3,220, Bob & Di 210")
    expect(preview(page).locator(".breakdown").nth(1)).to_contain_text(
        "(counted against: fewer than 2 canastas)"
    )
    journey.check(page, "samba-round-1")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("table.scoreboard tfoot")).to_contain_text("3,220")

    # Four sambas and a natural canasta more take Ann & Cy past 10,000: 6,000 + 500 + 200 + 700.
    enter_round(page, 2)
    page.get_by_label("Ann & Cy went out").check()
    us.get_by_label("Samba canastas", exact=True).fill("4")
    us.get_by_label("Natural canastas", exact=True).fill("1")
    us.get_by_label("Points of cards laid down", exact=True).fill("700")
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator("section.result h2")).to_have_text("Ann & Cy win!")
    expect(page.locator("section.result")).to_contain_text(
        "Final score: Ann & Cy 10,620, Bob & Di 210."
    )
    journey.check(page, "samba-winner")


def test_a_buraco_game_has_no_threes_and_takes_100_for_a_morto_never_taken(page: Page, journey):
    journey.watch(page)
    start(page, journey, "Buraco", "buraco")
    expect(page.locator("ul.meld-needs")).to_have_count(0)
    enter_round(page, 1)
    us, them = side(page, "Ann & Cy"), side(page, "Bob & Di")
    labels = " / ".join(fields_of(page))
    assert "Red threes" not in labels and "Never picked up the morto (−100)" in labels, labels
    page.get_by_label("Ann & Cy went out").check()
    # Going out needs a clean canasta: choosing who went out fills it in.
    expect(us.get_by_label("Clean canastas", exact=True)).to_have_value("1")
    tap(us, "Dirty canastas")
    us.get_by_label("Points of cards laid down", exact=True).fill("415")
    us.get_by_label("Points left in hand", exact=True).fill("25")
    tap(them, "Dirty canastas")
    them.get_by_label("Points of cards laid down", exact=True).fill("160")
    them.get_by_label("Points left in hand", exact=True).fill("95")
    them.get_by_label("Never picked up the morto (−100)").check()
    expect(preview(page)).to_contain_text("Totals after round 1: Ann & Cy 790, Bob & Di 65")
    journey.check(page, "buraco-round-1")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("table.scoreboard tfoot")).to_contain_text("790")

    # Six clean and five dirty canastas more take Ann & Cy past 3,000: 1,200 + 500 + 100 + 700.
    enter_round(page, 2)
    page.get_by_label("Ann & Cy went out").check()
    us.get_by_label("Clean canastas", exact=True).fill("6")
    us.get_by_label("Dirty canastas", exact=True).fill("5")
    us.get_by_label("Points of cards laid down", exact=True).fill("700")
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator("section.result h2")).to_have_text("Ann & Cy win!")
    expect(page.locator("section.result")).to_contain_text(
        "Final score: Ann & Cy 3,290, Bob & Di 65."
    )
    journey.check(page, "buraco-winner")
