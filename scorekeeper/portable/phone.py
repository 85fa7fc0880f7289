"""A game as a phone scores it offline: the game page, the round form and its live breakdown,
a round's breakdown at its place (each version of a round saved on two phones), and a game
started with no connection.

Plain Python with no Django import, packed with the engine for the browser (Pyodide in a Web
Worker), so that the phone scores with the server's own code. Every function takes and returns
JSON-able dicts and lists; every number shown is also given as text made by the formatter.

A snapshot is a game as `/g/<id>/offline.json` gives it; a waiting round is one saved on the
phone and not sent yet: `{"key", "number", "ended_by", "entry"}`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper import engine
from scorekeeper.engine.formatting import listing, number, says, signed
from scorekeeper.engine.seating import dealer_seat
from scorekeeper.portable import fragments, round_fields, start_fields

Json = dict[str, Any]


def standing(
    names: Sequence[str],
    totals: Sequence[int],
    rounds_played: int,
    *,
    finished: bool,
    winner: str | None,
    tie: bool,
) -> str:
    """`Ann leads by 1,365`, `Ann & Carl lead by 1,365`, `Ann and Bob level`, `No rounds yet`,
    `Ann won`, `A tie`."""
    if finished:
        return "A tie" if tie or winner is None else f"{winner} won"
    if not rounds_played:
        return "No rounds yet"
    ranked = sorted(zip(totals, names, strict=True), key=lambda pair: pair[0], reverse=True)
    level = [name for total, name in ranked if total == ranked[0][0]]
    if len(level) > 1:
        return f"{listing(level)} level"
    return f"{says(ranked[0][1], 'leads')} by {number(ranked[0][0] - ranked[1][0])}"


def to_win(rules: engine.RuleSet, names: Sequence[str], totals: Sequence[int]) -> list[str]:
    """`Ann needs 2,345 more to win (target 10,000)` (`Ann & Carl need ...`) for each side, in a
    game to a target."""
    target = rules.target_score
    if target is None:
        return []
    return [
        f"{says(name, 'needs')} {number(target - total)} more to win (target {number(target)})"
        if total < target
        # Only while leaders are tied at or past the target, who then play on.
        else f"{says(name, 'has')} reached the target ({number(target)}): the highest total wins"
        for name, total in zip(names, totals, strict=True)
    ]


@functools.lru_cache(maxsize=16)
def _rules_from_text(text: str) -> engine.RuleSet:
    return engine.resolve_rules(json.loads(text))


def _rules(snapshot: Mapping[str, Any]) -> engine.RuleSet:
    # Resolving a full rule set checks every parameter: once per game, not once per keystroke.
    return _rules_from_text(json.dumps(snapshot["rules"], sort_keys=True))


def _rounds(snapshot: Mapping[str, Any], waiting: Sequence[Mapping[str, Any]]) -> list[Json]:
    """The stored rounds with the waiting ones in their places, each marked waiting or not: a
    waiting round takes the place of the stored round of its number, or follows them."""
    by_number = {int(r["number"]): {**r, "waiting": False} for r in snapshot.get("rounds", [])}
    for r in waiting:
        by_number[int(r["number"])] = {**r, "waiting": True}
    return [by_number[n] for n in sorted(by_number)]


def _status(
    snapshot: Mapping[str, Any],
    rounds: Sequence[Mapping[str, Any]],
    *,
    finished: bool,
    before: engine.GameStatus | None = None,
) -> engine.GameStatus:
    """The game after `rounds`; with `before` (the game as it stood after its earlier rounds),
    only `rounds` are scored, and its `rounds` holds only them, numbered in the whole game."""
    names = list(snapshot["sides"])
    inputs = [
        {
            "ended_by": r["ended_by"],
            # A short entry is left short: the engine names the side with no score.
            "sides": [
                {"name": name, **dict(side)} for name, side in zip(names, r["entry"], strict=False)
            ],
        }
        for r in rounds
    ]
    start = None
    if before is not None:
        played = before.rounds[-1].round if before.rounds else 0
        start = {"totals": dict(before.totals), "rounds": played}
    return engine.game_status_after(
        _rules(snapshot), names, start, inputs, finished=finished, decks=snapshot.get("decks")
    )


def _dealer(snapshot: Mapping[str, Any], round_number: int) -> tuple[int, str]:
    """(side index, name) of who deals round `round_number`."""
    names = list(snapshot["sides"])
    players = list(snapshot.get("players") or [[] for _ in names])
    side, place = dealer_seat(
        [len(team) for team in players], int(snapshot.get("first_dealer") or 0), round_number
    )
    return side, (list(players[side]) or [names[side]])[place]


def _totals(names: Sequence[str], totals: Mapping[str, int]) -> list[Json]:
    return [
        {"side": name, "total": totals[name], "total_text": number(totals[name])} for name in names
    ]


def _melds(names: Sequence[str], melds: Sequence[int]) -> list[Json]:
    # A finished game has no next round, so nobody needs anything to open: no melds at all.
    if not melds:
        return []
    return [
        {"side": name, "points": points, "points_text": number(points)}
        for name, points in zip(names, melds, strict=True)
    ]


def _errors(errors: Sequence[engine.FieldError], keys: set[str]) -> list[Json]:
    placed = round_fields.errors_by_key(errors, keys)
    return [
        {"key": key, "message": message} for key, messages in placed.items() for message in messages
    ]


def game_view(
    snapshot: Mapping[str, Any], waiting: Sequence[Mapping[str, Any]], can_score: bool = True
) -> Json:
    """The game page with the waiting rounds counted in: rounds, totals, who deals next and the
    opening melds, and the page's pieces as the server draws them (`state_html`, `scores_html`,
    `dealer_html`; Enter round only where `can_score`). When the engine refuses the waiting
    rounds, the last ones are left out until it does not: their keys are in `left_out`, the
    engine's reasons in `errors`."""
    names = list(snapshot["sides"])
    rules = _rules(snapshot)
    rounds = _rounds(snapshot, waiting)
    ended_by_hand = bool(snapshot.get("ended_by_hand"))
    problems: list[Json] = []
    left_out: list[Any] = []
    while True:
        try:
            status = _status(snapshot, rounds, finished=ended_by_hand)
            break
        except engine.RoundError as error:
            if not any(r["waiting"] for r in rounds):
                raise  # the stored rounds alone: the server scored them, so this is no game
            problems = problems or [
                {"key": "__all__", "message": item.message} for item in error.errors
            ]
            last = max(i for i, r in enumerate(rounds) if r["waiting"])
            left_out.insert(0, rounds.pop(last).get("key"))
    totals = [status.totals[name] for name in names]
    dealer = _dealer(snapshot, status.next_round)[1] if status.next_round else None
    melds = [status.meld_requirement[name] for name in names] if status.meld_requirement else []
    lines = [] if status.finished else to_win(rules, names, totals)
    pieces = _page_pieces(
        snapshot, rules, names, rounds, status, dealer, melds, lines, can_score=can_score
    )
    return {
        **pieces,
        "id": snapshot.get("id"),
        "sides": names,
        "rounds": [
            {
                "number": stored["number"],
                "waiting": stored["waiting"],
                "key": stored.get("key"),
                "scores": [
                    {
                        "side": name,
                        "points": scored.scores[name],
                        "points_text": signed(scored.scores[name]),
                        "total": scored.totals[name],
                        "total_text": number(scored.totals[name]),
                    }
                    for name in names
                ],
            }
            for stored, scored in zip(rounds, status.rounds, strict=True)
        ],
        "totals": _totals(names, status.totals),
        "next_round": status.next_round,
        "dealer": dealer,
        "meld_requirement": _melds(names, melds),
        "finished": status.finished,
        "winner": status.winner,
        "tie": status.tie,
        "leader_text": standing(
            names,
            totals,
            len(rounds),
            finished=status.finished,
            winner=status.winner,
            tie=status.tie,
        ),
        "to_win": lines,
        "to_win_text": " · ".join(lines),
        "errors": problems,
        "left_out": left_out,
    }


