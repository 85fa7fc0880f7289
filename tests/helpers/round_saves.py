"""Saving a round with its SQL captured, to compare the statements of two saves."""

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.rounds.services import round_record

ENTRY = [{"melded_points": 50}, {"melded_points": 40, "hand_points": 15}]


def shape(sql: str, game) -> str:
    named = sql.replace(game.public_id, "ID").replace(game.scorer_token, "TOKEN")
    return re.sub(r"\d+", "N", named)


def saved_with_queries(game, number: int) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        round_record(game=game, number=number, ended_by="stock_exhausted", entry=ENTRY)
    return [query["sql"] for query in queries.captured_queries]
