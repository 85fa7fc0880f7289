"""The organiser's pages of a league: settings, seasons, members, club nights, voids, audit."""

urlpatterns: list = []
