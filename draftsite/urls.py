from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from accounts import urls as account_urls
from accounts import views as account_views
from cards import urls as card_urls
from cards.views import pages as card_pages
from decks import urls as deck_urls
from drafts import urls as draft_urls
from draftsite import views
from draftsite.api import ObtainTokenView
from events import urls as event_urls
from judgecalls import urls as judgecall_urls
from matches import urls as match_urls
from paper import urls as paper_urls
from penalties import urls as penalty_urls
from push import urls as push_urls
from rulesdesk import urls as rulesdesk_urls
from sealed import urls as sealed_urls

api_patterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("auth/token/", ObtainTokenView.as_view(), name="api-token"),
    *card_urls.api_urlpatterns,
    *rulesdesk_urls.api_urlpatterns,
    *draft_urls.api_urlpatterns,
    *event_urls.api_urlpatterns,
    *account_urls.api_urlpatterns,
    *deck_urls.api_urlpatterns,
    *penalty_urls.api_urlpatterns,
    *match_urls.api_urlpatterns,
    *paper_urls.api_urlpatterns,
    *judgecall_urls.api_urlpatterns,
    *push_urls.api_urlpatterns,
    *sealed_urls.api_urlpatterns,
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    *push_urls.root_urlpatterns,
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The language switcher posts here; the choice is kept in the language cookie.
    # (Signed in, it becomes the profile's preferred language too: accounts.views.)
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    # The live pages' script strings in the page's language (static/js/*.js call gettext()).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    *account_urls.auth_urlpatterns,
    path("", include((account_urls.page_urlpatterns, "accounts"))),
    path("admin/", admin.site.urls),
    path("api/", include(api_patterns)),
    path("cards/", include((card_urls.page_urlpatterns, "cards"))),
    path(
        "card-images/<int:printing_id>/<str:face>/<str:key>/",
        card_pages.card_image,
        name="card-image",
    ),
    path("rules/", include((rulesdesk_urls.page_urlpatterns, "rules"))),
    # The event pages: the draft engine's and the events app's, in one namespace (their names
    # are older than the events app).
    path("events/", include(([*draft_urls.page_urlpatterns, *event_urls.page_urlpatterns], "drafts"))),
    path("decks/", include((deck_urls.page_urlpatterns, "decks"))),
    path("penalties/", include((penalty_urls.page_urlpatterns, "penalties"))),
    path("matches/", include((match_urls.page_urlpatterns, "matches"))),
    path("paper/", include((paper_urls.page_urlpatterns, "paper"))),
    path("judge-calls/", include((judgecall_urls.page_urlpatterns, "judgecalls"))),
    path("notifications/", include((push_urls.page_urlpatterns, "push"))),
    path("sealed/", include((sealed_urls.page_urlpatterns, "sealed"))),
]

handler400 = "draftsite.views.bad_request"
handler403 = "draftsite.views.permission_denied"
handler404 = "draftsite.views.page_not_found"
handler500 = "draftsite.views.server_error"
