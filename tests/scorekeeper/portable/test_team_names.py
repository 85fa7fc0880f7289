"""The game page's words agree with a team's name: "Ann & Carl need 50 to open", "Them need
9,900 more to win", "Ann & Carl lead by 200"; a player's name keeps the singular."""

from dataclasses import replace

from scorekeeper import engine
from scorekeeper.portable import fragments, phone


def cutthroat_game() -> dict:
    """Ann & Carl against Them (Bob and Dee), one round played: Ann & Carl 300, Them 100."""
    started = phone.start_game(
        "cutthroat",
        {
            "side0-player0": "Ann",
            "side0-player1": "Carl",
            "side1-player0": "Bob",
            "side1-player1": "Dee",
            "side1-name": "Them",
            "first_dealer": "0-0",
        },
        "g2",
    )
    first = {
        "number": 1,
        "ended_by": "stock_exhausted",
        "entry": [{"melded_points": 300}, {"melded_points": 100}],
        "key": None,
    }
    return {**started["snapshot"], "rounds": [first]}


def test_a_team_game_says_what_each_team_needs_in_the_plural():
    drawn = phone.game_view(cutthroat_game(), [])
    assert drawn["sides"] == ["Ann & Carl", "Them"]
    assert drawn["leader_text"] == "Ann & Carl lead by 200"
    assert drawn["to_win"] == [
        "Ann & Carl need 9,700 more to win (target 10,000)",
        "Them need 9,900 more to win (target 10,000)",
    ]
    assert drawn["state_html"] == (
        '<section class="next-round"><h2>Round 2</h2>'
        '<p class="dealer"><strong>Bob</strong> deals.</p>'
        '<ul class="meld-needs">'
        '<li><span>Ann &amp; Carl need</span> <strong class="meld">50</strong> '
        "<span>to open</span></li>\n"
        '<li><span>Them need</span> <strong class="meld">50</strong> <span>to open</span></li>'
        "</ul>"
        '<ul class="to-win"><li>Ann &amp; Carl need 9,700 more to win (target 10,000)</li>\n'
        "<li>Them need 9,900 more to win (target 10,000)</li></ul>"
        '<a class="button big" href="/g/g2/rounds/new/" data-needs-settled>Enter round 2</a>'
        "</section>"
    )


def test_the_next_round_says_a_team_needs_in_the_plural_and_a_player_in_the_singular():
    drawn = fragments.next_round_html(
        next_round=2,
        dealer="Ann",
        melds=[("Ann and Carl", 90), ("Chris", 50), ("Us", 120)],
        to_win=[],
        enter_url=None,
    )
    assert drawn == (
        '<section class="next-round"><h2>Round 2</h2>'
        '<p class="dealer"><strong>Ann</strong> deals.</p>'
        '<ul class="meld-needs">'
        '<li><span>Ann and Carl need</span> <strong class="meld">90</strong> '
        "<span>to open</span></li>\n"
        '<li><span>Chris needs</span> <strong class="meld">50</strong> <span>to open</span></li>\n'
        '<li><span>Us need</span> <strong class="meld">120</strong> <span>to open</span></li>'
        "</ul></section>"
    )


def test_a_team_at_the_target_has_reached_it_in_the_plural():
    rules = engine.RULESETS["baskets"]
    assert phone.to_win(rules, ["Us", "Ann"], [5_000, 5_000]) == [
        "Us have reached the target (5,000): the highest total wins",
        "Ann has reached the target (5,000): the highest total wins",
    ]
    assert phone.to_win(replace(rules, target_score=10_000), ["Ann & Carl"], [7_655]) == [
        "Ann & Carl need 2,345 more to win (target 10,000)"
    ]


def test_who_leads_agrees_with_the_leaders_name():
    assert phone.standing(
        ["Us", "Them"], [900, 100], 2, finished=False, winner=None, tie=False
    ) == ("Us lead by 800")
    assert phone.standing(
        ["Ann", "Bob"], [900, 100], 2, finished=False, winner=None, tie=False
    ) == ("Ann leads by 800")
    assert phone.standing(
        ["Ann & Carl", "Them"], [100, 100], 2, finished=False, winner=None, tie=False
    ) == ("Ann & Carl and Them level")


def test_the_winner_of_a_team_game_wins_in_the_plural_and_a_player_in_the_singular():
    assert fragments.winner_text("Ann", "player") == "Ann wins!"
    assert fragments.winner_text("Us", "player") == "Us win!"
    assert fragments.winner_text("Ann & Carl", "team") == "Ann & Carl win!"
    assert fragments.winner_text("Spades", "team") == "Spades win!"
