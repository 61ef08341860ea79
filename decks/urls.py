"""Routes of the decks app: API (included under /api/) and pages (under /decks/)."""

from django.urls import path

from decks.api import judges, players
from decks.views import exports as export_pages
from decks.views import history as history_pages
from decks.views import judges as judge_pages
from decks.views import players as player_pages

api_urlpatterns = [
    # The stateless check and the parser, with or without the trailing slash.
    path("decks/validate", players.ValidateView.as_view(), name="decks-validate"),
    path("decks/validate/", players.ValidateSlashView.as_view(), name="decks-validate-slash"),
    path("decks/parse", players.ParseView.as_view(), name="decks-parse"),
    path("decks/parse/", players.ParseSlashView.as_view(), name="decks-parse-slash"),
    path("decks/<int:pk>/", players.DeckDetailView.as_view(), name="decks-detail"),
    path("decks/<int:pk>/revalidate/", players.RevalidateView.as_view(), name="decks-revalidate"),
    path("decks/<int:pk>/corrections/", judges.CorrectionsView.as_view(), name="decks-corrections"),
    path("decks/<int:pk>/checks/", judges.DeckChecksView.as_view(), name="decks-checks"),
    path("events/<int:event_id>/deck/", players.MyDeckView.as_view(), name="decks-my-deck"),
    path("events/<int:event_id>/pool/", players.MyPoolView.as_view(), name="decks-my-pool"),
    path("events/<int:event_id>/decks/", judges.EventDecksView.as_view(), name="decks-event-list"),
    path("events/<int:event_id>/deck-checks/", judges.EventDeckChecksView.as_view(), name="decks-event-checks"),
    path("events/<int:event_id>/deck-check-selections/", judges.SelectionsView.as_view(), name="decks-selections"),
    path("events/<int:event_id>/deck-rules/", judges.DeckRulesView.as_view(), name="decks-rules"),
    path("registrations/<int:pk>/sealed-pool/", judges.SealedPoolView.as_view(), name="decks-sealed-pool"),
]

page_urlpatterns = [
    path("", player_pages.index, name="index"),
    path("events/<int:event_id>/", player_pages.my_deck, name="my-deck"),
    path("events/<int:event_id>/judge/", judge_pages.event_decks, name="event-decks"),
    path("events/<int:event_id>/deck-checks/", judge_pages.deck_checks, name="deck-checks"),
    path("events/<int:event_id>/sealed/", judge_pages.sealed_pools, name="sealed-pools"),
    path("<int:pk>/", player_pages.deck_detail, name="detail"),
    path("<int:pk>/print/", player_pages.print_deck, name="print"),
    path("<int:pk>/export/", export_pages.export_deck, name="export-deck"),
    path("events/<int:event_id>/pool/export/", export_pages.export_pool, name="export-pool"),
    path("events/<int:event_id>/exports.zip", export_pages.export_event, name="export-event"),
    path("events/<int:event_id>/pick-data.csv", export_pages.export_pick_data, name="export-pick-data"),
    path("drafts/", history_pages.my_drafts, name="drafts"),
    path("drafts/<int:seat_id>/", history_pages.draft_log, name="draft-log"),
    path("drafts/<int:seat_id>/mtgo.txt", history_pages.draft_log_mtgo, name="draft-log-mtgo"),
    path("pods/<int:pod_id>/logs-public/", history_pages.pod_logs_public, name="pod-logs-public"),
    path("events/<int:event_id>/pick-data-sharing/", history_pages.pick_data_sharing, name="pick-data-sharing"),
    path("<int:pk>/correct/", judge_pages.correct, name="correct"),
    path("<int:pk>/check/", judge_pages.record_check, name="check"),
]
