"""The HTML of the pieces both the server and the phone draw: the game page's next round and
scoreboard, the round form's fields (steppers, piles and their card counts, open books), a
round's breakdown and the round form's preview, the dealer line and the save summary.

Plain Python with no Django import, packed with the engine for the phone: the server's templates
put these in through template tags (scorekeeper.templatetags.scorekeeper), the phone asks the
same functions through `phone`, so a piece cannot be drawn two ways. Every value is escaped as
Django escapes it; what these return is `Html`, which Django's templates take as safe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from scorekeeper.engine.formatting import number, plural, says, signed
from scorekeeper.portable.round_fields import (
    CardCount,
    Field,
    OpenBook,
    Pile,
    RoundForm,
    SideBlock,
)

_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("'", "&#x27;"))


class Html(str):
    """Text that is already HTML: put in a page as it is (Django reads `__html__`)."""

    __slots__ = ()

    def __html__(self) -> str:
        return self


def esc(value: Any) -> str:
    """`value` as text safe in HTML, or as it is when it already is HTML."""
    if isinstance(value, Html):
        return value
    text = "" if value is None else str(value)
    for plain, escaped in _ESCAPES:
        text = text.replace(plain, escaped)
    return text


def _join(pieces: Iterable[str]) -> Html:
    return Html("".join(pieces))


def _attr(condition: Any, text: str) -> str:
    return text if condition else ""


def errors_html(messages: Sequence[str]) -> Html:
    """An error slot's messages, each said at once by a screen reader."""
    return _join(f'<p class="field-error" role="alert">{esc(m)}</p>' for m in messages)


def _slot(key: str, messages: Sequence[str]) -> str:
    return f'<div id="err-{esc(key)}" class="errors">{errors_html(messages)}</div>'


def _autofocus(focus: str | None, key: str) -> str:
    return _attr(focus == key, " autofocus")


# ---- The round form's fields ---------------------------------------------------------------


def _stepper(field: Field, focus: str | None) -> str:
    key, label, step = esc(field.key), esc(field.label), esc(field.step)
    invalid = _attr(field.errors, f' aria-invalid="true" aria-describedby="err-{key}"')
    return (
        f'<div class="stepper">'
        f'<button type="button" class="step" data-for="{key}" data-step="-{step}" '
        f'aria-label="{label}: less">−</button>'
        f'<input type="number" id="{key}" name="{key}" value="{esc(field.value)}" min="0" '
        f'step="{step}" inputmode="numeric" pattern="[0-9]*" placeholder="0"'
        f"{_autofocus(focus, field.key)}{invalid}>"
        f'<button type="button" class="step" data-for="{key}" data-step="{step}" '
        f'aria-label="{label}: more">+</button></div>'
    )


def _field_name(field: Field) -> str:
    # The amount stays in the label, so that the field and its buttons are called by it whole.
    amount = _attr(field.amount, f' <span class="amount">({esc(field.amount)})</span>')
    hint = _attr(field.help, f'<span class="hint">{esc(field.help)}</span>')
    return (
        f'<div class="field-name"><label for="{esc(field.key)}">{esc(field.name)}{amount}</label>'
        f"{hint}</div>"
    )


def stepper_html(field: Field, *, focus: str | None = None) -> Html:
    """A field with its − and + buttons (a count or points), or a big check box (a flag)."""
    key = esc(field.key)
    if field.kind == "flag":
        checked = _attr(field.value, " checked")
        inner = (
            f'<label class="choice" for="{key}"><input type="checkbox" id="{key}" name="{key}" '
            f'value="1"{checked} class="big-check"{_autofocus(focus, field.key)}> '
            f"{esc(field.label)}</label>"
            + _attr(field.help, f'<p class="hint">{esc(field.help)}</p>')
        )
        css = "field flag"
    else:
        inner = _field_name(field) + _stepper(field, focus)
        css = "field"
    css += _attr(field.errors, " has-error")
    return Html(f'<div class="{css}">{inner}{_slot(field.key, field.errors)}</div>')


