"""A league game's score card names its league, season and club night, and its date."""

from leagues import services
from tests.helpers.leagues import members, play, table_game
from tests.helpers.pdfs import pdf_words


def test_a_league_games_card_names_its_league_season_night_and_table(client, league):
    people = members(league, "José", "Zoë", "Łukasz", "Søren")
    league_game = table_game(
        league, [[people["José"], people["Zoë"]], [people["Łukasz"], people["Søren"]]]
    )
    play(league_game, [900, 600])
    game = league_game.game

    response = client.get(f"/g/{game.public_id}/score-card.pdf")

    day = league_game.date
    stem = f"{day.isoformat()}-jose-zoe-vs-lukasz-soren-score-card"
    assert response["Content-Disposition"] == f'attachment; filename="{stem}.pdf"'
    words = pdf_words(b"".join(response.streaming_content))
    when = f"{day.day} {day:%B %Y}"
    assert (
        f"Date: {when} · League: Thursday Club · Season: Autumn 2026 · "
        f"Club night: {when}, table {league_game.table}" in words
    )
    assert "Winner: José & Zoë with 900. Final totals: José & Zoë 900, Łukasz & Søren 600." in words
    assert (
        "Ten Thousand. The game ends after round 1; the highest total wins. House rules: "
        "no target score (the rule set's: 10,000); 1 round (the rule set's: none)."
    ) in words


def test_a_voided_league_game_says_so_on_its_card(client, league, organiser):
    people = members(league, "Ann", "Bob")
    league_game = table_game(league, [[people["Ann"]], [people["Bob"]]])
    play(league_game, [500, 300])
    services.game_void(league_game=league_game, reason="Wrong rules dealt", user=organiser)

    response = client.get(f"/g/{league_game.game.public_id}/score-card.pdf")

    assert "Voided: Wrong rules dealt" in pdf_words(b"".join(response.streaming_content))
