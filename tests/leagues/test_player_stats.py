"""A player's page and its selectors: results, rule sets, rating over time, card figures."""

import datetime
import re

import pytest
from django.template.defaultfilters import floatformat

from leagues import player_stats, services
from leagues.models import League, Membership, Participation
from scorekeeper.games import services as scores
from scorekeeper.rounds.services import round_record
from tests.helpers.leagues import UserFactory, league_with, members, play, table_game
from tests.helpers.pages import body_rows, section, tables, text

LATER = datetime.date(2026, 10, 8)

# Two rounds whose card figures are known:
# round 1, Ann & Bob go out with 3 red, 1 black and 1 wild canasta and a red three (4,500);
#   Cat & Dan hold 85 in hand with 1 red canasta (615);
# round 2, the stock runs out: Ann & Bob 1 red canasta, 40 left in hand (760);
#   Cat & Dan 2 black canastas and 2 red threes (1,200).
# Totals: Ann & Bob 5,260, Cat & Dan 1,815.
ROUNDS = [
    (
        "going_out",
        [
            {
                "went_out": True,
                "canastas": {"natural": 3, "mixed": 1, "wild": 1},
                "melded_points": 1000,
                "red_threes": 1,
            },
            {"canastas": {"natural": 1}, "melded_points": 200, "hand_points": 85},
        ],
    ),
    (
        "stock_exhausted",
        [
            {"canastas": {"natural": 1}, "melded_points": 300, "hand_points": 40},
            {"canastas": {"mixed": 2}, "melded_points": 400, "red_threes": 2},
        ],
    ),
]


@pytest.fixture
def two_rounds(organiser):
    league = league_with(organiser, house_rules={"rounds": 2})
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    game = table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]])
    for number, (ended_by, entry) in enumerate(ROUNDS, start=1):
        round_record(game=game.game, number=number, ended_by=ended_by, entry=entry)
    return league, p, game


def figures(record) -> tuple:
    return (
        record.name,
        record.games,
        record.rounds,
        record.went_out,
        record.went_out_pct,
        [(c.label, c.count, c.per_round) for c in record.canastas],
        record.red_threes_label,
        record.red_threes_per_round,
        record.hand_label,
        record.hand_points_per_round,
    )


def test_card_figures_per_round(two_rounds):
    league, p, _ = two_rounds

    [ann] = player_stats.by_ruleset(league, p["Ann"].pk)
    [cat] = player_stats.by_ruleset(league, p["Cat"].pk)

    assert figures(ann) == (
        "Ten Thousand",
        1,
        2,
        1,
        50.0,
        [("Red canastas", 4, 2.0), ("Black canastas", 1, 0.5), ("Wild canastas", 1, 0.5)],
        "Red threes laid down",
        0.5,
        "Left in hand and foot",
        20.0,
    )
    assert figures(cat) == (
        "Ten Thousand",
        1,
        2,
        0,
        0.0,
        [("Red canastas", 1, 0.5), ("Black canastas", 2, 1.0)],
        "Red threes laid down",
        1.0,
        "Left in hand and foot",
        42.5,
    )


def test_the_player_page_shows_the_card_figures(client, two_rounds):
    league, p, _ = two_rounds

    page = text(client.get(f"/leagues/thursday/players/{p['Ann'].pk}/"))

    assert section(page, "By rule set", "Results") == (
        "Ten Thousand 1 counted game over 2 rounds, as a team. Win % 100 Average score 5,260 "
        "Went out 50% of rounds (1) Red canastas 2.00 a round (4) Black canastas 0.50 a round "
        "(1) Wild canastas 0.50 a round (1) Red threes laid down 0.50 a round (1) "
        "Left in hand and foot 20.0 points a round"
    )
    assert "At the table" not in page


@pytest.fixture
def two_rule_sets(two_rounds, organiser):
    """Ann's Ten Thousand game of `ROUNDS`, then a winter season of Baskets: one round in which
    Ann & Bob lay down a wicker and two plastic baskets and hold 35 (800 − 35 + 1,100 = 1,865),
    and Cat & Dan one plastic basket and hold 60 (400 − 60 + 300 = 640)."""
    league, p, _ = two_rounds
    services.league_update(league=league, user=organiser, preset="baskets", house_rules={})
    services.season_create(
        league=league,
        name="Winter",
        starts_on=datetime.date(2026, 12, 1),
        ends_on=datetime.date(2027, 2, 28),
        user=None,
    )
    game = table_game(
        league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]], date=datetime.date(2026, 12, 3)
    )
    round_record(
        game=game.game,
        number=1,
        ended_by="stock_exhausted",
        entry=[
            {"canastas": {"natural": 1, "mixed": 2}, "melded_points": 800, "hand_points": 35},
            {"canastas": {"mixed": 1}, "melded_points": 400, "hand_points": 60},
        ],
    )
    scores.game_end(game=game.game)
    return league, p


