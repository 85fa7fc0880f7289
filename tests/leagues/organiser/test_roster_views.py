"""The roster import pages: a pasted list or a CSV file is previewed row by row with nothing
added; the confirm adds the rows to add in one go, once, and every refusal says what to do."""

import html
import re
from urllib.parse import urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leagues import services
from leagues.models import League, LeagueEvent, Membership, Player
from tests.helpers.leagues import UserFactory, members
from tests.helpers.pages import assert_beside
from tests.helpers.races import arrives_first

pytestmark = pytest.mark.django_db

URL = "/leagues/thursday/members/import/"


def preview_rows(page: str) -> list[str]:
    """Each row of the preview as its text: row number, name, account, outcome, message."""
    rows = re.findall(r'<tr class="roster-\w+" id="row-\d+">(.*?)</tr>', page, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", row)).split()) for row in rows]


def summary(page: str) -> str:
    return html.unescape(re.search(r'<p class="roster-summary">(.*?)</p>', page).group(1))


def confirm_form(page: str, **choices: str) -> dict:
    """The preview's confirm form as posted, with `near_<line>="add"` choices."""
    data = {
        name: html.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page)
    }
    data.pop("csrfmiddlewaretoken", None)
    data["action"] = "confirm"
    data.update({name.replace("_", "-"): value for name, value in choices.items()})
    return data


def names_of(league: League) -> list[str]:
    return list(
        Membership.objects.filter(league=league)
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )


def upload(data: bytes, name: str = "members.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/csv")


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def club(league):
    """Thursday with Ann Smith and Bob (linked to the account bob); accounts cy and di."""
    members(league, "Ann Smith")
    services.member_add(league=league, name="Bob", account=UserFactory(username="bob"), user=None)
    UserFactory(username="cy")
    UserFactory(username="di")
    return league


PASTED = "Anne Smith\nBob\nCy\tcy\n\nCy\nZoë\nzoe\nDee\tbob\nEve  Long\n"


def test_the_members_page_links_to_add_several_players(as_organiser, league):
    page = as_organiser.get("/leagues/thursday/members/").content.decode()

    assert f'<a class="button secondary" href="{URL}">Add several players</a>' in page


def test_a_pasted_list_is_previewed_row_by_row_and_nothing_is_added(as_organiser, club):
    events = LeagueEvent.objects.count()

    response = as_organiser.post(URL, {"action": "preview", "names": PASTED})

    assert response.status_code == 200
    page = response.content.decode()
    assert summary(page) == (
        "8 rows: 3 will be added, 2 to check, 1 already a member, 1 duplicate and 1 refused."
    )
    assert preview_rows(page) == [
        "1 Anne Smith Check Looks like Ann Smith, already a member. Row 1, Anne Smith "
        "Add anyway Skip",
        "2 Bob Already a member Bob is already a member: not added again.",
        "3 Cy account cy Will be added Linked to the account “cy”.",
        "5 Cy Duplicate The same name as row 3: not added twice.",
        "6 Zoë Will be added",
        "7 zoe Check Looks like Zoë on row 6. Row 7, zoe Add anyway Skip",
        "8 Dee account bob Refused The account “bob” is already linked to Bob, a member.",
        "9 Eve Long Will be added",
    ]
    # The row numbers jump from 3 to 5: the preview says why.
    assert '<p class="hint">Line 4 is empty, skipped.</p>' in page
    # Rows to check are skipped unless the organiser says otherwise.
    assert '<input type="radio" name="near-1" value="skip" checked>' in page
    assert '<input type="radio" name="near-7" value="skip" checked>' in page
    assert names_of(club) == ["Ann Smith", "Bob"]
    assert LeagueEvent.objects.count() == events


BAD_FILE = (
    "name,username\r\n"
    "Fay,\r\n"
    "Gus,gus,Tuesdays\r\n"
    ",di\r\n"
    "Zoë\r\n"  # in Latin-1 below: not UTF-8
    f"{'Hal' * 34}\r\n"
    "Ivy,ivan\r\n"
    "Jo,bob\r\n"
    "Kit,di\r\n"
).encode()
BAD_FILE = BAD_FILE.replace("Zoë".encode(), "Zoë".encode("latin-1"))