def _page_pieces(
    snapshot: Mapping[str, Any],
    rules: engine.RuleSet,
    names: list[str],
    rounds: Sequence[Mapping[str, Any]],
    status: engine.GameStatus,
    dealer: str | None,
    melds: Sequence[int],
    to_win_lines: Sequence[str],
    *,
    can_score: bool,
) -> Json:
    """The game page's next round (or result), scoreboard and dealer line, as HTML."""
    public_id = str(snapshot.get("id") or "")
    if status.finished:
        winner = "" if status.tie or not status.winner else status.winner
        state = fragments.result_section_html(
            tie=bool(status.tie),
            winner=fragments.winner_text(winner, rules.words["side"]) if winner else "",
            final_score=fragments.final_score_text([(n, status.totals[n]) for n in names]),
        )
        dealer_line = ""
    else:
        state = fragments.next_round_html(
            next_round=status.next_round,
            dealer=dealer or "",
            melds=list(zip(names, melds, strict=True)),
            to_win=to_win_lines,
            enter_url=f"{fragments.game_path(public_id)}rounds/new/" if can_score else None,
        )
        dealer_line = fragments.dealer_html(dealer or "", list(zip(names, melds, strict=True)))
    scores = fragments.scoreboard_html(
        names,
        [
            {
                "number": stored["number"],
                "waiting": stored["waiting"],
                "scores": [(scored.scores[n], scored.totals[n]) for n in names],
            }
            for stored, scored in zip(rounds, status.rounds, strict=True)
        ],
        [status.totals[n] for n in names],
        round_url=lambda number_: fragments.round_path(public_id, number_),
        panel=False,
    )
    return {"state_html": state, "scores_html": scores, "dealer_html": dealer_line}