def _rank_html(card: CardCount, focus: str | None) -> str:
    key, label = esc(card.key), esc(card.label)
    return (
        f'<div class="rank{_attr(card.errors, " has-error")}">'
        f'<label for="{key}">{label} <span class="muted">({number(card.points)})</span></label>'
        f'<div class="stepper small">'
        f'<button type="button" class="step" data-for="{key}" data-step="-1" '
        f'aria-label="{label}: one less">−</button>'
        f'<input type="number" id="{key}" name="{key}" value="{esc(card.value)}" min="0" '
        f'inputmode="numeric" pattern="[0-9]*" placeholder="0"{_autofocus(focus, card.key)}>'
        f'<button type="button" class="step" data-for="{key}" data-step="1" '
        f'aria-label="{label}: one more">+</button></div>'
        f"{_slot(card.key, card.errors)}</div>"
    )


def count_cards_html(piles: Sequence[Pile], *, focus: str | None = None) -> Html:
    """A side's count-cards helper: each pile's cards by rank, which replace its typed points.
    One per side, folded, open while it holds a count or an error."""
    groups = "".join(
        f'<fieldset class="pile-cards" id="{esc(pile.cards_key)}">'
        f"<legend>{esc(pile.heading)}</legend>"
        f"{_slot(pile.cards_key, pile.errors)}"
        f'<div class="rank-grid">{"".join(_rank_html(card, focus) for card in pile.cards)}</div>'
        "</fieldset>"
        for pile in piles
    )
    opened = any(pile.counting or pile.errors for pile in piles)
    return Html(
        f'<details class="count-cards"{_attr(opened, " open")}><summary>Count cards</summary>'
        '<p class="hint">Counted cards replace the points typed above.</p>'
        f"{groups}</details>"
    )


def _open_book_html(book: OpenBook, place: int, kinds: Sequence[tuple[str, str]], focus) -> str:
    options = "".join(
        f'<option value="{esc(kind)}"{_attr(kind == book.kind, " selected")}>{esc(label)}</option>'
        for kind, label in kinds
    )
    kind_key, points_key = esc(book.kind_key), esc(book.points_key)
    return (
        '<div class="open-book">'
        f'<label for="{kind_key}">Book {place} kind</label>'
        f'<select id="{kind_key}" name="{kind_key}">'
        f'<option value="">none</option>{options}</select>'
        f'<label for="{points_key}">Book {place} points</label>'
        f'<input type="number" id="{points_key}" name="{points_key}" value="{esc(book.points)}" '
        f'min="0" step="5" inputmode="numeric"{_autofocus(focus, book.points_key)}>'
        f"{_slot(book.points_key, book.errors)}</div>"
    )


def side_block_html(
    block: SideBlock, name: str, *, kinds: Sequence[tuple[str, str]], focus: str | None = None
) -> Html:
    """One side's fields: canastas, counts, the two piles and their count-cards helper, the
    rest, the flags (the dealer's cut last, so that two sides' rows stay level), the books."""
    flags = [f for f in block.before_piles if f.kind == "flag"]
    counts = [f for f in block.before_piles if f.kind != "flag"]

    def steppers(fields: Iterable[Field]) -> str:
        return "".join(stepper_html(f, focus=focus) for f in fields)

    books = ""
    if block.open_books:
        books = (
            '<fieldset class="open-books">'
            "<legend>Open books of seven or more left on the table</legend>"
            + "".join(
                _open_book_html(book, place, kinds, focus)
                for place, book in enumerate(block.open_books, start=1)
            )
            + "</fieldset>"
        )
    dealer = _attr(block.is_dealer, ' <span class="badge">dealer</span>')
    return Html(
        f'<fieldset class="side-block{_attr(block.is_dealer, " dealer")}" id="{esc(block.key)}">'
        f"<legend>{esc(name)}{dealer}</legend>"
        f"{_slot(block.key, block.errors)}"
        f'<div class="canastas">{steppers(block.canastas)}'
        f"{_slot(f'{block.key}-canastas', block.canastas_errors)}</div>"
        f"{steppers(counts)}"
        f"{steppers((block.melded.points, block.hand.points))}"
        f"{count_cards_html((block.melded, block.hand), focus=focus)}"
        f"{steppers(block.after_piles)}{steppers(flags)}{books}</fieldset>"
    )