def test_each_rule_set_has_its_own_figures_in_its_own_words(client, two_rule_sets):
    league, p = two_rule_sets

    records = player_stats.by_ruleset(league, p["Ann"].pk)
    page = text(client.get(f"/leagues/thursday/players/{p['Ann'].pk}/"))

    assert [figures(record) for record in records] == [
        (
            "Baskets",
            1,
            1,
            0,
            0.0,
            [("Wicker baskets", 1, 1.0), ("Plastic baskets", 2, 2.0)],
            "",
            0.0,
            "Left in biscuits and buns",
            35.0,
        ),
        (
            "Ten Thousand",
            1,
            2,
            1,
            50.0,
            [("Red canastas", 4, 2.0), ("Black canastas", 1, 0.5), ("Wild canastas", 1, 0.5)],
            "Red threes laid down",
            0.5,
            "Left in hand and foot",
            20.0,
        ),
    ]
    assert section(page, "By rule set", "Results") == (
        "Baskets 1 counted game over 1 round, as a team. Win % 100 Average score 1,865 "
        "Went out 0% of rounds (0) Wicker baskets 1.00 a round (1) Plastic baskets 2.00 a "
        "round (2) Left in biscuits and buns 35.0 points a round "
        "Ten Thousand 1 counted game over 2 rounds, as a team. Win % 100 Average score 5,260 "
        "Went out 50% of rounds (1) Red canastas 2.00 a round (4) Black canastas 0.50 a round "
        "(1) Wild canastas 0.50 a round (1) Red threes laid down 0.50 a round (1) "
        "Left in hand and foot 20.0 points a round"
    )


def test_kinds_take_the_words_of_the_rule_set(organiser):
    league = league_with(organiser, preset="contract")

    rules = player_stats.engine.RULESETS["contract"]
    assert player_stats.kind_label(rules, "natural") == "Clean books"
    assert player_stats.kind_label(rules, "mixed") == "Dirty books"
    assert player_stats.kind_label(None, "odd_kind") == "Odd kind canastas"
    assert league.preset == "contract"


def test_results_history_with_a_voided_game(client, two_rounds):
    league, p, game = two_rounds
    later = table_game(league, [[p["Ann"], p["Cat"]], [p["Bob"], p["Dan"]]], date=LATER)
    for number, (ended_by, entry) in enumerate(ROUNDS, start=1):
        round_record(game=later.game, number=number, ended_by=ended_by, entry=entry)
    services.game_void(league_game=later, reason="Wrong deck", user=None)

    response = client.get(f"/leagues/thursday/players/{p['Ann'].pk}/")

    assert body_rows(response, 0) == [
        "8 Oct 2026 | with Cat v Bob & Dan | Voided 5,260–1,815",
        "1 Oct 2026 | with Bob v Cat & Dan | Win 5,260–1,815",
    ]
    page = response.content.decode()
    assert f'href="/g/{later.game.public_id}/"' in page
    assert f'href="/g/{game.game.public_id}/"' in page
    assert f'href="/leagues/thursday/nights/{later.night_id}/"' in page
    # The voided game counts nowhere: one counted game, two rounds.
    assert "1 counted game over 2 rounds" in text(response)
    assert player_stats.player_game_count(league, p["Ann"].pk) == 2
    [record] = player_stats.by_ruleset(league, p["Ann"].pk)
    assert (record.name, record.games, record.win_pct, record.avg_score) == (
        "Ten Thousand",
        1,
        100.0,
        5260.0,
    )


def test_an_unfinished_game_is_in_progress(client, two_rounds):
    league, p, _ = two_rounds
    later = table_game(league, [[p["Ann"], p["Cat"]], [p["Bob"], p["Dan"]]], date=LATER)
    round_record(game=later.game, number=1, ended_by=ROUNDS[1][0], entry=ROUNDS[1][1])

    rows = body_rows(client.get(f"/leagues/thursday/players/{p['Dan'].pk}/"), 0)

    assert rows[0] == "8 Oct 2026 | with Bob v Ann & Cat | In progress 1,200–760"
    assert rows[1] == "1 Oct 2026 | with Cat v Ann & Bob | Loss 1,815–5,260"


def test_the_history_is_capped_with_a_count_of_all(client, two_rounds, monkeypatch):
    league, p, _ = two_rounds
    later = table_game(league, [[p["Ann"], p["Cat"]], [p["Bob"], p["Dan"]]], date=LATER)
    monkeypatch.setattr(player_stats, "HISTORY_LIMIT", 1)

    response = client.get(f"/leagues/thursday/players/{p['Ann'].pk}/")

    assert len(body_rows(response, 0)) == 1
    assert body_rows(response, 0)[0].startswith("8 Oct 2026")
    assert "The latest 1 of 2 games." in text(response)
    assert later.pk


