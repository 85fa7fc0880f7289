"""The world the permission tests run in: two leagues of the same organiser and member, one
public and one private, a plain game with its scorers, and a browser for each role; and the paths
they try, resolved in it."""

import datetime
from dataclasses import dataclass

from django.test import Client

from leagues import services
from leagues.models import League
from scorekeeper.models import Game
from scorekeeper.rounds.services import round_record
from tests.helpers.games import start_form
from tests.helpers.leagues import UserFactory, members, table_game

CHANGE = "Only the phones scoring this game can change it. Ask a scorer for the scorer link."


@dataclass(frozen=True)
class Place:
    """A league as the paths name it."""

    name: str
    l: str  # noqa: E741 - short, as it is used in every path
    season: int
    night: int
    player: int
    league_game: int
    game: str


@dataclass
class World:
    public: Place
    private: Place
    game: str
    token: str
    clients: dict[str, Client]


def build_league(organiser, member, *, name: str, slug: str, visibility: str) -> Place:
    league = services.league_create(
        name=name,
        slug=slug,
        preset="ten-thousand",
        house_rules={"target_score": None, "rounds": 1},
        visibility=visibility,
        user=organiser,
    )
    season = services.season_create(
        league=league,
        name="Autumn 2026",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 11, 30),
        user=organiser,
    )
    services.member_add(league=league, name="Mia", account=member, user=organiser)
    p = members(league, "Ann", "Bob")
    league_game = table_game(league, [[p["Ann"]], [p["Bob"]]])
    return Place(
        name,
        f"/leagues/{slug}",
        season.pk,
        league_game.night_id,
        p["Ann"].pk,
        league_game.pk,
        league_game.game.public_id,
    )


def build_world() -> World:
    olive = UserFactory(username="olive")
    mia = UserFactory(username="mia")
    public = build_league(
        olive, mia, name="Thursday Club", slug="thursday", visibility=League.Visibility.PUBLIC
    )
    private = build_league(
        olive, mia, name="Hidden Club", slug="hidden", visibility=League.Visibility.PRIVATE
    )
    clients = {"anyone": Client()}
    for who, user in (("user", UserFactory(username="sam")), ("member", mia), ("organiser", olive)):
        clients[who] = Client()
        clients[who].force_login(user)

    scorer = clients["scorer"] = Client()
    started = scorer.post("/games/new/baskets/", start_form("baskets"))
    public_id = started["Location"].split("/")[2]
    game = Game.objects.get(public_id=public_id)
    round_record(
        game=game,
        number=1,
        ended_by="stock_exhausted",
        entry=[{"melded_points": 50}, {"melded_points": 40}],
    )
    owen = UserFactory(username="owen")
    Game.objects.filter(pk=game.pk).update(owner=owen)
    clients["owner"] = Client()
    clients["owner"].force_login(owen)

    linked = clients["linked"] = Client()
    for public_id_, token in Game.objects.values_list("public_id", "scorer_token"):
        assert linked.get(f"/g/{public_id_}/join/{token}/").status_code == 302
    return World(public, private, public_id, game.scorer_token, clients)


def resolve(path: str, world: World, private: bool) -> str:
    place = world.private if private else world.public
    return path.format(
        l=place.l,
        season=place.season,
        night=place.night,
        player=place.player,
        league_game=place.league_game,
        league_game_public=place.game,
        game=world.game,
        token=world.token,
    )
