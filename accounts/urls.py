"""Routes of accounts: Django's own auth views with the site's templates (``auth_urlpatterns``,
names as Django's views expect them), the app's pages (namespace "accounts") and its API
(``api_urlpatterns``, mounted under /api/ beside the events API)."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import api, views
from accounts.forms import LocalizedPasswordResetForm

auth_urlpatterns = [
    path("accounts/password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path(
        "accounts/password/reset/",
        auth_views.PasswordResetView.as_view(form_class=LocalizedPasswordResetForm),
        name="password_reset",
    ),
    path("accounts/password/reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(success_url=reverse_lazy("password_reset_complete")),
        name="password_reset_confirm",
    ),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]

page_urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", views.profile, name="profile"),
    path("join/<str:token>/", views.join, name="join"),
    path("events/<int:event_id>/registration/", views.registration_settings, name="registration"),
    path("events/<int:event_id>/registration/venue/", views.venue_sheet, name="venue"),
    path("events/<int:event_id>/registration/import/", views.import_player_list, name="import-players"),
    path("events/<int:event_id>/drop/", views.drop, name="drop"),
    path("events/<int:event_id>/registration/players.csv", views.players_export, name="players-csv"),
    path("events/<int:event_id>/waitlist/leave/", views.leave_waitlist, name="leave-waitlist"),
    path("events/<int:event_id>/check-in/", views.check_in_me, name="check-in"),
    path("events/<int:event_id>/check-in/list/", views.check_in_list, name="check-in-list"),
]

api_urlpatterns = [
    path("events/<int:pk>/players.csv", api.PlayersCsvView.as_view(), name="api-players-csv"),
    path("events/<int:pk>/waitlist/", api.WaitlistView.as_view(), name="api-waitlist"),
]