GAME_OVER = "The game is over; reopen it or correct a round instead."


def _over(snapshot: Mapping[str, Any], played: engine.GameStatus | None) -> bool:
    """Whether the game is over after the rounds `played` scored (`_played`): ended by hand, or
    by its rules."""
    if snapshot.get("ended_by_hand"):
        return True
    # Rounds the engine refuses (None) are the game page's to report; the round itself is checked.
    return played is not None and played.finished


def _played(
    snapshot: Mapping[str, Any], rounds: Sequence[Mapping[str, Any]]
) -> engine.GameStatus | None:
    """The game after `rounds`, as its rules end it (not by hand); None when the engine refuses
    them. The rounds before the one a form is for stay the same at every keystroke, so the
    answer is kept, keyed by what it is scored from: a change then scores one round, not the
    whole game again."""
    try:
        text = json.dumps(
            [
                snapshot["rules"],
                snapshot["sides"],
                snapshot.get("decks"),
                [[r["ended_by"], r["entry"]] for r in rounds],
            ],
            sort_keys=True,
        )
    except (TypeError, ValueError):
        # Not JSON, so not from a phone (only a Python caller can pass it): scored, not kept.
        return _played_now(snapshot, rounds)
    return _played_from_text(text)


# A phone has one round form open at a time; a few more cover a form and its correction.
@functools.lru_cache(maxsize=4)
def _played_from_text(text: str) -> engine.GameStatus | None:
    rules, sides, decks, rounds = json.loads(text)
    return _played_now(
        {"rules": rules, "sides": sides, "decks": decks},
        [{"ended_by": ended_by, "entry": entry} for ended_by, entry in rounds],
    )


def _played_now(
    snapshot: Mapping[str, Any], rounds: Sequence[Mapping[str, Any]]
) -> engine.GameStatus | None:
    try:
        return _status(snapshot, rounds, finished=False)
    except engine.RoundError:
        return None


def _with_round(
    snapshot: Mapping[str, Any],
    rounds: Sequence[Mapping[str, Any]],
    candidate: Mapping[str, Any],
    earlier: engine.GameStatus | None,
) -> engine.GameStatus:
    """The game with `candidate` at its number, a new round or one of `rounds` corrected (the
    rounds after it then follow it), scored from `earlier` (the game after the rounds before
    it): the same status, or the same RoundError, as scoring every round gives."""
    number = int(candidate["number"])
    before, after = rounds[: number - 1], rounds[number:]
    finished = bool(snapshot.get("ended_by_hand")) and number <= len(rounds)
    if earlier is not None:
        try:
            return _status(snapshot, [candidate, *after], finished=finished, before=earlier)
        except engine.RoundError as error:
            if not any(item.path.startswith("before") for item in error.errors):
                raise
    # The rounds before it refused (their reasons are given as every round scored gives them),
    # or a game longer than the engine takes as a starting point: every round is scored.
    return _status(snapshot, [*before, candidate, *after], finished=finished)


