"""Signals other apps listen to, so that the kitchen-table app never imports them."""

from django.dispatch import Signal

# Sent inside the transaction that stored a game's scores, with `game`, `sides` (in seating
# order), `status` (the engine's GameStatus) and `whole` (False when `status.rounds` holds only
# the rounds just scored, from the totals before them; None with `whole` False when nothing was
# scored again, as when another side confirms a round), so a listener's writes commit or roll
# back with the scores.
game_scored = Signal()
