"""Score cards and blank sheets as downloads: links, file names, paper, errors and numbers."""

import pytest
from django.utils import timezone

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.models import RoundScore
from scorekeeper.portable.start_fields import SideSpec
from scorekeeper.rounds.services import round_record
from tests.helpers.games import round_form
from tests.helpers.pdfs import pdf_words

# The game with its league, its sides, its rounds: not the rounds' stored scores, which the card
# never reads.
SCORE_CARD_QUERIES = 3


def test_the_game_page_links_the_score_card_in_the_locales_paper_first(scorer, start_game):
    url = start_game("four-rounds")
    public_id = url.strip("/").split("/")[-1]
    page = scorer.get(url, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8").content.decode()
    assert (
        "<span>Score card so far (PDF):</span> "
        f'<a href="/g/{public_id}/score-card.pdf?paper=a4" download class="default">A4</a> · '
        f'<a href="/g/{public_id}/score-card.pdf?paper=letter" download>US Letter</a>'
    ) in page
    page = scorer.get(url, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.8").content.decode()
    assert (
        f'<a href="/g/{public_id}/score-card.pdf?paper=letter" download class="default">'
        "US Letter</a> · "
    ) in page


def test_the_score_card_holds_the_game_pages_numbers(scorer, start_game):
    url = start_game("four-rounds")
    rules = engine.get_ruleset("four-rounds")
    for number in (1, 2):
        response = scorer.post(
            f"{url}rounds/new/", round_form(rules, melded=900 + number * 100, number=number)
        )
        assert response.status_code == 302
    page = scorer.get(url).content.decode()

    response = scorer.get(f"{url}score-card.pdf?paper=letter")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    day = timezone.localdate().isoformat()
    assert response["Content-Disposition"] == (
        f'attachment; filename="{day}-ann-cy-vs-bob-di-score-card.pdf"'
    )
    # The scorer's phone holds a session: its card is private too.
    assert response["Cache-Control"] == "no-store, private"
    data = b"".join(response.streaming_content)
    assert b"/MediaBox [ 0 0 612 792 ]" in data
    words = pdf_words(data)
    scores = RoundScore.objects.select_related("round").order_by("round__number", "side__position")
    cells = [f"{s.points:,} → {s.running_total:,}" for s in scores]
    assert cells == ["3,000 → 3,000", "725 → 725", "3,100 → 6,100", "725 → 1,450"]
    assert f"1 {cells[0]} {cells[1]} 2 {cells[2]} {cells[3]} Total 6,100 1,450" in words
    for cell in cells:  # what the game page shows for each round
        points, running = cell.split(" → ")
        assert (
            f'<span class="points">+{points}</span><span class="visually-hidden">, total</span> '
            f'<span class="running">{running}</span>' in page
        )
    assert (
        "In progress after round 2: Ann & Cy 6,100, Bob & Di 1,450. "
        "Round 3 opening meld: Ann & Cy 120, Bob & Di 120." in words
    )
    assert "Round 1 · Ann deals" in words and "Round 2 · Bob deals" in words
    assert "Round 3 · Cy deals Ann & Cy Bob & Di Opening meld 120 120" in words


def test_a_finished_games_card_names_the_winner(scorer, start_game):
    url = start_game("baskets")
    rules = engine.get_ruleset("baskets")
    for number in (1, 2, 3):
        assert scorer.post(f"{url}rounds/new/", round_form(rules, number=number)).status_code == 302
    response = scorer.get(f"{url}score-card.pdf")
    words = pdf_words(b"".join(response.streaming_content))
    assert "Winner: Ann with 7,050. Final totals: Ann 7,050, Bob 2,175." in words
    page = scorer.get(url).content.decode()
    assert "<span>Score card (PDF):</span>" in page


def test_anyone_with_the_games_address_may_download_its_card(start_game, client):
    url = start_game("baskets")
    response = client.get(f"{url}score-card.pdf")
    assert response.status_code == 200
    assert "Ann vs Bob" in pdf_words(b"".join(response.streaming_content))


@pytest.mark.parametrize("rounds", [1, 20])
def test_the_score_card_costs_the_same_queries_at_1_and_20_rounds(
    client, game_with_rounds, django_assert_num_queries, rounds
):
    game = game_with_rounds(rounds)
    with django_assert_num_queries(SCORE_CARD_QUERIES):
        response = client.get(f"/g/{game.public_id}/score-card.pdf")
        data = b"".join(response.streaming_content)
    assert pdf_words(data).count("Running total") == rounds + 2


@pytest.mark.parametrize(
    "query, message",
    [
        ("paper=a3", "paper: 'a3' is not a paper size we print on; choose a4 or letter."),
        (
            "paper=" + "x" * 60,
            f"paper: '{'x' * 40}…' is not a paper size we print on; choose a4 or letter.",
        ),
    ],
)
def test_an_unknown_paper_is_a_400_naming_the_field(start_game, client, query, message):
    url = start_game("baskets")
    response = client.get(f"{url}score-card.pdf?{query}")
    assert response.status_code == 400
    assert response.content.decode() == message


def test_an_unknown_games_card_is_404(client, db):
    assert client.get("/g/nope/score-card.pdf").status_code == 404


def test_the_rules_picker_links_a_blank_sheet_for_every_preset(client, db):
    page = client.get("/games/new/", HTTP_ACCEPT_LANGUAGE="de-DE").content.decode()
    for preset in engine.RULESETS:
        assert (
            f'<span>Blank score sheet (PDF):</span> <a href="/games/new/{preset}/score-sheet.pdf'
            f'?paper=a4" download class="default">A4</a>'
        ) in page


def test_a_blank_sheet_of_a_preset(client, db):
    response = client.get("/games/new/four-rounds/score-sheet.pdf?paper=a4")
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        'attachment; filename="four-rounds-blank-score-sheet.pdf"'
    )
    words = pdf_words(b"".join(response.streaming_content))
    assert "Four Rounds: score sheet" in words
    assert "Round 1 Team 1 Team 2 Opening meld 60 60" in words
    assert "Round 4 Team 1 Team 2 Opening meld 150 150" in words


def test_a_blank_sheet_with_more_sides_and_house_rules(client, db):
    response = client.get(
        "/games/new/sevens/score-sheet.pdf?sides=4&rule-going_out_bonus=500&rule-target_score=30000"
    )
    assert response.status_code == 200
    words = pdf_words(b"".join(response.streaming_content))
    assert (
        "Sevens. The game ends when a side reaches 30,000; the highest total wins. "
        "House rules: going-out bonus 500 (the rule set's: 200); "
        "target score 30,000 (the rule set's: 50,000)."
    ) in words
    assert "Round 1 Side 1 Side 2 Side 3 Side 4 Opening meld 50 50 50 50" in words


@pytest.mark.parametrize(
    "url, message",
    [
        (
            "/games/new/sevens/score-sheet.pdf?sides=9",
            "sides: '9' columns cannot be printed for Sevens; give a whole number from 2 to 6.",
        ),
        (
            "/games/new/baskets/score-sheet.pdf?sides=3",
            "sides: '3' columns cannot be printed for Baskets; give 2.",
        ),
        (
            "/games/new/baskets/score-sheet.pdf?rule-going_out_bonus=lots&rule-target_score=-5",
            "rule-going_out_bonus: The going-out bonus must be a whole number from 0 to "
            '1,000,000, not "lots".\nrule-target_score: The target score must be a whole number '
            "from 1 to 100,000,000 or left empty, not −5.",
        ),
        # House rules beyond what a table plays.
        (
            "/games/new/baskets/score-sheet.pdf?rule-rounds=50&sides=2",
            "rule-rounds: The number of rounds must be between 1 and 20.",
        ),
        (
            "/games/new/sevens/score-sheet.pdf?rule-target_score=1000000&rule-max_sides=8",
            "rule-max_sides: The most sides must be between 2 and 6.\n"
            "rule-target_score: The target score must be between 1 and 100,000.",
        ),
    ],
)
def test_a_blank_sheet_with_impossible_settings_is_a_400_naming_the_field(client, db, url, message):
    response = client.get(url)
    assert response.status_code == 400
    assert response.content.decode() == message


def test_a_blank_sheet_of_an_unknown_preset_is_404(client, db):
    assert client.get("/games/new/poker/score-sheet.pdf").status_code == 404


def test_a_game_with_no_rounds_prints_a_sheet_with_its_names(client, db):
    game = services.game_start(
        preset="ten-thousand",
        sides=[SideSpec("José"), SideSpec("Łukasz"), SideSpec("Søren")],
        first_dealer=1,
    )
    response = client.get(f"/g/{game.public_id}/score-card.pdf")
    day = timezone.localdate().isoformat()
    assert response["Content-Disposition"] == (
        f'attachment; filename="{day}-jose-vs-lukasz-vs-soren-score-card.pdf"'
    )
    words = pdf_words(b"".join(response.streaming_content))
    assert "José vs Łukasz vs Søren" in words
    assert "Round 1 · Łukasz deals José Łukasz Søren Opening meld 50 50 50" in words
    assert "Round 2 · Søren deals" in words


def test_the_card_of_a_game_at_round_59_prints_60_rounds_the_most_a_game_holds(client, db):
    game = services.game_start(preset="baskets", sides=[SideSpec("Ann"), SideSpec("Bob")])
    for number in range(1, 60):
        round_record(
            game=game, number=number, ended_by="stock_exhausted", entry=[{}, {"hand_points": 5}]
        )

    response = client.get(f"/g/{game.public_id}/score-card.pdf")

    assert response.status_code == 200
    words = pdf_words(b"".join(response.streaming_content))
    assert "Round 60 ·" in words
    assert "Round 61" not in words


def test_the_start_form_holds_house_rules_to_what_a_table_plays(client, db):
    response = client.post(
        "/games/new/four-rounds/",
        {
            "side0-player0": "Ann",
            "side0-player1": "Bob",
            "side1-player0": "Cy",
            "side1-player1": "Di",
            "first_dealer": "0-0",
            "rule-rounds": "50",
        },
    )
    assert response.status_code == 200
    assert "The number of rounds must be between 1 and 20." in response.content.decode()
