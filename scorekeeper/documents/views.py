"""The kitchen table's PDFs: a blank score sheet for a rule set, and a game's score card."""

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.views.decorators.http import require_GET

from scorekeeper import engine
from scorekeeper.documents import cards
from scorekeeper.documents.cache import content_version
from scorekeeper.documents.pdf.score_card import CardSide, ScoreCard, build_score_card
from scorekeeper.engine.formatting import rule_set_name
from scorekeeper.games.selectors import game_for_card


@require_GET
def score_sheet(request: HttpRequest, preset: str) -> HttpResponse:
    """A blank score sheet for a preset, or for house rules given as the start form's fields."""
    if preset not in engine.RULESETS:
        raise Http404("No such rule set")
    base = engine.RULESETS[preset]
    try:
        paper = cards.paper_for(request)
        rules, count = cards.blank_sheet_request(base, request.GET)
    except cards.PaperError as error:
        return cards.bad_paper(error)
    except cards.SheetError as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")
    word = rules.words["side"].capitalize()
    card = ScoreCard(
        rules=rules,
        sides=tuple(CardSide(f"{word} {n}") for n in range(1, count + 1)),
        house_rules=bool(rules.overrides()),
        named=False,
    )
    stem = cards.file_stem(rule_set_name(rules.id), "blank score sheet")
    return cards.pdf_of(card, build_score_card, stem, kind="blank-sheet", paper=paper)


@require_GET
def game_score_card(request: HttpRequest, public_id: str) -> HttpResponse:
    """The game's score card as a PDF: every round entered so far, itemised."""
    game = game_for_card(public_id)
    if game is None:
        raise Http404("No game at this address")
    try:
        paper = cards.paper_for(request)
    except cards.PaperError as error:
        return cards.bad_paper(error)
    stem = cards.game_file_stem(game, game.sides.all())
    # Every write of the game moves its updated_at; what its league says of it (league, night,
    # table, a void) is read with the game, so a cached card is never scored again.
    version = f"{game.pk}:{game.public_id}:{game.updated_at.isoformat()}"
    return cards.pdf_download(
        lambda: build_score_card(cards.game_score_card(game), paper=paper),
        stem,
        kind="score-card",
        version=f"{version}:{content_version(cards.league_details(game))}",
        paper=paper,
    )
