"""What a side still needs to win, as the game page says it."""

import re
from dataclasses import replace

from scorekeeper import engine
from scorekeeper.games import services
from scorekeeper.games.presenters import to_win
from scorekeeper.rounds.services import round_record
from tests.helpers.games import side_specs

BASKETS = engine.RULESETS["baskets"]  # first to 5,000


def test_each_side_is_told_the_points_it_still_needs_with_thousands_separators():
    rules = replace(BASKETS, target_score=10_000)

    assert to_win(rules, ["Ann", "Bob & Cy"], [7_655, -1_250]) == [
        "Ann needs 2,345 more to win (target 10,000)",
        "Bob & Cy need 11,250 more to win (target 10,000)",
    ]


def test_a_side_at_the_target_while_the_leaders_are_tied_is_told_it_has_reached_it():
    assert to_win(BASKETS, ["Ann", "Bob"], [5_000, 5_000]) == [
        "Ann has reached the target (5,000): the highest total wins",
        "Bob has reached the target (5,000): the highest total wins",
    ]


def test_a_game_of_so_many_rounds_has_no_target_to_tell():
    assert to_win(engine.RULESETS["four-rounds"], ["Ann", "Bob"], [100, 200]) == []


def to_win_lines(html: str) -> list[str]:
    found = re.search(r'<ul class="to-win">(.*?)</ul>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def test_the_game_page_tells_each_side_what_it_needs_after_every_round(client, game_with_rounds):
    game = game_with_rounds(0)
    url = f"/g/{game.public_id}/"
    before = to_win_lines(client.get(url).content.decode())

    # Each round: Ann lays down 50; Bob lays down 40 and holds 15 (the stock ran out).
    for number in (1, 2):
        round_record(
            game=game,
            number=number,
            ended_by="stock_exhausted",
            entry=[{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}],
        )
    after = to_win_lines(client.get(url).content.decode())

    assert before == [
        "Ann needs 5,000 more to win (target 5,000)",
        "Bob needs 5,000 more to win (target 5,000)",
    ]
    assert after == [
        "Ann needs 4,900 more to win (target 5,000)",
        "Bob needs 4,950 more to win (target 5,000)",
    ]


def test_a_finished_game_and_a_game_of_rounds_say_nothing_of_a_target(client, db):
    rounds_game = services.game_start(preset="four-rounds", sides=side_specs("four-rounds"))
    finished = services.game_start(preset="baskets", sides=side_specs("baskets"))
    round_record(
        game=finished,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 500}, {"melded_points": 40}],
    )
    services.game_end(game=finished)

    assert to_win_lines(client.get(f"/g/{rounds_game.public_id}/").content.decode()) == []
    html = client.get(f"/g/{finished.public_id}/").content.decode()
    assert "Ann wins!" in html
    assert to_win_lines(html) == []
