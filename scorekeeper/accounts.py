"""Accounts: the sign-up form, the page shown when sign-in attempts are locked out and the
client address those attempts are counted by."""

import ipaddress

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

LOCKED_OUT_STATUS = 429


class SignupForm(UserCreationForm):
    """A username, an e-mail address (a forgotten password is reset by mail) and a password."""

    email = forms.EmailField(
        label="E-mail address",
        max_length=254,
        help_text="Used only to reset a forgotten password.",
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = get_user_model().objects.normalize_email(self.cleaned_data["email"])
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account with this e-mail address already exists. Sign in, or reset its "
                "password."
            )
        return email


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