def round_preview(
    snapshot: Mapping[str, Any], waiting: Sequence[Mapping[str, Any]], form: Mapping[str, str]
) -> Json:
    """The round form's live breakdown, as the server's round page previews it: the round as
    the engine takes it (what Save stores), each error at its field, or every side's lines;
    and the breakdown and the note beside Save as the server's page draws them
    (`preview_html`, `summary_html`)."""
    names = list(snapshot["sides"])
    rules = _rules(snapshot)
    rounds = _rounds(snapshot, waiting)
    posted = round_fields.posted_round_number(form)
    round_number = len(rounds) + 1 if posted is None else posted
    dealer_side = _dealer(snapshot, round_number)[0]
    ended_by, entry, errors = round_fields.parse(rules, len(names), form, dealer_side)
    status = None
    # Every round before this one: all of them for a new round, whose game may be over.
    earlier = _played(snapshot, rounds[: round_number - 1])
    if round_number > len(rounds) and _over(snapshot, earlier):
        # As the server refuses it (rounds.services.round_record), before any field is looked at.
        errors.append(engine.FieldError("", GAME_OVER))
    elif round_number > len(rounds) + 1:
        errors.append(
            engine.FieldError(
                "",
                f"The game is at round {len(rounds) + 1}, so round {round_number} cannot be "
                "entered yet.",
            )
        )
    else:
        candidate = {"number": round_number, "ended_by": ended_by, "entry": entry}
        try:
            status = _with_round(snapshot, rounds, candidate, earlier)
        except engine.RoundError as error:
            errors = round_fields.without_repeats(
                errors, round_fields.round_errors(error, round_number)
            )
    out: Json = {
        "ok": not errors,
        "errors": _errors(errors, round_fields.form_keys(rules, len(names))),
        "number": round_number,
        "ended_by": ended_by,
        "entry": entry,
        "counted": round_fields.counted_points(rules, entry),
        "sides": [],
        "totals_after": [],
    }
    if status is not None and not errors:
        scored = next(r for r in status.rounds if r.round == round_number)
        out["sides"] = _breakdown(scored)
        out["totals_after"] = _totals(names, scored.totals)
        out["preview_html"] = fragments.preview_html(
            number_=round_number,
            sides=scored.result.sides,
            totals=[(name, scored.totals[name]) for name in names],
        )
        out["summary_html"] = ""
    else:
        out["preview_html"] = fragments.preview_html(
            number_=round_number, note=fragments.PREVIEW_FIX
        )
        # The form is built for its errors only: a round that scores has nothing beside Save.
        placed = round_fields.build(rules, names, form, dealer_side, errors)
        out["summary_html"] = fragments.save_summary_html(placed, number_=round_number)
    return out


def _breakdown(scored: engine.GameRound) -> list[Json]:
    """Each side's lines of a scored round, as the round pages show them: the label, the points
    and, where the engine counts them, how many of how much ("2 × 500")."""
    return [
        {
            "name": side.name,
            "total": side.total,
            "total_text": signed(side.total),
            "lines": [
                {
                    "label": line.label,
                    "points": line.points,
                    "points_text": signed(line.points),
                    "count": line.count,
                    "each": line.each,
                    "note": line.note,
                    "count_text": ""
                    if line.count is None
                    else f"{number(line.count)} × {number(line.each or 0)}",
                }
                for line in side.lines
            ],
        }
        for side in scored.result.sides
    ]


def round_lines(
    snapshot: Mapping[str, Any], waiting: Sequence[Mapping[str, Any]], played: Mapping[str, Any]
) -> Json:
    """One round's breakdown at its place in the game, as the server's round page shows a stored
    round: `played` ({"number", "ended_by", "entry"}) scored after the rounds before its number
    (the stored ones, with the waiting ones in their places), whatever stands at its number or
    after it. For a round saved on two phones, each phone's version of it. Each side's lines as
    round_preview gives them and the totals after it; or, when the engine does not take it
    there, its reasons in `errors` and no lines."""
    names = list(snapshot["sides"])
    round_number = int(played["number"])
    before = [r for r in _rounds(snapshot, waiting) if int(r["number"]) < round_number]
    out: Json = {
        "ok": False,
        "errors": [],
        "number": round_number,
        "ended_by": played.get("ended_by"),
        "sides": [],
        "totals_after": [],
    }
    if len(before) != round_number - 1:
        message = f"The rounds before round {round_number} are not all on this phone."
        out["errors"] = [{"key": "__all__", "message": message}]
        return out
    candidate = {
        "number": round_number,
        "ended_by": played.get("ended_by"),
        "entry": played.get("entry") or [],
    }
    try:
        status = _status(snapshot, [*before, candidate], finished=False)
    except engine.RoundError as error:
        out["errors"] = [{"key": "__all__", "message": item.message} for item in error.errors]
        return out
    scored = status.rounds[round_number - 1]
    return {
        **out,
        "ok": True,
        "sides": _breakdown(scored),
        "totals_after": _totals(names, scored.totals),
        # Each side's lines as the round pages draw them, under the version's own heading.
        "sides_html": [
            fragments.breakdown_html(
                side.name, side.total, side.lines, level=4, total=scored.totals[side.name]
            )
            for side in scored.result.sides
        ],
    }