def test_a_file_with_bad_rows_names_each_refused_row_and_adds_nothing(as_organiser, club):
    response = as_organiser.post(URL, {"action": "preview", "file": upload(BAD_FILE)})

    page = response.content.decode()
    assert response.status_code == 200
    assert "Row 1 is a header row and is skipped." in page
    assert summary(page) == "8 rows: 2 will be added and 6 refused."
    assert preview_rows(page) == [
        "2 Fay Will be added",
        "3 Gus account gus Refused 3 columns: a row has a name and, optionally, the username "
        "of the player's account.",
        "4 no name account di Refused No name: each row starts with the player's name.",
        "5 no name Refused This row is not UTF-8 text. In your spreadsheet, save the file as "
        "“CSV UTF-8” and upload it again.",
        f"6 {'Hal' * 33}H… Refused The name is 102 characters long; a name may have at most 100.",
        "7 Ivy account ivan Refused No account is called “ivan”; check the spelling, or leave "
        "the username out.",
        "8 Jo account bob Refused The account “bob” is already linked to Bob, a member.",
        "9 Kit account di Will be added Linked to the account “di”.",
    ]
    assert names_of(club) == ["Ann Smith", "Bob"]

    added = as_organiser.post(URL, confirm_form(page))

    assert added["Location"] == "/leagues/thursday/members/"
    assert names_of(club) == ["Ann Smith", "Bob", "Fay", "Kit"]
    assert Membership.objects.get(league=club, player__name="Kit").user.username == "di"


def test_confirming_adds_the_rows_to_add_in_one_go_with_one_audit_event(
    as_organiser, club, organiser
):
    page = as_organiser.post(URL, {"action": "preview", "names": PASTED}).content.decode()
    players = Player.objects.count()

    # Anne Smith is someone else than Ann Smith; zoe is Zoë typed twice.
    response = as_organiser.post(URL, confirm_form(page, near_1="add", near_7="skip"))

    assert response.status_code == 302
    assert response["Location"] == "/leagues/thursday/members/"
    assert names_of(club) == ["Ann Smith", "Anne Smith", "Bob", "Cy", "Eve Long", "Zoë"]
    assert Player.objects.count() == players + 4
    assert Membership.objects.get(league=club, player__name="Cy").user.username == "cy"
    event = LeagueEvent.objects.filter(kind=LeagueEvent.Kind.ROSTER_IMPORTED).get()
    added = {m.player.name: m.player_id for m in Membership.objects.filter(league=club)}
    assert (event.league, event.user, event.who) == (club, organiser, "olive")
    assert event.summary == "Roster imported: 4 players added (Anne Smith, Cy, Zoë and Eve Long)"
    assert event.before == {"members": 2}
    assert event.after == {
        "members": 6,
        "added": "Anne Smith, Cy (account cy), Zoë and Eve Long",
        "players": [added[name] for name in ("Anne Smith", "Cy", "Zoë", "Eve Long")],
    }
    shown = as_organiser.get(response["Location"]).content.decode()
    assert "4 players added to Thursday Club." in shown
    audit = as_organiser.get("/leagues/thursday/audit/").content.decode()
    assert "Roster imported: 4 players added (Anne Smith, Cy, Zoë and Eve Long)" in audit


def test_a_double_submit_adds_nobody_twice(as_organiser, club):
    page = as_organiser.post(URL, {"action": "preview", "names": PASTED}).content.decode()
    confirm = confirm_form(page, near_1="add")
    as_organiser.post(URL, confirm)
    after_first = (Player.objects.count(), LeagueEvent.objects.count(), names_of(club))

    again = as_organiser.post(URL, confirm)

    assert again["Location"] == "/leagues/thursday/members/"
    assert (Player.objects.count(), LeagueEvent.objects.count(), names_of(club)) == after_first
    shown = as_organiser.get(again["Location"]).content.decode()
    assert (
        "Nobody was added to Thursday Club. Anne Smith, Cy, Zoë and Eve Long were already "
        "members." in html.unescape(shown)
    )


def test_a_player_added_by_someone_else_meanwhile_is_not_added_again(as_organiser, club):
    page = as_organiser.post(URL, {"action": "preview", "names": "Cy\nDi"}).content.decode()
    services.member_add(league=club, name="Cy", user=None)

    response = as_organiser.post(URL, confirm_form(page))

    assert names_of(club) == ["Ann Smith", "Bob", "Cy", "Di"]
    assert Player.objects.filter(name="Cy").count() == 1
    shown = as_organiser.get(response["Location"]).content.decode()
    assert "1 player added to Thursday Club. Cy was already a member." in shown