def test_win_percentage_and_average_by_rule_set(organiser):
    league = league_with(organiser)
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]]), [500, 300])
    play(table_game(league, [[p["Ann"], p["Cat"]], [p["Bob"], p["Dan"]]], date=LATER), [200, 200])
    # A later season under another rule set: its games are of another preset.
    services.league_update(league=league, user=organiser, preset="contract")
    services.season_create(
        league=league,
        name="Winter",
        starts_on=datetime.date(2026, 12, 1),
        ends_on=datetime.date(2027, 2, 28),
        user=None,
    )
    play(
        table_game(
            league, [[p["Ann"], p["Dan"]], [p["Bob"], p["Cat"]]], date=datetime.date(2026, 12, 3)
        ),
        [100, 700],
    )

    records = player_stats.by_ruleset(league, p["Ann"].pk)

    assert [(r.name, r.games, r.win_pct, r.avg_score) for r in records] == [
        ("Contract", 1, 0.0, 100.0),
        ("Ten Thousand", 2, 75.0, 350.0),
    ]


def test_rating_over_time(client, league):
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]]), [500, 300])
    play(table_game(league, [[p["Ann"], p["Cat"]], [p["Bob"], p["Dan"]]], date=LATER), [600, 200])

    history = player_stats.rating_history(league, p["Ann"].pk)
    response = client.get(f"/leagues/thursday/players/{p['Ann'].pk}/")

    after = Participation.objects.filter(player=p["Ann"]).order_by("league_game__ledger")
    assert history == [(pa.date, pa.mu_after - 3 * pa.sigma_after) for pa in after]
    assert [date for date, _ in history] == [datetime.date(2026, 10, 1), LATER]
    assert history[-1][1] == pytest.approx(Membership.objects.get(player=p["Ann"]).rating)
    page = response.content.decode()
    svg = re.search(r'<svg class="chart".*?</svg>', page, re.S).group(0)
    latest = floatformat(history[-1][1], 1)
    assert (
        'aria-label="Rating after each of 2 rated games, 1 Oct 2026 to 8 Oct 2026: '
        f"from 0 to {latest}, between 0.0 and {latest} points" in svg
    )
    # A point for the start at 0 and one per rated game.
    points = svg.split('<polyline class="series-0" points="')[1].split('"')[0].split()
    assert len(points) == 3
    # The dates under their games (the year under the first), not the points up the side (at
    # x 44), and the title over the points.
    assert re.findall(
        r'<text class="axis-label" x="(?!44")([\d.]+)" y="(\d+)"[^>]*>([^<]*)</text>', svg
    ) == [
        ("173.0", "190", "1 Oct"),
        ("173.0", "202", "2026"),
        ("298.0", "190", "8 Oct"),
    ]
    assert re.findall(r'<text class="axis-title"[^>]*>([^<]*)</text>', svg) == ["Rating points"]
    assert f"Rating {latest}" in text(response)


def test_partners_and_opponents(client, league):
    p = members(league, "Ann", "Bob", "Cat", "Dan")
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]]), [500, 300])
    play(table_game(league, [[p["Ann"], p["Bob"]], [p["Cat"], p["Dan"]]], date=LATER), [100, 300])

    response = client.get(f"/leagues/thursday/players/{p['Ann'].pk}/")

    found = tables(response)
    partners = [" | ".join(row) for row in found[1][1:]]
    opponents = [" | ".join(row) for row in found[2][1:]]
    assert partners == ["Bob | 2 | 50"]
    assert opponents == ["Cat | 2 | 1 | 0 | 1", "Dan | 2 | 1 | 0 | 1"]


def test_a_non_member_is_404(client, league, organiser):
    other = services.league_create(name="Friday", slug="friday", preset="baskets", user=organiser)
    zed = services.member_add(league=other, name="Zed", user=None).player

    assert client.get(f"/leagues/thursday/players/{zed.pk}/").status_code == 404
    assert client.get(f"/leagues/friday/players/{zed.pk}/").status_code == 200


def test_other_leagues_respect_visibility(client, league, organiser):
    ann = members(league, "Ann")["Ann"]
    public = services.league_create(name="Friday", slug="friday", preset="baskets", user=organiser)
    private = services.league_create(
        name="Secret", slug="secret", preset="baskets", user=organiser, visibility="private"
    )
    for each in (public, private):
        services.member_add(league=each, player=ann, user=None)

    page = client.get(f"/leagues/thursday/players/{ann.pk}/").content.decode()

    assert f'href="/leagues/friday/players/{ann.pk}/"' in page
    assert "Secret" not in page
    client.force_login(organiser)
    page = client.get(f"/leagues/thursday/players/{ann.pk}/").content.decode()
    assert f'href="/leagues/secret/players/{ann.pk}/"' in page


def test_a_member_of_a_private_league_sees_a_player(client, organiser):
    league = league_with(organiser, visibility=League.Visibility.PRIVATE)
    account = UserFactory()
    ann = services.member_add(league=league, name="Ann", account=account, user=None).player

    assert client.get(f"/leagues/thursday/players/{ann.pk}/").status_code == 404
    client.force_login(account)
    response = client.get(f"/leagues/thursday/players/{ann.pk}/")
    assert response.status_code == 200
    assert "No games yet." in text(response)
    assert "No counted games yet." in text(response)
