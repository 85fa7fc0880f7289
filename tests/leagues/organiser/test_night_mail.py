"""A closed club night's results mailed by the organiser to the members who play and have an
address: one message each, never twice by a double tap, and a refusal in words otherwise."""

import smtplib

import pytest
from django.core import mail

from leagues import services
from leagues.models import LeagueEvent
from leagues.services import night_mail
from tests.helpers.leagues import OCT, UserFactory, members, play, table_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_night(league, organiser):
    """Ann (ann@example.org) beat Bob (bob@example.org) at the night of 1 October; Cy has an
    account without an address and Di retired."""
    players = members(league, "Ann", "Bob")
    for name, email in (("Cy", ""), ("Di", "di@example.org")):
        account = UserFactory(username=name.lower(), email=email)
        services.member_add(league=league, name=name, account=account, user=None)
    for name, membership in (("Ann", "ann@example.org"), ("Bob", "bob@example.org")):
        services.player_update(
            league=league,
            player=players[name],
            name=name,
            account=UserFactory(username=name.lower(), email=membership),
            user=None,
        )
    di = league.memberships.get(player__name="Di").player
    services.member_retire(league=league, player=di, on=OCT[0], user=organiser)
    game = table_game(league, [[players["Ann"]], [players["Bob"]]], date=OCT[0])
    play(game, [900, 500])
    night = league.nights.get()
    assert night.closed_at is not None
    return night


def send(client, night):
    return client.post(f"/leagues/thursday/nights/{night.pk}/results/send/", follow=True)


def test_the_results_go_to_each_member_with_an_address_once(as_organiser, closed_night):
    page = as_organiser.get(f"/leagues/thursday/nights/{closed_night.pk}/results/").content
    assert "Send to 2 members by email" in page.decode()

    response = send(as_organiser, closed_night)

    assert [m.to for m in mail.outbox] == [["ann@example.org"], ["bob@example.org"]]
    message = mail.outbox[0]
    assert message.subject == "Thursday Club: the results of the club night of 1 October 2026"
    assert message.body.startswith(
        "The results of Thursday Club's club night of 1 October 2026.\n\n"
        "Table 1:\n  Ann: 900 (won)\n  Bob: 500\n  After 1 round\n"
    )
    assert "  1  Ann (new, +2)\n" in message.body
    assert f"http://testserver/leagues/thursday/nights/{closed_night.pk}/results/" in message.body
    assert "The results went to 2 members." in response.content.decode()
    event = LeagueEvent.objects.filter(kind=LeagueEvent.Kind.RESULTS_SENT).get()
    assert event.summary == "Results of the club night of 1 October 2026 sent to 2 members"
    assert "Sent to 2 members on" in response.content.decode()


def test_a_second_send_soon_after_is_refused_so_nobody_gets_it_twice(as_organiser, closed_night):
    send(as_organiser, closed_night)
    again = send(as_organiser, closed_night)

    assert len(mail.outbox) == 2
    assert (
        "The results of the club night of 1 October 2026 were sent to the members less than 10 "
        "minutes ago; they are not sent twice."
    ) in again.content.decode()


def test_an_open_night_or_nobody_with_an_address_is_refused_in_words(
    as_organiser, league, organiser
):
    players = members(league, "Ann", "Bob")
    game = table_game(league, [[players["Ann"]], [players["Bob"]]], date=OCT[0])

    response = send(as_organiser, game.night)

    assert (
        "Close the club night of 1 October 2026 first: its results are not final."
        in response.content.decode()
    )
    play(game, [900, 500])
    response = send(as_organiser, game.night)
    assert (
        "No member of Thursday Club has an email address: link members to their accounts on the "
        "members&#x27; page."
    ) in response.content.decode()
    assert mail.outbox == []


def test_a_mail_server_that_refuses_sends_nothing_and_records_nothing(
    as_organiser, closed_night, monkeypatch
):
    class Refusing:
        def send_messages(self, messages):
            raise smtplib.SMTPServerDisconnected("gone")

    monkeypatch.setattr(night_mail, "get_connection", Refusing)

    response = send(as_organiser, closed_night)

    assert "The mail server refused the results; try again later." in response.content.decode()
    assert not LeagueEvent.objects.filter(kind=LeagueEvent.Kind.RESULTS_SENT).exists()


def test_only_an_organiser_sends_and_only_by_post(client, as_organiser, closed_night):
    url = f"/leagues/thursday/nights/{closed_night.pk}/results/send/"

    assert as_organiser.get(url).status_code == 405
    assert as_organiser.post("/leagues/thursday/nights/999999/results/send/").status_code == 404
    client.logout()
    assert client.post(url).status_code == 302
    assert (
        "Send to"
        not in client.get(f"/leagues/thursday/nights/{closed_night.pk}/results/").content.decode()
    )
    assert mail.outbox == []
