"""A club night's scores confirmed at the table: a game counts in the standings and the ratings
once every round is confirmed, the night waits for it to close, the organiser confirms what is
left (in the audit), and the night page and projector say what waits."""

import re

import pytest

from leagues import services
from leagues.models import LeagueEvent, Membership
from leagues.selectors import standings
from scorekeeper.rounds.confirmation import round_confirm, round_dispute
from tests.helpers.leagues import confirm_rounds, league_with, members, play_rounds, table_game


@pytest.fixture
def league(organiser):
    # As a league is created: its club nights' rounds are confirmed at the table.
    return league_with(organiser, confirm_rounds=True)


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


def played(league) -> list[tuple[str, int, int]]:
    return [(row.name, row.games, row.league_points) for row in standings(league)]


def test_a_game_counts_only_once_the_other_side_confirms_its_round(league):
    p = members(league, "Ann", "Bob")
    table = table_game(league, [[p["Ann"]], [p["Bob"]]])
    play_rounds(table, [500, 100], confirmed=False)
    waiting = played(league)
    night = table.night
    night.refresh_from_db()
    open_while_waiting = night.closed_at is None

    round_confirm(game=table.game, number=1, version=None, phone="bob-phone")
    night.refresh_from_db()

    assert table.game.confirm_rounds
    assert waiting == []
    assert open_while_waiting
    assert played(league) == [("Ann", 1, 2), ("Bob", 1, 0)]
    assert night.closed_at is not None
    assert Membership.objects.get(player=p["Ann"]).rated_games == 1


def test_a_league_that_turns_confirmation_off_counts_a_game_at_once(organiser):
    league = league_with(organiser, confirm_rounds=False)
    p = members(league, "Ann", "Bob")
    table = table_game(league, [[p["Ann"]], [p["Bob"]]])

    play_rounds(table, [500, 100], confirmed=False)

    assert not table.game.confirm_rounds
    assert played(league) == [("Ann", 1, 2), ("Bob", 1, 0)]


def test_a_disputed_round_is_flagged_on_the_night_page_and_the_organiser_confirms_it(
    client, league, organiser
):
    p = members(league, "Ann", "Bob", "Cy", "Di")
    table = table_game(league, [[p["Ann"], p["Bob"]], [p["Cy"], p["Di"]]])
    play_rounds(table, [500, 100], confirmed=False)
    round_dispute(game=table.game, number=1, version=None, phone="cy-phone", reason="Short by 100")
    client.force_login(organiser)
    night_url = f"/leagues/thursday/nights/{table.night_id}/"
    flagged = text(client.get(night_url))
    close_refused = client.post(f"{night_url}close/")

    confirmed = client.post(f"/leagues/thursday/games/{table.pk}/confirm/")
    after = text(client.get(confirmed["Location"]))
    again = client.post(f"/leagues/thursday/games/{table.pk}/confirm/")
    told = text(client.get(again["Location"]))

    assert "Table 1 finished disputed" in flagged
    assert (
        "1 round disputed. The other side says a round is wrong: read why on the game page, "
        "then correct it there or confirm it here." in flagged
    )
    assert "Confirm every round of table 1" in flagged
    assert (
        "The night cannot close while table 1 is not finished and confirmed. This table is not "
        "finished. A night closes once every table has finished with its rounds confirmed or its "
        "game is voided" in text(close_refused)
    )
    assert "The game is over; 1 round disputed." in text(close_refused)
    assert confirmed["Location"] == night_url
    assert (
        "Round 1 of Ann &amp; Bob vs Cy &amp; Di (table 1, 1 October 2026) confirmed "
        "by you: it counts in the standings now." in after
    )
    assert "disputed" not in after
    assert played(league)[:2] == [("Ann", 1, 2), ("Bob", 1, 2)]
    assert "Every round of this game is confirmed already." in told
    event = league.events.filter(kind=LeagueEvent.Kind.ROUNDS_CONFIRMED).get()
    assert event.who == "olive"
    assert event.summary == (
        "Round 1 of game Ann & Bob vs Cy & Di (table 1) of 1 October 2026 confirmed "
        "by the organiser"
    )
    assert table.game.rounds.get().checked_by == "olive (organiser)"


def test_the_projector_says_which_finished_tables_wait_for_confirmation(client, league):
    p = members(league, "Ann", "Bob", "Cy", "Di")
    first = table_game(league, [[p["Ann"]], [p["Bob"]]])
    second = table_game(league, [[p["Cy"]], [p["Di"]]])
    play_rounds(first, [500, 100], confirmed=False)
    play_rounds(second, [300, 200], confirmed=False)
    round_dispute(game=second.game, number=1, version=None, phone="di", reason="Wrong")

    board = text(client.get(f"/leagues/thursday/nights/{first.night_id}/projector/"))
    confirm_rounds(first)
    later = text(client.get(f"/leagues/thursday/nights/{first.night_id}/projector/"))

    assert "Table 1 1 round · to confirm" in board
    assert "Table 2 1 round · disputed" in board
    assert "Table 1 1 round · finished" in later


def test_the_league_form_turns_confirmation_off_and_the_audit_says_so(client, league, organiser):
    client.force_login(organiser)
    page = client.get("/leagues/thursday/edit/").content.decode()
    form = {
        **{k: v for k, v in _form_of(page).items()},
        "confirm_rounds": "off",
        "action": "save",
    }

    saved = client.post("/leagues/thursday/edit/", form)
    league.refresh_from_db()

    assert 'name="confirm_rounds" value="on"' in page
    assert saved.status_code == 302
    assert league.confirm_rounds is False
    changed = league.events.filter(kind=LeagueEvent.Kind.LEAGUE_CHANGED).latest("at")
    assert changed.summary == "Settings changed: rounds confirmed at the table"
    assert "Count as soon as they are saved" in text(client.get("/leagues/thursday/"))


def _form_of(html: str) -> dict[str, str]:
    """The form's fields as the page fills them (text inputs, checked radios, selects)."""
    values = {}
    for name, value in re.findall(
        r'<input type="(?:text|number)" name="([^"]+)" value="([^"]*)"', html
    ):
        values[name] = value
    for tag in re.findall(r"<input[^>]+checked[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag).group(1)
        values[name] = re.search(r'value="([^"]*)"', tag).group(1)
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        values[name] = chosen.group(1) if chosen else ""
    return values


def test_a_night_started_with_confirmation_keeps_it_when_the_league_changes_later(league):
    p = members(league, "Ann", "Bob")
    table = table_game(league, [[p["Ann"]], [p["Bob"]]])

    services.league_update(league=league, user=None, confirm_rounds=False)
    play_rounds(table, [500, 100], confirmed=False)

    assert played(league) == []
