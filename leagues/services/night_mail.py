"""A club night's results mailed to the league's members who have an address, by the
organiser's hand once the night is closed: one message each, so that no member sees another's
address."""

import datetime
import smtplib

from django.core.mail import EmailMessage, get_connection
from django.db import transaction

from leagues.models import ClubNight, LeagueEvent
from leagues.night_results import results_addresses, results_sent
from leagues.services.core import User, record_event, refusal
from leagues.services.seasons import day_text
from scorekeeper.engine.formatting import number

# A second send within this long is taken for the same send made twice (a double tap, two
# organisers at once) and refused: the members would get the results twice.
RESENT_AFTER = datetime.timedelta(minutes=10)


@transaction.atomic
def night_results_send(
    *, night: ClubNight, subject: str, body: str, user: User, now: datetime.datetime
) -> int:
    """Mail the night's results to its members with an address; returns how many were sent."""
    # The night locked: two sends at once queue here, and the second finds the first's event.
    night = ClubNight.objects.select_for_update().select_related("league").get(pk=night.pk)
    when = day_text(night.date)
    if night.closed_at is None:
        raise refusal("night", f"Close the club night of {when} first: its results are not final.")
    last = results_sent(night)
    if last is not None and now - last.at < RESENT_AFTER:
        raise refusal(
            "night",
            f"The results of the club night of {when} were sent to the members less than "
            f"{number(RESENT_AFTER.seconds // 60)} minutes ago; they are not sent twice.",
        )
    addresses = results_addresses(night)
    if not addresses:
        raise refusal(
            "night",
            f"No member of {night.league.name} has an email address: link members to their "
            "accounts on the members' page.",
        )
    messages = [EmailMessage(subject, body, None, [address]) for address in addresses]
    try:
        sent = get_connection().send_messages(messages) or 0
    except (OSError, smtplib.SMTPException):
        raise refusal("night", "The mail server refused the results; try again later.") from None
    record_event(
        night.league,
        LeagueEvent.Kind.RESULTS_SENT,
        user,
        f"Results of the club night of {when} sent to {number(sent)} "
        f"member{'s' if sent != 1 else ''}",
        after={"night": night.pk, "sent": sent},
    )
    return sent