def test_a_list_that_changed_meaning_since_the_preview_is_shown_again(as_organiser, club):
    page = as_organiser.post(URL, {"action": "preview", "names": "Dan Brown\nDi"}).content.decode()
    # Another organiser adds Dann Brown: row 1 now needs a decision it did not have.
    services.member_add(league=club, name="Dann Brown", user=None)
    events = LeagueEvent.objects.count()

    response = as_organiser.post(URL, confirm_form(page))

    page = response.content.decode()
    assert response.status_code == 200
    assert (
        '<p class="field-error" role="alert">The members of Thursday Club changed since this '
        "list was checked, so nothing was added. Check the list again below.</p>" in page
    )
    assert preview_rows(page) == [
        "1 Dan Brown Check Looks like Dann Brown, already a member. Row 1, Dan Brown "
        "Add anyway Skip",
        "2 Di Will be added",
    ]
    assert names_of(club) == ["Ann Smith", "Bob", "Dann Brown"]
    assert LeagueEvent.objects.count() == events


def test_a_player_of_the_organisers_other_league_keeps_one_record(as_organiser, club, organiser):
    friday = services.league_create(
        name="Friday Club", slug="friday", preset="sevens", user=organiser
    )
    pat = services.member_add(league=friday, name="Pat", user=None).player
    elsewhere = services.league_create(
        name="Not Olive's", slug="other", preset="sevens", user=UserFactory()
    )
    services.member_add(league=elsewhere, name="Quin", user=None)

    page = as_organiser.post(URL, {"action": "preview", "names": "Pat\nQuin"}).content.decode()

    assert preview_rows(page) == [
        "1 Pat Will be added The player of the same name in Friday Club.",
        # Another organiser's player is not this one's to take: a new record.
        "2 Quin Will be added",
    ]
    as_organiser.post(URL, confirm_form(page))
    assert Membership.objects.get(league=club, player__name="Pat").player_id == pat.pk
    assert Player.objects.filter(name="Quin").count() == 2


# Input the page refuses ---------------------------------------------------------------------


def test_the_page_opens_with_an_empty_list(as_organiser, league):
    page = as_organiser.get(URL).content.decode()

    assert "<h1>Add several players to Thursday Club</h1>" in page
    assert 'enctype="multipart/form-data"' in page


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"names": "  \n "}, "names", "Paste the names, one a line, or choose a CSV file."),
        ({}, "names", "Paste the names, one a line, or choose a CSV file."),
        (
            {"names": "Ann\n" * 501},
            "names",
            "The list has 501 rows; add at most 500 players at a time.",
        ),
        ({"file": b""}, "file", "The file is empty."),
        ({"file": b"name\n"}, "file", "There are no names in it, only a header row."),
        ({"file": b"PK\x03\x04\x00\x00binary"}, "file", None),
        (
            {"file": b"x" * 400_001},
            "file",
            "The file is 400,001 bytes; a list of players may be at most 400,000 bytes (about "
            "500 players).",
        ),
    ],
)
def test_input_that_cannot_be_read_is_refused_beside_its_field(
    as_organiser, club, data, field, message
):
    from leagues.roster import NOT_TEXT

    if "file" in data:
        data = {"file": upload(data["file"])}
    response = as_organiser.post(URL, {"action": "preview", **data})

    assert response.status_code == 200
    assert_beside(response.content.decode(), field, message or NOT_TEXT)
    assert names_of(club) == ["Ann Smith", "Bob"]


def test_a_list_and_a_file_at_once_is_refused(as_organiser, club):
    response = as_organiser.post(
        URL, {"action": "preview", "names": "Ann", "file": upload(b"Bob\n")}
    )

    assert (
        '<p class="field-error" role="alert">Paste the names or choose a file, not both.</p>'
        in response.content.decode()
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"rows": "not json"},
        {"rows": "[]"},
        {"rows": '[[1, "Ann"]]'},
        {"rows": '[["1", "Ann", "", ""]]'},
        {"seen": '["added"]'},
        {"seen": '["add", "add"]'},
        {"header": "one"},
        {"header": "2"},
        {"rows": '[[2, "Ann", "", ""], [1, "Bob", "", ""]]', "seen": '["add", "add"]'},
        {"rows": '[[100000000000, "Ann", "", ""]]'},
        {"rows": '[[0, "Ann", "", ""]]'},
        {"rows": "1e999"},
        {"rows": "[" * 100_000},
        {"header": "9" * 5_000},
    ],
)
def test_a_confirm_that_did_not_arrive_whole_adds_nothing(as_organiser, club, changes):
    data = {
        "action": "confirm",
        "rows": '[[1, "Ann", "", ""]]',
        "seen": '["add"]',
        "header": "",
        **changes,
    }

    response = as_organiser.post(URL, data)

    assert response.status_code == 200
    assert (
        "The checked list did not arrive whole, so nothing was added. Start again with your "
        "list." in response.content.decode()
    )
    assert names_of(club) == ["Ann Smith", "Bob"]