def round_fields_html(form: RoundForm, names: Sequence[str], *, stock: str = "stock") -> Html:
    """The round form's fields, from its own errors to the last side's open books: the same
    names, ids and error slots on the server's page and on the phone."""
    focus = form.focus
    # The canastas going out needs, which static/js/round-form filled in on this choice.
    least = {kind: n for kind, n in form.rules.going_out_minimum.items() if n}

    def least_of(block: SideBlock) -> str:
        pairs = " ".join(f"{block.key}-canastas-{kind}:{n}" for kind, n in least.items())
        return _attr(pairs, f' data-least="{esc(pairs)}"')

    went_out = "".join(
        f'<label class="choice"><input type="radio" id="went_out-{esc(block.went_out_value)}" '
        f'name="went_out" value="{esc(block.went_out_value)}"{least_of(block)}'
        f"{_attr(form.went_out == block.went_out_value, ' checked')}"
        f"{_autofocus(focus, f'went_out-{block.went_out_value}')}> {esc(name)}"
        '<span class="visually-hidden"> went out</span></label>'
        for block, name in zip(form.blocks, names, strict=True)
    )
    blocks = "".join(
        side_block_html(block, name, kinds=form.kinds, focus=focus)
        for block, name in zip(form.blocks, names, strict=True)
    )
    return Html(
        f"{_slot('__all__', form.errors)}"
        '<fieldset class="went-out choices-row"><legend>Who went out?</legend>'
        f"{went_out}"
        f'<label class="choice"><input type="radio" name="went_out" value="{esc(stock)}"'
        f"{_attr(form.went_out == stock, ' checked')}> The stock ran out</label>"
        f"{_slot('went_out', form.went_out_errors)}</fieldset>"
        f'<div class="side-blocks{_attr(len(form.blocks) == 2, " pair")}">{blocks}</div>'
    )


def save_summary_html(form: RoundForm, *, number_: int, editing: bool = False) -> Html:
    """Beside Save, so a refused Save is answered where the thumb is: what stops the round,
    linked to its first error."""
    if form.errors:
        return Html(f'<p><a href="#err-__all__">{esc(form.errors[0])}</a></p>')
    if not form.has_errors:
        return Html("")
    count = form.error_count
    what = "Not saved yet" if editing else f"Round {number_} not saved yet"
    return Html(
        f'<p><a href="#{esc(form.focus)}">{what}: {count} field{"" if count == 1 else "s"} '
        "to fix, marked in red</a></p>"
    )


# ---- A round's breakdown --------------------------------------------------------------------


def _get(line: Any, name: str) -> Any:
    return line.get(name) if isinstance(line, Mapping) else getattr(line, name)


def breakdown_html(
    name: str, points: int, lines: Sequence[Any], *, level: int, total: int | None = None
) -> Html:
    """One side's lines of a round: each label with its count ("2 × 500") where the engine gives
    one, and its points; the round's points and, for a played round, the total after it. `lines`
    are the engine's score lines or the stored ones (dicts with the same names)."""
    rows = []
    for line in lines:
        count = _get(line, "count")
        counted = ""
        if count is not None:
            each = number(_get(line, "each") or 0)
            counted = f' <span class="muted">{number(count)} × {each}</span>'
        # Why the line scores as it does (Canasta's red threes: "all 4; counted against: …").
        note = (line.get("note") if isinstance(line, Mapping) else getattr(line, "note", "")) or ""
        if note:
            counted += f' <span class="muted line-note">({esc(note)})</span>'
        rows.append(
            f'<tr><th scope="row">{esc(_get(line, "label"))}{counted}</th>'
            f"<td>{signed(_get(line, 'points'))}</td></tr>"
        )
    if not rows:
        rows.append("<tr><td>Nothing scored.</td></tr>")
    after = "" if total is None else f' <span class="muted">(total {number(total)})</span>'
    return Html(
        f'<div class="breakdown"><h{level}>{esc(name)}: '
        f'<span class="round-total">{signed(points)}</span>{after}</h{level}>'
        f'<table class="lines">{"".join(rows)}</table></div>'
    )


