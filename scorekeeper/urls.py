from django.contrib import admin
from django.urls import include, path

from scorekeeper import views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.game_list, name="game_list"),
    path("leagues/", include("leagues.urls")),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
