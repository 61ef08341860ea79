"""Read queries over the card catalogue: look-up by any name, search, suggestions."""

from __future__ import annotations

import difflib
import threading

from django.db.models import Case, IntegerField, Max, Prefetch, Q, QuerySet, Value, When

from cards.models import Card, CardFace, ChecklistCard, ChecklistEntry, Printing
from cards.naming import normalize_name

MAX_QUERY_LENGTH = 200


def card_queryset() -> QuerySet[Card]:
    """Cards with everything a card page or API response shows, in a fixed number of queries."""
    return Card.objects.prefetch_related(
        Prefetch("faces", queryset=CardFace.objects.order_by("position")),
        Prefetch(
            "printings",
            queryset=Printing.objects.select_related("card_set").order_by(
                "card_set__release_date", "card_set__code", "collector_number"
            ),
        ),
        Prefetch(
            "checklist_entries",
            queryset=ChecklistEntry.objects.select_related("checklist"),
        ),
    )


def find_card(query: str | int) -> Card | None:
    """The one card a query names: its id, its full name or any face's name.

    Case, accents and punctuation are ignored. A full-name match wins over a face-name
    match ("Sejiri Shelter" is a face; no card has that full name).
    """
    if isinstance(query, int) or (isinstance(query, str) and query.strip().isdigit()):
        return card_queryset().filter(pk=int(query)).first()
    key = normalize_name(str(query))
    if not key:
        return None
    card = card_queryset().filter(search_name=key).first()
    if card is None:
        card = card_queryset().filter(faces__search_name=key).order_by("pk").first()
    return card


def find_cards(names: list[str]) -> dict[str, Card | None]:
    """Resolve many names at once (decklists, cube lists): name -> card, or None if unknown.

    Same matching as :func:`find_card` (full name first, then any face), in two queries.
    """
    keys = {name: normalize_name(name) for name in names}
    wanted = set(keys.values()) - {""}
    by_full = {c.search_name: c for c in Card.objects.filter(search_name__in=wanted)}
    by_face: dict[str, Card] = {}
    missing = wanted - set(by_full)
    if missing:
        faces = (CardFace.objects.filter(search_name__in=missing).select_related("card")
                 .order_by("card_id", "position"))
        for face in faces:
            by_face.setdefault(face.search_name, face.card)
    return {name: by_full.get(key) or by_face.get(key) for name, key in keys.items()}


def search_cards(query: str = "", *, layout: str | None = None,
                 set_code: str | None = None) -> QuerySet[Card]:
    """Cards whose full name or any face name contains the query, best matches first.

    Ranking: exact name, then names starting with the query, then the rest, alphabetically.
    """
    cards = card_queryset()
    if layout:
        cards = cards.filter(layout=layout)
    if set_code:
        cards = cards.filter(printings__card_set__code__iexact=set_code)
    key = normalize_name(query or "")
    if not key:
        return cards.distinct().order_by("name")
    matching_ids = (
        Card.objects.filter(Q(search_name__contains=key) | Q(faces__search_name__contains=key))
        .values("pk")
    )
    cards = cards.filter(pk__in=matching_ids)
    exact = set(
        Card.objects.filter(Q(search_name=key) | Q(faces__search_name=key)).values_list("pk", flat=True)
    )
    prefix = set(
        Card.objects.filter(Q(search_name__startswith=key) | Q(faces__search_name__startswith=key))
        .values_list("pk", flat=True)
    )
    return cards.distinct().annotate(
        rank=Case(
            When(pk__in=exact, then=Value(0)),
            When(pk__in=prefix, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
    ).order_by("rank", "name")


class _NameIndex:
    """Every full and face name, folded, for "did you mean" suggestions.

    Rebuilt only when the catalogue changes (its row count or last update moves), so a
    suggestion costs one small aggregate query plus an in-memory fuzzy match.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: tuple | None = None
        self._names: dict[str, str] = {}

    def names(self) -> dict[str, str]:
        version = tuple(Card.objects.aggregate(n=Max("pk"), t=Max("updated_at")).values()) + (
            Card.objects.count(),
        )
        with self._lock:
            if version != self._version:
                names: dict[str, str] = {}
                for name, in Card.objects.values_list("name"):
                    names.setdefault(normalize_name(name), name)
                for name, in CardFace.objects.values_list("name"):
                    names.setdefault(normalize_name(name), name)
                self._names, self._version = names, version
            return self._names


_name_index = _NameIndex()


def suggest_names(query: str, limit: int = 5) -> list[str]:
    """Real card or face names close to a misspelt query ("Gatstaf Sheperd")."""
    key = normalize_name(query or "")
    if not key:
        return []
    names = _name_index.names()
    close = difflib.get_close_matches(key, names.keys(), n=limit, cutoff=0.6)
    if len(close) < limit:
        # A fragment ("howler") is not "close" to a long name but is still a good hint.
        for folded in sorted(names):
            if len(close) >= limit:
                break
            if key in folded and folded not in close:
                close.append(folded)
    return [names[folded] for folded in close]


def checklist_queryset() -> QuerySet[ChecklistCard]:
    return ChecklistCard.objects.prefetch_related(
        Prefetch("entries", queryset=ChecklistEntry.objects.select_related("card"))
    )


MAX_CHECKLIST_MATCHES = 60


def search_checklists(query: str) -> list[ChecklistCard]:
    """Checklist and substitute cards whose name (or "set number" label) matches the query,
    each with the cards it lists: they are not catalogue cards, but players and judges look
    them up by name ("Innistrad Checklist", "Double-Faced Substitute Card")."""
    key = normalize_name(query or "")
    if not key:
        return []
    return list(checklist_queryset().filter(search_name__contains=key)
                .order_by("set_code", "collector_number")[:MAX_CHECKLIST_MATCHES])
