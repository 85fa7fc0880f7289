"""Accounts: sign-up by a link mailed to the address, the page shown when sign-in attempts are
locked out and the client address those attempts are counted by."""

import ipaddress
from datetime import datetime, timedelta

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from scorekeeper.models import SignupMail

LOCKED_OUT_STATUS = 429


class SignupForm(forms.ModelForm):
    """A username and an e-mail address; the password is chosen from the link mailed there."""

    email = forms.EmailField(
        label="E-mail address",
        max_length=254,
        help_text="We send a link there to finish signing up; later, to reset a forgotten "
        "password.",
    )

    class Meta:
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        # Whether an account has this address is never said here: the mail tells its owner.
        return get_user_model().objects.normalize_email(self.cleaned_data["email"])


SIGNUP_SALT = "scorekeeper.accounts.signup"


def signup_token(*, username: str, email: str) -> str:
    """The signed, dated proof that whoever opens the link reads mail at this address."""
    return signing.dumps({"username": username, "email": email}, salt=SIGNUP_SALT)


def signup_claims(token: str) -> dict | None:
    """The username and address a sign-up link was made for; None when forged or too old."""
    try:
        return signing.loads(token, salt=SIGNUP_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        return None


SIGNUP_WINDOW = timedelta(hours=1)


@transaction.atomic
def signup_mail_count(*, email: str, client: str | None) -> None:
    """Count one more sign-up mail to `email` from `client`; raises ValidationError, and counts
    nothing, when either has had its share of the last hour."""
    now = timezone.now()
    # Rows older than the hour count for nothing: they go as the next mail is counted.
    SignupMail.objects.filter(sent_at__lt=now - SIGNUP_WINDOW).delete()
    address = salted_hmac("scorekeeper.accounts.signup-mail", email.lower()).hexdigest()
    sent = _sent_within(now, settings.SIGNUP_MAILS_PER_ADDRESS, address=address)
    if len(sent) >= settings.SIGNUP_MAILS_PER_ADDRESS:
        raise ValidationError(
            {
                "email": f"A sign-up link went to this address {_times(len(sent))} in the last "
                "hour, as many as we send. Look for it in your inbox and spam folder, or ask "
                f"again in {_wait(sent[0] + SIGNUP_WINDOW - now)}."
            }
        )
    sent = _sent_within(now, settings.SIGNUP_MAILS_PER_CLIENT, client=client) if client else []
    if len(sent) >= settings.SIGNUP_MAILS_PER_CLIENT:
        raise ValidationError(
            f"{len(sent)} sign-up links went out from this connection in the last hour, as many "
            f"as we send. Please ask again in {_wait(sent[0] + SIGNUP_WINDOW - now)}."
        )
    SignupMail.objects.create(address=address, client=client or "")


def _sent_within(now: datetime, most: int, **match: str) -> list[datetime]:
    """When the (at most `most`) mails of the last hour that match were sent, oldest first."""
    recent = SignupMail.objects.filter(sent_at__gte=now - SIGNUP_WINDOW, **match)
    return list(recent.order_by("sent_at").values_list("sent_at", flat=True)[:most])


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _wait(left: timedelta) -> str:
    # Rounded up, so that asking again after the wait said always works.
    return cool_off_words(max(1, -(-int(left.total_seconds()) // 60)))


def signup_mail(request: HttpRequest, *, username: str, email: str) -> None:
    """Mail the address the link to finish signing up or, when an account has it already, a
    note to that account's owner: the page after sign-up says the same either way. Raises
    ValidationError, sending nothing, past the hour's share of the address or the client."""
    signup_mail_count(email=email, client=client_address(request))
    existing = get_user_model().objects.filter(email__iexact=email).order_by("pk").first()
    if existing is None:
        link = reverse(
            "signup_finish", kwargs={"token": signup_token(username=username, email=email)}
        )
        template, context = "registration/signup_email.txt", {"username": username}
    else:
        link = reverse("login")
        template, context = "registration/signup_exists_email.txt", {"username": existing.username}
    context |= {
        "link": request.build_absolute_uri(link),
        "reset": request.build_absolute_uri(reverse("password_reset")),
        "domain": request.get_host(),
    }
    subject = "Finish signing up to the Hand and Foot scorekeeper"
    send_mail(subject, render_to_string(template, context), None, [email])


@transaction.atomic
def account_create(*, username: str, email: str, password: str):
    """The account a sign-up link was made for, with its password; refused (ValidationError)
    when the username or the address was taken since."""
    users = get_user_model()
    if users.objects.filter(email__iexact=email).exists():
        raise ValidationError(
            "An account with this e-mail address exists already. Sign in, or reset its password."
        )
    user = users(username=username, email=email)
    user.set_password(password)
    user.full_clean()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        # Another request took the username between the check and the save.
        raise ValidationError({"username": "A user with that username already exists."}) from None
    return user


def cool_off_words(minutes: int) -> str:
    """A wait in words: "15 minutes", "1 hour", "1 hour and 30 minutes"."""
    hours, rest = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if rest or not hours:
        parts.append(f"{rest} minute{'s' if rest != 1 else ''}")
    return " and ".join(parts)


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes calls this once a username and address have failed too often."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "wait": cool_off_words(minutes),
    }
    return render(request, "registration/locked_out.html", context, status=LOCKED_OUT_STATUS)


def attempt_username(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """The username django-axes counts a sign-in attempt under, cut to the longest a username
    can be: a longer one is no account's, and axes' column would refuse it (a 500, not a
    "wrong username or password")."""
    given = credentials.get("username") if credentials else request.POST.get("username")
    if not isinstance(given, str):
        return None
    return given[: get_user_model()._meta.get_field("username").max_length]


def client_address(request: HttpRequest) -> str | None:
    """The address django-axes counts a sign-in attempt against (see TRUSTED_PROXY_COUNT)."""
    remote = request.META.get("REMOTE_ADDR")
    count = settings.TRUSTED_PROXY_COUNT
    if count == 0:
        return remote
    # Each proxy appends the address it was reached from, and the nearest one is REMOTE_ADDR:
    # the client is the count-th entry from the right. Entries left of it are whatever the
    # client sent, so they are never read.
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(forwarded) < count:
        return remote  # not through all the proxies
    candidate = forwarded[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
