"""What the round page does with a posted round: preview it, refuse it, ask first, save it, or
say another phone got there first. The view only turns the answer into HTTP."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import OperationalError

from scorekeeper import busy, engine
from scorekeeper.games.scoring import preview_round, round_errors
from scorekeeper.games.selectors import GameView
from scorekeeper.games.store import Conflict
from scorekeeper.models import Game, Round
from scorekeeper.portable import round_fields
from scorekeeper.rounds import services

FORM = "form"  # GET: the form, blank or with the stored round
PREVIEW = "preview"  # htmx, as the player types: nothing is saved
REFUSED = "refused"  # Save with errors: the form again, each error beside its field
CONFIRM = "confirm"  # a correction that adds up: asked first, with the totals before and after
SAVED = "saved"
CONFLICT = "conflict"  # another phone changed the game first
BUSY = "busy"  # the database could not start the write in time: the same form, to send again


@dataclass(frozen=True)
class RoundPost:
    """The answer to one posted round form."""

    kind: str
    form: round_fields.RoundForm | None = None
    # The round as the engine scored it, and every side's total after it, when it adds up.
    preview: engine.GameRound | None = None
    new_totals: Mapping[str, int] = field(default_factory=dict)
    counted: Mapping[str, int] = field(default_factory=dict)
    # The form's button asks "Yes, save the correction" rather than "Save correction".
    confirm: bool = False
    conflict: Conflict | None = None
    message: str = ""
    # A new round just stored, which its phone may undo for a short while.
    saved: Round | None = None

    @property
    def status_code(self) -> int:
        return 503 if self.kind == BUSY else 200


def round_post(
    *,
    game: Game,
    view: GameView,
    number: int,
    dealer: int,
    data: Mapping[str, Any],
    htmx: bool,
    user: Any = None,
    phone: str = "",
) -> RoundPost:
    """Decide what a posted round form does: htmx previews, a plain post saves a new round,
    a correction is saved only once `confirm` says the player saw the new totals."""
    rules, sides = view.rules, view.sides
    editing = number <= view.played
    ended_by, entry, problems = round_fields.parse(rules, len(sides), data, dealer)

    def preview() -> tuple[engine.GameStatus | None, list[engine.FieldError]]:
        return preview_round(game, sides, view.rounds, number, ended_by, entry, played=view.played)

    # A new round saved as typed is scored once, by its save; the preview is scored only for
    # what a page shows: the round as it is typed, a correction to confirm, a refusal.
    saving_new = not htmx and not editing and not problems
    status, errors = (None, []) if saving_new else preview()
    errors = round_fields.without_repeats(problems, errors)
    counted = round_fields.counted_points(rules, entry)

    def page(kind: str, errors: list[engine.FieldError], status=status) -> RoundPost:
        shown = status if kind in (PREVIEW, CONFIRM, BUSY) and status is not None else None
        if kind == PREVIEW and errors:
            shown = None
        return RoundPost(
            kind=kind,
            form=round_fields.build(rules, sides, data, dealer, errors, counted),
            preview=next(r for r in shown.rounds if r.round == number) if shown else None,
            new_totals=shown.totals if shown else {},
            counted=counted,
            # A busy database refused a confirmed correction: the same question, to send again.
            confirm=kind == CONFIRM or (kind == BUSY and editing and shown is not None),
        )

    if htmx:
        return page(PREVIEW, errors)
    if errors:
        return page(REFUSED, errors)
    if editing and not data.get("confirm"):
        return page(CONFIRM, errors)
    try:
        if editing:
            services.round_update(
                game=game,
                number=number,
                ended_by=ended_by,
                entry=entry,
                user=user,
                version=data.get("round_version") or None,
                phone=phone,
            )
        else:
            saved = services.round_record(
                game=game, number=number, ended_by=ended_by, entry=entry, user=user, phone=phone
            )
    except Conflict as conflict:
        return RoundPost(kind=CONFLICT, conflict=conflict)
    except engine.RoundError as error:
        return page(REFUSED, round_errors(error, number))
    except OperationalError as error:
        if not busy.is_busy(error):
            raise
        # Rolled back: the same form, as typed, to send again, with its breakdown.
        return page(BUSY, [engine.FieldError("", busy.BUSY)], status or preview()[0])
    if editing:
        return RoundPost(kind=SAVED, message=f"Round {number} corrected.")
    return RoundPost(kind=SAVED, message=f"Round {number} saved.", saved=saved)