def start_game(preset: str, form: Mapping[str, str], game_id: str) -> Json:
    """A game started on the phone from the start page's fields, checked as the server checks
    them, as a snapshot with no rounds; or each error at its field."""
    if preset not in engine.RULESETS:
        known = listing(sorted(engine.RULESETS), last="or")
        message = f"There is no rule set called {preset}; choose one of {known}."
        return {"ok": False, "errors": [{"key": "__all__", "message": message}], "snapshot": None}
    rules = engine.RULESETS[preset]
    specs, dealer, overrides, problems, slots = start_fields.read_start(rules, form)
    names = [spec.name.strip() for spec in specs]
    played = rules
    if not problems:
        try:
            played = engine.resolve_rules({"base": preset, "overrides": overrides})
            # The engine checks the number of sides and their names as it does in a game.
            engine.game_status(played, names, [])
        except engine.RoundError as error:
            problems.extend(start_fields.at_slots(error.errors, slots))
    if problems:
        keys = set(start_fields.rule_values(rules))
        return {
            "ok": False,
            "errors": [
                {"key": start_fields.error_key(keys, item.path), "message": item.message}
                for item in problems
            ],
            "snapshot": None,
        }
    snapshot = {
        "id": game_id,
        "preset": played.id,
        # Every parameter, as the server freezes a game's rules at its start.
        "rules": {"base": played.id, "overrides": played.parameters()},
        "sides": names,
        "players": [list(spec.players) for spec in specs],
        "decks": None,
        "first_dealer": dealer,
        "ended_by_hand": False,
        "finished": False,
        "rounds": [],
        "version": None,
        "title": " vs ".join(names),
    }
    return {"ok": True, "errors": [], "snapshot": snapshot}


def _field(item: round_fields.Field, group: str) -> Json:
    return {
        "key": item.key,
        "label": item.label,
        "kind": item.kind,
        "help": item.help,
        "step": item.step,
        "group": group,
    }


def _pile(pile: round_fields.Pile, group: str) -> Json:
    return {
        "points": _field(pile.points, group),
        "cards_key": pile.cards_key,
        "cards": [
            {
                "key": card.key,
                "rank": card.rank,
                "label": card.label,
                "points": card.points,
                "points_text": number(card.points),
            }
            for card in pile.cards
        ],
    }


def round_form(snapshot: Mapping[str, Any], waiting: Sequence[Mapping[str, Any]]) -> Json:
    """What the phone needs to draw the next round's form for a game with no server page yet:
    each side's fields (the server form's keys and labels), the dealer, the opening melds."""
    names = list(snapshot["sides"])
    rules = _rules(snapshot)
    view = game_view(snapshot, waiting)
    round_number = view["next_round"] or len(view["rounds"])
    dealer_side, dealer = _dealer(snapshot, round_number)
    form = round_fields.build(rules, names, {}, dealer_side)
    sides = []
    for block, name in zip(form.blocks, names, strict=True):
        melded, hand = _pile(block.melded, "melded"), _pile(block.hand, "hand")
        before = [_field(f, "before") for f in block.before_piles]
        canastas = [_field(f, "canastas") for f in block.canastas]
        after = [_field(f, "after") for f in block.after_piles]
        books = [{"kind_key": b.kind_key, "points_key": b.points_key} for b in block.open_books]
        sides.append(
            {
                "name": name,
                "key": block.key,
                "went_out_value": block.went_out_value,
                "is_dealer": block.is_dealer,
                "canastas": canastas,
                "before": before,
                "melded": melded,
                "hand": hand,
                "after": after,
                "open_books": books,
                "fields": [
                    *[f for f in before if f["kind"] == "flag"],
                    *canastas,
                    *[f for f in before if f["kind"] != "flag"],
                    melded["points"],
                    hand["points"],
                    *after,
                ],
            }
        )
    return {
        "number": round_number,
        "finished": view["finished"],
        "dealer": dealer,
        "dealer_side": dealer_side,
        "stock_value": round_fields.STOCK,
        "side_word": rules.words["side"],
        "kinds": [{"kind": kind, "label": label} for kind, label in form.kinds],
        "sides": sides,
        "meld_requirement": view["meld_requirement"],
        "totals": view["totals"],
        # The form as the server's round page draws it, empty.
        "fields_html": fragments.round_fields_html(form, names, stock=round_fields.STOCK),
        "dealer_html": view["dealer_html"],
        "preview_html": fragments.preview_html(number_=round_number),
    }
