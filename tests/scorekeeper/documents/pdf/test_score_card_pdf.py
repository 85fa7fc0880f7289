"""Score sheets from plain data: the text read back out of the PDF, as a reader would find it."""

import dataclasses

import pytest

from scorekeeper import engine
from scorekeeper.documents.pdf import base
from scorekeeper.documents.pdf.base import PdfError, TooManyPages
from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard, build_score_card
from tests.helpers.pdfs import pdf_pages, pdf_words
from tests.helpers.score_cards import NAMES, ROUNDS, SIDES, four_round_card


def test_a_card_in_progress_prints_each_line_each_total_and_the_next_meld():
    words = pdf_words(build_score_card(four_round_card(ROUNDS)))
    assert "José & Zoë vs Łukasz & Søren" in words
    assert "Date: 21 November 2026 · League: Riverside Card Club" in words
    assert "Players: José & Zoë; Łukasz & Søren" in words
    # The scoreboard: each round's points and the running total after it.
    assert "Round José & Zoë Łukasz & Søren 1 3,200 → 3,200 625 → 625 2 780 → 3,980" in words
    assert "2,070 → 2,695 Total 3,980 2,695" in words
    assert (
        "In progress after round 2: José & Zoë 3,980, Łukasz & Søren 2,695. "
        "Round 3 opening meld: José & Zoë 120, Łukasz & Søren 120." in words
    )
    # Round 1's block, line by line, as the game page's breakdown has it.
    assert (
        "Round 1 · José deals José & Zoë Łukasz & Søren Opening meld 60 60 Exact cut × 100 "
        "1 = 100 Going out 100 Cards left in hand and foot −85 Red threes in hand × −100 "
        "1 = −100 Red threes × 100 1 = 100 Natural canastas × 500 2 = 1,000 1 = 500 "
        "Mixed canastas × 300 3 = 900 Cards melded 1,000 310 Round total 3,200 625 "
        "Running total 3,200 625" in words
    )
    assert "Round 2 · Łukasz deals" in words
    assert "Going out stock ran out stock ran out" in words
    assert "Round total 780 2,070 Running total 3,980 2,695" in words
    # Rounds 3 and 4 are still to play: their meld is fixed by the round, the rest is blank.
    assert (
        "Round 3 · Zoë deals José & Zoë Łukasz & Søren Opening meld 120 120 Exact cut × 100 "
        "Going out Cards left in hand and foot" in words
    )
    assert "Round 4 · Søren deals José & Zoë Łukasz & Søren Opening meld 150 150" in words
    assert "Signed for José & Zoë Signed for Łukasz & Søren" in words
    assert "Winner" not in words


def test_a_finished_card_names_the_winner_and_the_final_totals():
    last_two = [
        {"ended_by": "stock_exhausted", "sides": [{"name": NAMES[0]}, {"name": NAMES[1]}]},
        {
            "sides": [
                {"name": NAMES[0], "hand_points": 50},
                {
                    "name": NAMES[1],
                    "went_out": True,
                    "canastas": {"natural": 2, "mixed": 3},
                    "melded_points": 600,
                },
            ]
        },
    ]
    words = pdf_words(build_score_card(four_round_card([*ROUNDS, *last_two])))
    assert (
        "Winner: Łukasz & Søren with 5,295. Final totals: José & Zoë 3,930, Łukasz & Søren 5,295."
        in words
    )
    assert "Round total −50 2,600 Running total 3,930 5,295" in words
    assert "4 −50 → 3,930 2,600 → 5,295 Total 3,930 5,295" in words
    assert "In progress" not in words


def test_a_tie_is_printed_as_a_tie():
    rules = engine.get_ruleset("baskets")
    rounds = [{"ended_by": "stock_exhausted", "sides": [{"name": "Ann"}, {"name": "Bob"}]}]
    status = engine.game_status(rules, ["Ann", "Bob"], rounds, finished=True)
    words = pdf_words(
        build_score_card(ScoreCard(rules, (CardSide("Ann"), CardSide("Bob")), status))
    )
    assert "Tie after round 1: Ann 0, Bob 0." in words
    assert "Winner" not in words
    # A finished game to a target prints only the rounds played, and no note to carry on.
    assert "Round 2" not in words
    assert "new sheet" not in words


def test_a_meld_that_moves_with_the_score_is_printed_per_side_from_the_totals_before_the_round():
    rules = engine.get_ruleset("ten-thousand")
    rounds = [
        {
            "sides": [
                {
                    "name": "Ann",
                    "went_out": True,
                    "canastas": {"natural": 3, "mixed": 1, "wild": 1},
                    "melded_points": 1200,
                },
                {
                    "name": "Bob",
                    "canastas": {"natural": 1},
                    "melded_points": 300,
                    "hand_points": 40,
                },
            ]
        }
    ]
    status = engine.game_status(rules, ["Ann", "Bob"], rounds)
    card = ScoreCard(rules, (CardSide("Ann"), CardSide("Bob")), status)
    words = pdf_words(build_score_card(card))
    assert (
        "Opening meld by your total before the round: below 1,500: 50; 1,500 to 2,995: 90; "
        "3,000 to 4,995: 120; 5,000 and over: 150." in words
    )
    assert "Round 1 Ann Bob Opening meld 50 50" in words
    assert "Round total 4,600 760 Running total 4,600 760" in words
    assert "Round 2 Ann Bob Opening meld 120 50" in words
    # Round 3 depends on round 2, not yet played: left blank to fill in.
    assert "Round 3 Ann Bob Opening meld Going out" in words
    assert "Game not over after round 3? Carry the running totals to a new sheet" in words


