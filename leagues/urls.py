from django.urls import include, path

from leagues import views

app_name = "leagues"

urlpatterns = [
    # The organiser's routes first: "new/" must not be read as a league's slug.
    path("", include("leagues.organiser_urls")),
    path("", views.league_list, name="list"),
]