# Who may import -----------------------------------------------------------------------------


def test_only_organisers_may_import(client, club):
    member = UserFactory(username="mia")
    services.member_add(league=club, name="Mia", account=member, user=None)
    confirm = {"action": "confirm", "rows": '[[1, "Zed", "", ""]]', "seen": '["add"]'}
    client.force_login(member)

    for response in (client.get(URL), client.post(URL, confirm)):
        assert response.status_code == 403
        assert (
            "Only the organisers of Thursday Club can do this. Ask one of them to add you."
            in response.content.decode()
        )
    services.league_update(league=club, user=None, visibility=League.Visibility.PRIVATE)
    client.force_login(UserFactory(username="sam"))
    assert client.post(URL, confirm).status_code == 404
    client.logout()
    assert client.post(URL, confirm)["Location"] == f"/accounts/login/?next={URL}"
    assert not Player.objects.filter(name="Zed").exists()


def test_names_are_shown_as_text_and_added_as_typed(as_organiser, league):
    names = '<script>alert(1)</script>\n<b>bold</b> & "quotes"'

    page = as_organiser.post(URL, {"action": "preview", "names": names}).content.decode()

    assert "<script>alert" not in page and "<b>bold</b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    as_organiser.post(URL, confirm_form(page))
    assert names_of(league) == ['<b>bold</b> & "quotes"', "<script>alert(1)</script>"]


def test_change_the_list_puts_each_row_back_on_its_line(as_organiser, club):
    page = as_organiser.post(URL, {"action": "preview", "file": upload(BAD_FILE)}).content.decode()

    response = as_organiser.post(URL, {**confirm_form(page), "action": "edit"})

    page = html.unescape(response.content.decode())
    assert (
        "\nname\tusername\nFay\nGus\tgus\n\tdi\n\n"
        + "Hal" * 34
        + "\nIvy\tivan\nJo\tbob\nKit\tdi</textarea>"
    ) in page
    assert names_of(club) == ["Ann Smith", "Bob"]


def test_a_player_added_by_another_request_during_the_confirm_adds_nothing(
    as_organiser, club, organiser, monkeypatch
):
    """Pat, of the organiser's Friday Club, is added to Thursday by another request just after
    this confirm checked its first membership (Cy's): Pat's is refused, and with it the whole
    list (Cy too), beside the preview and without a server error."""
    friday = services.league_create(
        name="Friday Club", slug="friday", preset="sevens", user=organiser
    )
    pat = services.member_add(league=friday, name="Pat", user=None).player
    page = as_organiser.post(URL, {"action": "preview", "names": "Cy\nPat"}).content.decode()
    arrives_first(
        monkeypatch,
        Membership,
        lambda: Membership.objects.create(league=club, player=pat),
    )
    events = LeagueEvent.objects.count()

    response = as_organiser.post(URL, confirm_form(page))

    assert response.status_code == 200
    assert (
        '<p class="field-error" role="alert">Pat is already a member of Thursday Club.</p>'
        in response.content.decode()
    )
    assert not Player.objects.filter(name="Cy").exists()
    assert LeagueEvent.objects.count() == events


def test_a_paste_too_big_for_a_form_is_refused_in_words_and_adds_nobody(as_organiser, club):
    before = names_of(club)
    pasted = "Ann Example\n" * 250_000  # 3 MB, past the 2.5 MB a form may send

    response = as_organiser.post(URL, {"names": pasted, "action": "preview"})

    assert response.status_code == 400
    text = " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())
    assert (
        "Not sent That was too much to send at once: a form takes up to 2.5 MB. Nothing was "
        "saved. Go back and send a shorter list, or upload it as a file."
    ) in text
    assert names_of(club) == before


@pytest.mark.parametrize("key", ["near-\u00b2", "near-" + "9" * 5_000])
def test_a_choice_for_no_line_of_the_list_is_ignored(as_organiser, club, key):
    body = urlencode(
        {"action": "confirm", "rows": '[[1, "Cy", "", ""]]', "seen": '["add"]', key: "add"}
    )

    response = as_organiser.post(URL, body, content_type="application/x-www-form-urlencoded")

    assert response.status_code == 302
    assert names_of(club) == ["Ann Smith", "Bob", "Cy"]