def test_a_blank_sheet_for_a_target_game_has_eight_rounds_and_says_how_to_carry_on():
    rules = engine.get_ruleset("baskets")
    card = ScoreCard(rules, (CardSide("Player 1"), CardSide("Player 2")), named=False)
    words = pdf_words(build_score_card(card, paper="letter"))
    assert words.count("Opening meld") == 9  # the bands line, then one row a round
    assert "Baskets: score sheet" in words
    assert "The game ends when a player reaches 5,000; the highest total wins." in words
    assert "below 0: 15; 0 to 1,495: 50; 1,500 to 2,995: 70; 3,000 and over: 90." in words
    assert "Write each player's name at the top of its column." in words
    # Every player starts at 0, so round 1's meld is known; later rounds depend on the score.
    assert "Round 1 Player 1 Player 2 Opening meld 50 50 Going out" in words
    assert "Round 2 Player 1 Player 2 Opening meld Going out" in words
    assert (
        "Going out Cards left in biscuits and buns Buns never picked up Wicker baskets × 500 "
        "Plastic baskets × 300 Cards melded Round total Running total" in words
    )
    assert "Round 8 Player 1" in words and "Round 9" not in words
    assert "number its rounds on from 9." in words


def test_a_blank_sheet_prints_house_rule_numbers():
    rules = engine.get_ruleset("four-rounds").with_overrides(
        {"cut_bonus": 200, "canasta_bonus": {"natural": 600}, "opening_meld": [50, 90, 120, 150]}
    )
    card = ScoreCard(rules, SIDES, house_rules=True)
    words = pdf_words(build_score_card(card))
    assert (
        "Four Rounds. The game ends after round 4; the highest total wins. House rules: natural "
        "canasta bonus 600 (the rule set's: 500); exact-cut bonus 200 (the rule set's: 100); "
        "opening meld 50 in round 1, 90 in round 2, 120 in round 3, "
        "150 from round 4 (the rule set's: 60 in round 1, 90 in round 2, 120 in round 3, "
        "150 from round 4)."
    ) in words
    assert "round 1 needs 50, round 2 needs 90, round 3 needs 120, round 4 needs 150." in words
    assert "Exact cut × 200" in words and "Natural canastas × 600" in words
    assert "Round 4 José & Zoë Łukasz & Søren Opening meld 150 150" in words
    assert "Round 5" not in words


def test_names_in_any_latin_script_are_selectable_text():
    names = ("José Zoë Łukasz Søren", "Ærøskøbing Ðorđe Şükrü Ñandú")
    rules = engine.get_ruleset("baskets")
    data = build_score_card(ScoreCard(rules, (CardSide(names[0]), CardSide(names[1]))))
    assert f"{names[0]} vs {names[1]}" in pdf_pages(data)[0]


def test_a_link_is_printed_under_its_qr_code():
    rules = engine.get_ruleset("baskets")
    card = ScoreCard(
        rules,
        (CardSide("Ann"), CardSide("Bob")),
        link="https://cards.example/g/abc/join/xyz/",
        link_caption="Scan to score this table on a phone",
    )
    data = build_score_card(card)
    words = pdf_words(data)
    assert "Scan to score this table on a phone" in words
    assert "https://cards.example/g/abc/join/xyz/" in words
    assert b"/Subtype /Image" not in data  # the code is drawn in vectors, sharp at any size


def test_the_same_card_gives_the_same_bytes_and_the_paper_sets_the_page_size():
    card = four_round_card(ROUNDS)
    a4 = build_score_card(card, paper="a4")
    assert build_score_card(card, paper="a4") == a4
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in a4
    assert b"/MediaBox [ 0 0 612 792 ]" in build_score_card(card, paper="letter")


def test_an_unknown_paper_is_refused():
    with pytest.raises(PdfError) as error:
        build_score_card(four_round_card(ROUNDS), paper="a3")
    assert str(error.value) == "Paper must be one of a4, letter, not 'a3'."


def test_a_sheet_of_1000_rounds_is_refused_before_any_layout():
    # The engine refuses such rules; a card is plain data, so the builder checks for itself.
    rules = dataclasses.replace(engine.get_ruleset("four-rounds"), rounds=1000)
    card = ScoreCard(rules=rules, sides=(CardSide("Us"), CardSide("Them")))
    with pytest.raises(TooManyPages) as caught:
        build_score_card(card)
    assert str(caught.value) == "A score sheet prints at most 60 rounds; this one would have 1,000."


def test_no_pdf_runs_past_the_most_pages(monkeypatch):
    monkeypatch.setattr(base, "PAGES_MAX", 3)
    rules = engine.get_ruleset("four-rounds").with_overrides({"rounds": 20})
    sides = tuple(CardSide(f"Side {n}") for n in range(6))
    with pytest.raises(TooManyPages) as caught:
        build_score_card(ScoreCard(rules=rules, sides=sides))
    assert str(caught.value) == "This PDF would run past 3 pages, the most we print in one file."
