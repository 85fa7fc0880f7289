"""Signals other apps listen to, so that the kitchen-table app never imports them."""

from django.dispatch import Signal

# Sent inside the transaction that stored a game's scores, with `game`, `sides` (in seating
# order) and `status` (the engine's GameStatus), so a listener's writes commit or roll back
# with the scores.
game_scored = Signal()
