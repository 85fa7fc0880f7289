"""The display choices a phone keeps in a cookie: read from each request into the page's
classes and data attributes (one code path: the server draws the page as chosen, so there is no
flash of the wrong colours), and written back by the settings form."""

from dataclasses import dataclass, replace
from urllib.parse import urlencode

from django.http import HttpRequest, QueryDict

COOKIE = "display"
# A year: the phone keeps what its player chose.
COOKIE_AGE = 365 * 24 * 60 * 60

TEXT = {"normal": "Normal", "large": "Large"}
THEME = {"auto": "As this phone is set", "light": "Light", "dark": "Dark"}
AWAKE = {"on": "On", "off": "Off"}
SPEAK = {"off": "Off", "on": "On"}
CHOICES = {"text": TEXT, "theme": THEME, "awake": AWAKE, "speak": SPEAK}


@dataclass(frozen=True)
class Display:
    """One phone's display choices; the defaults are what a phone without the cookie gets."""

    text: str = "normal"
    theme: str = "auto"
    awake: str = "on"
    speak: str = "off"

    @property
    def classes(self) -> str:
        """The classes on <html> that static/css/app.css draws the choices from."""
        return " ".join(
            name
            for name, chosen in (
                ("large-text", self.text == "large"),
                ("theme-light", self.theme == "light"),
                ("theme-dark", self.theme == "dark"),
            )
            if chosen
        )

    @property
    def color_scheme(self) -> str:
        """The <meta name="color-scheme"> the browser's own controls follow."""
        return {"auto": "light dark", "light": "light", "dark": "dark"}[self.theme]

    def cookie(self) -> str:
        return urlencode({name: getattr(self, name) for name in CHOICES})


def display_of(request: HttpRequest) -> Display:
    """The phone's choices from its cookie; anything unknown in it is left at the default."""
    kept = QueryDict(request.COOKIES.get(COOKIE, ""))
    return Display(
        **{name: kept[name] for name, allowed in CHOICES.items() if kept.get(name) in allowed}
    )


def display_chosen(data: QueryDict, before: Display) -> tuple[Display, dict[str, str]]:
    """The choices a form posted, over `before`; with an error per field whose value is not
    one of its choices (that field keeps its value before)."""
    chosen, errors = {}, {}
    for name, allowed in CHOICES.items():
        value = data.get(name)
        if value is None:
            continue
        if value in allowed:
            chosen[name] = value
        else:
            errors[name] = f"Choose one of: {', '.join(allowed.values())}."
    return replace(before, **chosen), errors


def display_context(request: HttpRequest) -> dict[str, Display]:
    """Context processor: every page knows the phone's display choices."""
    return {"display": display_of(request)}
