"""Template tags of pages that follow a game live (see scorekeeper.games.live)."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from scorekeeper.games import live

register = template.Library()


@register.simple_tag(takes_context=True)
def live_watch(context, game) -> str:
    """Attributes that make static/js/app.js ask whether the game changed since this page."""
    return format_html(
        'data-watch="{}" data-etag="{}"',
        reverse("game_state", args=[game.public_id]),
        live.game_etag(game.updated_at),
    )


@register.simple_tag(takes_context=True)
def live_refresh(context, game) -> str:
    """Attributes of a page's #live section: when the game changes it fetches the page again
    and swaps in the fresh section, so a round saved on another phone shows without a reload.
    Its hx-select and hx-swap are its own: the scoreboard's links inside keep their own swap."""
    return format_html(
        'id="live" {} hx-get="{}" hx-trigger="game-changed from:body" hx-select="#live" '
        'hx-swap="outerHTML" hx-disinherit="*"',
        live_watch(context, game),
        context["request"].get_full_path(),
    )


@register.inclusion_tag("scorekeeper/_undo.html", takes_context=True)
def undo_form(context) -> dict:
    """The Undo button of "Round 3 saved", while this browser may still undo it."""
    game, request = context.get("game"), context["request"]
    offer = live.undo_offered(request, game) if game is not None else None
    seconds = live.undo_seconds_left(offer) if offer else 0
    return {
        "game": game,
        "offer": offer if seconds else None,
        "seconds": seconds,
        "csrf_token": context.get("csrf_token"),
    }
