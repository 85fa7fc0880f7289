"""Accounts: sign-up by a link mailed to the address, the page shown when sign-in attempts are
locked out and the client address those attempts are counted by."""

import ipaddress

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


def signup_mail(request: HttpRequest, *, username: str, email: str) -> None:
    """Mail the address the link to finish signing up or, when an account has it already, a
    note to that account's owner: the page after sign-up says the same either way."""
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