PREVIEW_EMPTY = "It shows here as you type."
PREVIEW_FIX = "Fix the fields marked in red to see the breakdown."


def preview_html(
    *,
    number_: int,
    sides: Sequence[Any] = (),
    totals: Sequence[tuple[str, int]] = (),
    note: str = PREVIEW_EMPTY,
) -> Html:
    """The round form's breakdown as it is typed: each side's lines and the totals after the
    round; with no sides, `note` instead. `sides` are the engine's side results (or dicts with
    `name`, `total` and `lines`)."""
    if sides:
        body = "".join(
            breakdown_html(_get(side, "name"), _get(side, "total"), _get(side, "lines"), level=3)
            for side in sides
        )
        after = ", ".join(f"{esc(name)} <strong>{number(total)}</strong>" for name, total in totals)
        body += f'<p class="new-totals">Totals after round {number_}: {after}</p>'
    else:
        body = f'<p class="muted">{esc(note)}</p>'
    return Html(
        '<section id="preview" class="preview" aria-live="polite"><h2>Breakdown</h2>'
        f"{body}</section>"
    )


# ---- The game page ----------------------------------------------------------------------------


def dealer_html(dealer: str, melds: Sequence[tuple[str, int]]) -> Html:
    """`Ann deals. Opening meld: Ann 50, Bob 90.` (or `60 each`), names and points in bold;
    `Ann deals. No opening minimum.` where nobody needs one (Buraco)."""
    if all(meld == 0 for _, meld in melds):
        return Html(f"<strong>{esc(dealer)}</strong> deals. No opening minimum.")
    if len(melds) > 1 and len({meld for _, meld in melds}) == 1:
        needs = f"<strong>{number(melds[0][1])}</strong> each"
    else:
        needs = ", ".join(f"{esc(name)} <strong>{number(meld)}</strong>" for name, meld in melds)
    return Html(f"<strong>{esc(dealer)}</strong> deals. Opening meld: {needs}.")


def next_round_html(
    *,
    next_round: int,
    dealer: str,
    melds: Sequence[tuple[str, int]],
    to_win: Sequence[str],
    enter_url: str | None,
) -> Html:
    """The game page's next round: who deals, what each side needs to open, what each needs to
    win, and for a phone that scores the game, the way to enter it."""
    # An item a line, so that the list's text reads as the lines it shows.
    needs = "\n".join(
        f'<li><span>{esc(says(name, "needs"))}</span> <strong class="meld">{number(meld)}</strong> '
        "<span>to open</span></li>"
        for name, meld in melds
    )
    # Where no side needs an opening meld (Buraco), the list would say 0 for each.
    meld_list = f'<ul class="meld-needs">{needs}</ul>' if any(meld for _, meld in melds) else ""
    notes = ""
    if to_win:
        notes = '<ul class="to-win">' + "\n".join(f"<li>{esc(n)}</li>" for n in to_win) + "</ul>"
    enter = ""
    if enter_url is not None:
        enter = (
            f'<a class="button big" href="{esc(enter_url)}" data-needs-settled>'
            f"Enter round {next_round}</a>"
        )
    return Html(
        f'<section class="next-round"><h2>Round {next_round}</h2>'
        f'<p class="dealer"><strong>{esc(dealer)}</strong> deals.</p>'
        f"{meld_list}{notes}{enter}</section>"
    )


def winner_text(name: str, side_word: str) -> str:
    """`Ann wins!`, or for a team `Ann and Bob win!`: a finished game's headline. A side that
    may be a team (any side but a player) wins in the plural whatever its name (`Spades win!`),
    as the page always said; a player with a plural name (`Us`) too."""
    return f"{name} win{'' if side_word != 'player' or plural(name) else 's'}!"


