"""Sign-up: a username and an address, then a password chosen from the link mailed there."""

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import SetPasswordForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from scorekeeper.accounts.services import SignupForm, account_create, signup_claims, signup_mail


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            signup_mail(
                request, username=form.cleaned_data["username"], email=form.cleaned_data["email"]
            )
        except ValidationError as limited:
            form.add_error(None, limited)
            return render(request, "registration/signup.html", {"form": form}, status=429)
        request.session["signup_sent_to"] = form.cleaned_data["email"]
        return redirect("signup_sent")
    return render(request, "registration/signup.html", {"form": form})


@require_GET
def signup_sent(request: HttpRequest) -> HttpResponse:
    email = request.session.get("signup_sent_to", "")
    return render(request, "registration/signup_sent.html", {"email": email})


@require_http_methods(["GET", "POST"])
def signup_finish(request: HttpRequest, token: str) -> HttpResponse:
    claims = signup_claims(token)
    if claims is None:
        return render(request, "registration/signup_finish.html", {"valid": False})
    if get_user_model().objects.filter(username=claims["username"]).exists():
        return render(request, "registration/signup_finish.html", {"used": True, "valid": True})
    # An unsaved account, so that the password is checked against its username and address.
    draft = get_user_model()(username=claims["username"], email=claims["email"])
    form = SetPasswordForm(draft, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_create(
                username=claims["username"],
                email=claims["email"],
                password=form.cleaned_data["new_password1"],
            )
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            # Named because django-axes adds a second backend, which only watches sign-ins.
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.username}: your account is ready.")
            return redirect("home")
    context = {"valid": True, "form": form, "username": claims["username"]}
    return render(request, "registration/signup_finish.html", context)
