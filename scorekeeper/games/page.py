"""The game page's parts that are the same for everyone who looks at the game: its status (who
deals, what each side needs, the result) and its scoreboard and chart as HTML, made once per
change of the game and kept in Django's cache under the game's version.

The version is read from the game's row on every request (`Game.updated_at`, which every write
moves forward; see `store.game_save`), so an entry can only be found while the game is as it
was when the entry was made: any number of app processes, each with its own cache or sharing
one, never show an old scoreboard. What differs between viewers (may they score, the share links,
the CSRF token, the messages, the paper sizes, the league's context) is drawn at each request.
"""

import functools
import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache as django_cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from scorekeeper import engine
from scorekeeper.engine.formatting import rule_set_name
from scorekeeper.engine.house_rules import house_rules_text
from scorekeeper.games import live
from scorekeeper.games.charts import running_totals_chart
from scorekeeper.games.presenters import end_condition, to_win
from scorekeeper.games.selectors import GameView, game_loaded, game_view
from scorekeeper.models import Game
from scorekeeper.portable import fragments

# Long enough to serve a whole club night from one entry; an entry of an older version is
# never asked for again and goes when the cache needs the room or this runs out.
CACHE_SECONDS = 6 * 60 * 60


@dataclass(frozen=True)
class GamePage:
    """What the game page shows of the game itself, as text ready for the page."""

    title: str  # `Ann vs Bob`, as str(game)
    names: tuple[str, ...]
    rules_line: str  # `Sevens · First to 50,000, highest total wins`
    house_rules: str
    rounds: int
    finished: bool
    ended_by_hand: bool
    tie: bool
    winner: str  # `Ann wins!`, or "" when the game is not over or is a tie
    final_score: str  # `Ann 1,990, Bob 625`
    next_round: int | None
    dealer: str
    meld: tuple[tuple[str, int], ...]  # (side's name, opening meld needed)
    to_win: tuple[str, ...]
    scores_html: str

    @property
    def spoken(self) -> str:
        """The totals as the phone reads them aloud: `Us 4,215, Them 3,890; Ann deals next.`"""
        if self.finished:
            return f"{self.final_score}; {self.winner.rstrip('!') or 'the game is a tie'}."
        if self.dealer:
            return f"{self.final_score}; {self.dealer} deals next."
        return f"{self.final_score}."

    @property
    def scores(self) -> SafeString:
        """The scoreboard and chart sections (escaped when they were drawn)."""
        return mark_safe(self.scores_html)  # noqa: S308 - rendered by Django's templates


def game_page(game: Game) -> GamePage | None:
    """The page parts of the game's version that `game` (its row, read for this request) says:
    from the cache, or made and kept there. None if the game has just been deleted."""
    page = django_cache.get(_key(game))
    if page is None:
        # Read after the version: if the game changed meanwhile, these rows are newer than the
        # version asked for, never older, and they are kept under their own version.
        whole = game_loaded(game.pk)
        if whole is None:
            return None
        page = _made(game_view(whole))
        django_cache.set(_key(whole), page, CACHE_SECONDS)
    return page


def _key(game: Game) -> str:
    return f"game-page:{_code_version()}:{game.public_id}:{game.pk}:{live.game_version(game)}"


def _made(view: GameView) -> GamePage:
    game, rules = view.game, view.rules
    names = tuple(side.name for side in view.sides)
    winner = ""
    if game.finished and not game.tie and game.winner_id is not None:
        name = next(side.name for side in view.sides if side.pk == game.winner_id)
        winner = fragments.winner_text(name, rules.words["side"])
    scored = view.rows
    chart = running_totals_chart(
        list(names),
        [[score.running_total for score in scores] for _, scores in scored],
        target=rules.target_score,
    )
    scoreboard = fragments.scoreboard_html(
        names,
        [
            {"number": stored.number, "scores": [(s.points, s.running_total) for s in scores]}
            for stored, scores in scored
        ],
        view.totals,
        round_url=functools.partial(_round_url, game.public_id),
        panel=True,
    )
    scores_html = scoreboard + render_to_string("scorekeeper/_game_chart.html", {"chart": chart})
    return GamePage(
        title=" vs ".join(names),
        names=names,
        rules_line=f"{rule_set_name(game.preset)} · {end_condition(rules)}",
        house_rules=_house_rules(game, rules),
        rounds=len(view.rounds),
        finished=game.finished,
        ended_by_hand=game.ended_by_hand,
        tie=game.tie,
        winner=winner,
        final_score=fragments.final_score_text(list(zip(names, view.totals, strict=True))),
        next_round=view.next_round,
        dealer=view.dealer.player if view.dealer else "",
        # No meld to show once the game is over.
        meld=tuple(zip(names, view.meld, strict=False)),
        to_win=() if game.finished else tuple(to_win(rules, list(names), view.totals)),
        scores_html=str(scores_html),
    )


def _round_url(public_id: str, number: int) -> str:
    return reverse("round_detail", args=[public_id, number])


def _house_rules(game: Game, rules: engine.RuleSet) -> str:
    return house_rules_text(rules) if game.house_rules else ""


@cache
def _code_version() -> str:
    """A digest of the code and templates that draw the parts, so that a cache shared by app
    processes of two releases (Redis, during a deploy) never gives one the other's HTML."""
    # The whole package: the scoreboard is drawn by scorekeeper/portable/fragments.py.
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    files = sorted(root.rglob("*.py")) + sorted(
        Path(settings.BASE_DIR, "templates", "scorekeeper").glob("*.html")
    )
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]
