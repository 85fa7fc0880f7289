from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from scorekeeper import engine
from scorekeeper.documents.cards import paper_choices as _paper_choices
from scorekeeper.engine import formatting
from scorekeeper.engine.house_rules import house_rules_text
from scorekeeper.games.presenters import rules_card as _rules_card
from scorekeeper.offline import pack as offline
from scorekeeper.portable import fragments

register = template.Library()


@register.simple_tag(takes_context=True)
def paper_choices(context) -> list[tuple[str, str, bool]]:
    """The paper sizes a PDF link offers, the browser's locale's own first."""
    return _paper_choices(context["request"])


@register.simple_tag
def rules_card(rules):
    return _rules_card(rules)


@register.simple_tag
def engine_zip_url() -> str:
    """The packed engine's address, for the phone's offline worker (see engine.js)."""
    return offline.engine_url()


# House rules -----------------------------------------------------------------------------


@register.filter
def house_rules(rules) -> str:
    """`House rules: 4 decks (the rule set's: 3)`, or "" for a preset: a RuleSet or the spec a
    league, season or game stores (see `scorekeeper.engine.house_rules`)."""
    if not isinstance(rules, engine.RuleSet):
        rules = engine.resolve_rules(rules)
    return house_rules_text(rules)


@register.filter
def number(value: int) -> str:
    """`1,990`, `−100`: every number a page shows (see `scorekeeper.engine.formatting`)."""
    return formatting.number(value)


@register.filter
def decimal(value: float, places: int = 1) -> str:
    """`1,234.5`, `−0.5`: a figure with decimals, such as a rating or an average."""
    return formatting.decimal(value, places)


@register.filter
def percent(value: float) -> str:
    """`75`, `83.3`: a share such as a win % (see `scorekeeper.engine.formatting.percent`)."""
    return formatting.percent(value)


@register.filter
def signed(value: int) -> str:
    """`+250`, `−85`, `0`: a score line's points with its sign."""
    return formatting.signed(value)


@register.filter
def rule_set(preset: str) -> str:
    """`Ten Thousand`: a rule set's name from its id, the same on every page and PDF."""
    return formatting.rule_set_name(preset)


@register.filter
def index(sequence, position: int):
    """The item at a position, for lists that run beside a loop."""
    return sequence[position]


@register.simple_tag
def error_slots_oob(slots) -> SafeString:
    """Every error container of the round form, swapped in by htmx out of band (emptied where
    the field is fine), as `_errors.html` inside its div would draw each: drawn here with plain
    strings because a preview is sent at each pause in typing and a form with card grids has
    about 80 of them."""
    parts = []
    for slot, errors in slots:
        slot_id = fragments.esc(slot)
        shown = fragments.errors_html(errors)
        parts.append(f'<div id="err-{slot_id}" class="errors" hx-swap-oob="true">{shown}\n</div>')
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped


# The pieces the phone draws too: one renderer, scorekeeper.portable.fragments ----------------


def _side_name(side) -> str:
    return getattr(side, "name", side)


@register.simple_tag
def round_fields(form) -> str:
    """The round form's fields, as the phone draws them offline."""
    return fragments.round_fields_html(form, [_side_name(block.side) for block in form.blocks])


@register.simple_tag
def save_summary(form, number: int, editing: bool = False) -> str:
    """What stops the round, beside Save."""
    return fragments.save_summary_html(form, number_=number, editing=editing)


@register.simple_tag
def round_preview(preview, number: int, form) -> str:
    """The round form's breakdown: the previewed round's lines, or why there are none."""
    if preview:
        return fragments.preview_html(
            number_=number, sides=preview.result.sides, totals=list(preview.totals.items())
        )
    note = fragments.PREVIEW_FIX if form.has_errors else fragments.PREVIEW_EMPTY
    return fragments.preview_html(number_=number, note=note)


@register.simple_tag
def breakdown(side, score, level: int = 2) -> str:
    """A stored round's lines for one side, with the total after it."""
    return fragments.breakdown_html(
        side.name, score.points, score.lines, level=level, total=score.running_total
    )


@register.simple_tag
def dealer_line(dealer, sides, melds) -> str:
    """`Ann deals. Opening meld: Ann 50, Bob 90.`"""
    return fragments.dealer_html(
        dealer.player, [(side.name, meld) for side, meld in zip(sides, melds, strict=True)]
    )


@register.simple_tag
def next_round(page, enter_url: str | None = None) -> str:
    """The game page's next round, with the way to enter it where `enter_url` is given."""
    return fragments.next_round_html(
        next_round=page.next_round,
        dealer=page.dealer,
        melds=page.meld,
        to_win=page.to_win,
        enter_url=enter_url or None,
    )


@register.simple_tag
def result(page) -> str:
    """A finished game's headline and final score."""
    return fragments.result_html(tie=page.tie, winner=page.winner, final_score=page.final_score)


# A moment as the server's zone writes it, in a <time> the phone rewrites in its own zone
# (static/js/display/times.js): "27 Nov 2026 17:35 UTC" becomes "27 Nov 2026 11:35" in Chicago.
MOMENT_FORMATS = {"short": "j M Y H:i", "long": "j F Y \\a\\t H:i"}


@register.simple_tag
def moment(value, style: str = "short") -> SafeString:
    """`<time datetime="…" data-local="short">27 Nov 2026 17:35 UTC</time>`."""
    if value is None:
        return mark_safe("")  # noqa: S308 - nothing to show
    local = timezone.localtime(value)
    return format_html(
        '<time datetime="{}" data-local="{}">{} {}</time>',
        value.isoformat(),
        style,
        date_format(local, MOMENT_FORMATS[style]),
        local.tzname(),
    )