def final_score_text(totals: Sequence[tuple[str, int]]) -> str:
    """`Ann 1,990, Bob 625`."""
    return ", ".join(f"{name} {number(total)}" for name, total in totals)


def scoreboard_rows_html(
    names: Sequence[str],
    rounds: Sequence[Mapping[str, Any]],
    *,
    round_url: Callable[[int], str],
    panel: bool,
) -> Html:
    """The scoreboard's rows, each cell a link to the round's breakdown (into the page's panel
    where `panel`, on the server). A round kept on the phone and not sent yet has no page yet:
    its row says so and links nowhere. Each round: `number`, `waiting` and `scores`, a list of
    (points, running total) in the order of `names`."""
    out = []
    for row in rounds:
        number_, waiting = row["number"], row.get("waiting")
        url = esc(round_url(number_))
        cells = []
        for name, (points, total) in zip(names, row["scores"], strict=True):
            inner = (
                f'<span class="visually-hidden">Round {number_}, {esc(name)}: </span>'
                f'<span class="points">{signed(points)}</span>'
                f'<span class="visually-hidden">, total</span> '
                f'<span class="running">{number(total)}</span>'
            )
            if waiting:
                cells.append(f'<td><span class="cell">{inner}</span></td>')
            else:
                into = _attr(panel, f' hx-get="{url}" hx-target="#breakdown-panel"')
                cells.append(f'<td><a href="{url}"{into}>{inner}</a></td>')
        if waiting:
            head = (
                f'<th scope="row"><span class="cell">{number_} <span class="waiting-note">'
                "saved on this phone, not sent yet</span></span></th>"
            )
        else:
            head = f'<th scope="row"><a href="{url}">{number_}</a></th>'
        css = _attr(waiting, ' class="waiting"')
        out.append(f"<tr{css}>{head}{''.join(cells)}</tr>\n")
    return _join(out)


def scoreboard_html(
    names: Sequence[str],
    rounds: Sequence[Mapping[str, Any]],
    totals: Sequence[int],
    *,
    round_url: Callable[[int], str],
    panel: bool,
) -> Html:
    """The game page's scores: a row a round, the totals below."""
    heads = "".join(f'<th scope="col">{esc(name)}</th>' for name in names)
    rows = scoreboard_rows_html(names, rounds, round_url=round_url, panel=panel)
    if not rows:
        rows = Html(f'<tr><td colspan="{len(names) + 1}" class="empty">No rounds yet.</td></tr>')
    foot = "".join(f'<td class="total">{number(total)}</td>' for total in totals)
    return Html(
        '<section data-offline-part="scores"><h2>Scores</h2>'
        '<div id="breakdown-panel" aria-live="polite"></div>'
        '<div class="table-wrap"><table class="scoreboard">'
        f'<thead><tr><th scope="col">Round</th>{heads}</tr></thead>'
        f"<tbody>{rows}</tbody>"
        f'<tfoot><tr><th scope="row">Total</th>{foot}</tr></tfoot></table></div></section>'
    )


def result_html(*, tie: bool, winner: str, final_score: str) -> Html:
    """A finished game's headline and final score (the section around it is the page's: the
    server adds Rematch and Reopen)."""
    headline = "It's a tie" if tie else esc(winner)
    return Html(f"<h2>{headline}</h2><p>Final score: {esc(final_score)}.</p>")


def result_section_html(*, tie: bool, winner: str, final_score: str) -> Html:
    """A finished game's result as the phone shows it, with nothing to do offline."""
    inner = result_html(tie=tie, winner=winner, final_score=final_score)
    return Html(f'<section class="result" aria-live="polite">{inner}</section>')


def game_path(public_id: str) -> str:
    """The game page's address, as urls.py has it (a test holds the two together)."""
    return f"/g/{public_id}/"


def round_path(public_id: str, number_: int) -> str:
    """A stored round's page."""
    return f"{game_path(public_id)}rounds/{number_}/"
