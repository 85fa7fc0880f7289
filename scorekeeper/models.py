import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from scorekeeper import engine


def new_token() -> str:
    # 128 bits: an address nobody can guess, short enough to share by text message.
    return secrets.token_urlsafe(16)


class GameQuerySet(models.QuerySet):
    def for_listing(self) -> "GameQuerySet":
        """Games with their sides and rounds played, unfinished first, newest first."""
        return (
            self.prefetch_related("sides")
            .annotate(rounds_played=models.Count("rounds", distinct=True))
            .order_by("finished", "-updated_at")
        )


class Game(models.Model):
    """A game of one rule set, frozen at its start, between sides in seating order."""

    public_id = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    scorer_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    preset = models.CharField(max_length=32)
    # The complete parameter set at the start ({"base": preset, "overrides": {...every
    # parameter...}}), so that a later change to a preset never changes an old game.
    rules = models.JSONField()
    house_rules = models.JSONField(default=dict, blank=True)
    decks = models.PositiveSmallIntegerField(null=True, blank=True)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games",
    )
    finished = models.BooleanField(default=False)
    ended_by_hand = models.BooleanField(default=False)
    winner = models.ForeignKey(
        "Side", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    tie = models.BooleanField(default=False)
    # A league game whose rounds wait for another side's word (or the organiser's) before the
    # league counts the game: set when a league starts it, by the league's choice.
    confirm_rounds = models.BooleanField(default=False)
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~(Q(tie=True) & Q(winner__isnull=False)),
                name="game_tie_has_no_winner",
            ),
            models.CheckConstraint(
                condition=Q(finished=True) | (Q(tie=False) & Q(winner__isnull=True)),
                name="game_unfinished_has_no_result",
            ),
        ]

    def __str__(self) -> str:
        return " vs ".join(side.name for side in self.sides.all())


class Side(models.Model):
    """A player, or a team of two or three, in its seat at the table."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sides")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100)
    players = models.JSONField(default=list, blank=True)
    # The running total after the last round, kept with the round scores for pages that list
    # many games at once.
    total = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="side_unique_seat"),
            models.UniqueConstraint(fields=["game", "name"], name="side_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    """One round as the players entered it; the engine's input, kept as entered."""

    class EndedBy(models.TextChoices):
        GOING_OUT = "going_out", "Somebody went out"
        STOCK_EXHAUSTED = "stock_exhausted", "The stock ran out"

    class Confirmation(models.TextChoices):
        NONE = "", "Not asked"
        WAITING = "waiting", "Waiting for the other side"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    ended_by = models.CharField(max_length=20, choices=EndedBy.choices, default=EndedBy.GOING_OUT)
    # Per side, in seating order: the engine's round input for that side, as entered.
    entry = models.JSONField()
    # The key a phone gave the round when it scored it offline (a uuid4), so that sending it
    # again, after an answer lost on the way, never stores it twice. NULL, not "", for a round
    # typed online: the unique constraint leaves NULLs out.
    client_key = models.CharField(max_length=36, null=True, blank=True)  # noqa: DJ001
    # The phone that saved the round as it stands (`access.phone_id`): another phone's word on
    # it is the other side's, while the saving phone must be handed over ("Them: confirm").
    entered_phone = models.CharField(max_length=32, blank=True, default="")
    # In a game that confirms its rounds: whether the other side has agreed to the round as it
    # stands. Every save of the round sets it back to waiting.
    confirmation = models.CharField(
        max_length=10, choices=Confirmation.choices, blank=True, default=Confirmation.NONE
    )
    checked_by = models.CharField(max_length=150, blank=True, default="")
    checked_at = models.DateTimeField(null=True, blank=True)
    dispute_reason = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_unique_number"),
            models.UniqueConstraint(
                fields=["game", "client_key"],
                condition=Q(client_key__isnull=False),
                name="round_unique_client_key",
            ),
            # A game holds at most engine.ROUND_MAX rounds (the engine ends it there).
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=engine.ROUND_MAX),
                name="round_number_in_range",
            ),
            models.CheckConstraint(
                condition=Q(confirmation__in=["", "waiting", "confirmed", "disputed"]),
                name="round_confirmation_known",
            ),
            # A dispute always says why.
            models.CheckConstraint(
                condition=~Q(confirmation="disputed") | ~Q(dispute_reason=""),
                name="round_dispute_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"

    @property
    def version(self) -> str:
        """The round as last saved, for a form to say which round it was opened on: a
        correction or a deletion and re-entry since then changes it."""
        return self.updated_at.isoformat()


class RoundScore(models.Model):
    """A side's score for a round and its running total, stored for fast listing."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="scores")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="scores")
    # House rules allow scores past 32 bits (100 decks, a million a canasta).
    points = models.BigIntegerField()
    running_total = models.BigIntegerField()
    lines = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "side"], name="roundscore_unique_side"),
        ]

    def __str__(self) -> str:
        return f"{self.side_id} in round {self.round_id}: {self.points}"


class GameEvent(models.Model):
    """The game's history: who did what, when, with the values before and after."""

    class Kind(models.TextChoices):
        STARTED = "started", "Game started"
        ROUND_ADDED = "round_added", "Round entered"
        ROUND_CHANGED = "round_changed", "Round corrected"
        ROUND_DELETED = "round_deleted", "Round deleted"
        ENDED = "ended", "Game ended by hand"
        REOPENED = "reopened", "Game reopened"
        CLAIMED = "claimed", "Game claimed"
        ROUND_RESTORED = "round_restored", "Round restored"
        ROUND_CONFIRMED = "round_confirmed", "Round confirmed"
        ROUND_DISPUTED = "round_disputed", "Round disputed"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    who = models.CharField(max_length=150)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.who}"


class ScoringRight(models.Model):
    """A phone's right to score a game: it started the game or was given its scorer link.

    `phone` is the unguessable id the phone's session keeps (`scorekeeper.access.phone_id`); a row
    per right, so that rights granted at the same moment never overwrite each other."""

    phone = models.CharField(max_length=32)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scoring_rights")
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # Its index, phone first, is also the one that finds a phone's rights.
            models.UniqueConstraint(fields=["phone", "game"], name="scoringright_unique_game"),
        ]

    def __str__(self) -> str:
        return f"{self.phone} scores game {self.game_id}"


class SignupMail(models.Model):
    """A sign-up mail sent, kept an hour to limit how many go to one address or from one client
    (scorekeeper.accounts.services.signup_mail_count). The address is kept as a keyed hash."""

    address = models.CharField(max_length=64)
    client = models.CharField(max_length=45, blank=True)
    sent_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["address", "sent_at"], name="signupmail_address_sent"),
            models.Index(fields=["client", "sent_at"], name="signupmail_client_sent"),
        ]

    def __str__(self) -> str:
        return f"Sign-up mail at {self.sent_at:%Y-%m-%d %H:%M}"
