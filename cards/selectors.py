"""Read queries over the card catalogue: look-up by any name, search, suggestions."""

from __future__ import annotations

import difflib
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Case, Exists, IntegerField, Max, OuterRef, Prefetch, Q, QuerySet, Value, When
from django.utils.translation import gettext

from cards import error_codes, languages
from cards.models import Card, CardFace, CardSet, ChecklistCard, ChecklistEntry, LocalizedName, Printing
from cards.name_folding import normalize_name
from draftsite import whole_numbers
from draftsite.errors import DomainError

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
        Prefetch("localized_names", queryset=LocalizedName.objects.order_by("position", "pk")),
    )


def card_by_id(pk: int) -> Card | None:
    """One card with its faces, printings and checklist entries (:func:`card_queryset`)."""
    return card_queryset().filter(pk=pk).first()


def printed_names_of(card: Card) -> dict[str, list[str]]:
    """A prefetched card's face names per printed language: {"pt-br": [front, back], ...}
    (the first wording of each face when reprints differ)."""
    faces: dict[str, dict[int, str]] = {}
    for row in card.localized_names.all():
        faces.setdefault(row.language, {}).setdefault(row.position, row.name)
    ordered = sorted(faces, key=_language_order)
    return {lang: [faces[lang][p] for p in sorted(faces[lang])] for lang in ordered}


def find_card(query: str | int) -> Card | None:
    """The one card a query names: its id, its full name or any face's name.

    Case, accents and punctuation are ignored. A full-name match wins over a face-name
    match ("Sejiri Shelter" is a face; no card has that full name).
    """
    card_id = whole_numbers.parse(query)
    if card_id is not None:
        return card_queryset().filter(pk=card_id).first()
    key = normalize_name(str(query))
    if not key:
        return None
    card = card_queryset().filter(search_name=key).first()
    if card is None:
        card = card_queryset().filter(faces__search_name=key).order_by("pk").first()
    if card is None:  # a name printed in another language, when it names one card only
        match = match_names([str(query)])[str(query)]
        card = card_queryset().filter(pk=match.card.pk).first() if match.card else None
    return card


@dataclass(frozen=True)
class NameMatch:
    """What a name as written (in a decklist, a search box) resolves to.

    ``language`` is "en" for an English (Oracle) name, the code of the printed language
    otherwise ("pt-br"); ``languages`` lists every language in which the text is this card's
    printed name ("Pastor de Gatstaf" is both Spanish and Portuguese). When several cards
    share the printed name, ``card`` is None and ``candidates`` lists them: the name is
    ambiguous and nothing is guessed.
    """

    card: Card | None
    language: str = ""
    languages: tuple[str, ...] = ()
    candidates: tuple[Card, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1


UNKNOWN = NameMatch(card=None)


def _key_variants(name: str) -> list[str]:
    """The folded name, then its front half when written "Front // Back"."""
    key = normalize_name(name)
    keys = [key] if key else []
    if " // " in key:
        keys.append(key.split(" // ")[0].strip())
    return keys


def match_names(names: Iterable[str]) -> dict[str, NameMatch]:
    """Resolve many names at once, in any printed language: name -> :class:`NameMatch`.

    The English full name wins, then an English face name, then a printed name in any other
    language (MTGJSON foreignData, Scryfall printed_name), case and accents ignored. Four
    queries at most, however long the list.
    """
    names = list(dict.fromkeys(names))
    keys = {name: _key_variants(name) for name in names}
    wanted = {key for variants in keys.values() for key in variants}
    by_full = {c.search_name: c for c in Card.objects.filter(search_name__in=wanted)}
    by_face: dict[str, Card] = {}
    missing = wanted - set(by_full)
    if missing:
        faces = CardFace.objects.filter(search_name__in=missing).select_related("card").order_by("card_id", "position")
        for face in faces:
            by_face.setdefault(face.search_name, face.card)
    printed: dict[str, dict[int, tuple[Card, set[str]]]] = {}
    missing -= set(by_face)
    if missing:
        rows = (
            LocalizedName.objects.filter(search_name__in=missing)
            .select_related("card")
            .order_by("card__name", "language")
        )
        for row in rows:
            cards = printed.setdefault(row.search_name, {})
            cards.setdefault(row.card_id, (row.card, set()))[1].add(row.language)
    result = {}
    for name, variants in keys.items():
        result[name] = UNKNOWN
        for key in variants:
            english = by_full.get(key) or by_face.get(key)
            if english is not None:
                result[name] = NameMatch(card=english, language=languages.ENGLISH, languages=(languages.ENGLISH,))
                break
            found = printed.get(key)
            if found and len(found) == 1:
                card, langs = next(iter(found.values()))
                ordered = tuple(sorted(langs, key=_language_order))
                result[name] = NameMatch(card=card, language=ordered[0], languages=ordered)
                break
            if found:
                result[name] = NameMatch(
                    card=None,
                    candidates=tuple(c for c, _ in found.values()),
                    languages=tuple(sorted({lang for _, ls in found.values() for lang in ls}, key=_language_order)),
                )
                break
    return result


def _language_order(code: str) -> tuple[int, str]:
    """The site's languages first (in their settings order), then the rest alphabetically."""
    site = [code.lower() for code, _ in settings.LANGUAGES]
    return (site.index(code), code) if code in site else (len(site), code)


def find_cards(names: list[str]) -> dict[str, Card | None]:
    """Resolve many names at once (decklists, cube lists): name -> card, or None if unknown
    or ambiguous. Same matching as :func:`match_names` (English first, then printed names)."""
    return {name: match.card for name, match in match_names(names).items()}


def printed_names(cards: Iterable[Card | int], language: str) -> dict[int, list[str]]:
    """Each card's face names as printed in ``language`` (face order), for cards that have
    them: {card id: ["Pastor de Gatstaf", "Uivador de Gatstaf"]}. One query."""
    ids = {c if isinstance(c, int) else c.pk for c in cards}
    if not ids or language == languages.ENGLISH:
        return {}
    out: dict[int, dict[int, str]] = {}
    rows = (
        LocalizedName.objects.filter(card_id__in=ids, language=language)
        .order_by("card_id", "position", "pk")
        .values_list("card_id", "position", "name")
    )
    for card_id, position, name in rows:
        out.setdefault(card_id, {}).setdefault(position, name)  # the first printing's wording
    return {card_id: [faces[p] for p in sorted(faces)] for card_id, faces in out.items()}


def search_cards(query: str = "", *, layout: str | None = None, set_code: str | None = None) -> QuerySet[Card]:
    """Cards whose full name, any face name or any printed name (every language) contains
    the query, best matches first.

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
    matching_ids = Card.objects.filter(Q(search_name__contains=key) | Q(faces__search_name__contains=key)).values("pk")
    # printed names are stored per face: "Front // Back" as printed is looked up by its front
    printed_key = key.split(" // ")[0].strip() if " // " in key else key
    printed_ids = LocalizedName.objects.filter(search_name__contains=printed_key).values("card_id")
    cards = cards.filter(Q(pk__in=matching_ids) | Q(pk__in=printed_ids))
    exact = set(Card.objects.filter(Q(search_name=key) | Q(faces__search_name=key)).values_list("pk", flat=True)) | set(
        LocalizedName.objects.filter(search_name=printed_key).values_list("card_id", flat=True)
    )
    prefix = set(
        Card.objects.filter(Q(search_name__startswith=key) | Q(faces__search_name__startswith=key)).values_list(
            "pk", flat=True
        )
    ) | set(LocalizedName.objects.filter(search_name__startswith=printed_key).values_list("card_id", flat=True))
    return (
        cards.distinct()
        .annotate(
            rank=Case(
                When(pk__in=exact, then=Value(0)),
                When(pk__in=prefix, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            )
        )
        .order_by("rank", "name")
    )


class _NameIndex:
    """Every full and face name, folded, for "did you mean" suggestions.

    Rebuilt only when the catalogue changes (its row count or last update moves), so a
    suggestion costs one small aggregate query plus an in-memory fuzzy match.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: tuple | None = None
        self._names: dict[str, str] = {}
        self._languages: dict[str, set[str]] = {}  # folded name -> languages it is printed in

    def languages(self, folded: str) -> set[str]:
        return self._languages.get(folded) or {languages.ENGLISH}

    def names(self) -> dict[str, str]:
        version = tuple(Card.objects.aggregate(n=Max("pk"), t=Max("updated_at")).values()) + (
            Card.objects.count(),
            LocalizedName.objects.aggregate(n=Max("pk"))["n"],
        )
        with self._lock:
            if version != self._version:
                names: dict[str, str] = {}
                langs: dict[str, set[str]] = {}
                for (name,) in Card.objects.values_list("name"):
                    names.setdefault(normalize_name(name), name)
                for (name,) in CardFace.objects.values_list("name"):
                    names.setdefault(normalize_name(name), name)
                # Printed names in the site's languages, so a misspelt Portuguese name gets
                # Portuguese suggestions (other languages would only add noise and time).
                site = [code for code, _ in settings.LANGUAGES if code != languages.ENGLISH]
                for key, name, language in LocalizedName.objects.filter(language__in=site).values_list(
                    "search_name", "name", "language"
                ):
                    names.setdefault(key, name)
                    langs.setdefault(key, set()).add(language)
                self._names, self._languages, self._version = names, langs, version
            return self._names


_name_index = _NameIndex()


def suggest_names(query: str, limit: int = 5) -> list[str]:
    """Real card or face names close to a misspelt query ("Gatstaf Sheperd"), printed names
    included: a misspelt Portuguese name gets Portuguese names back."""
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
    if close:
        # Suggestions in the language of the query (the closest name tells which one it is):
        # a misspelt English name gets English names, a Portuguese one Portuguese names.
        language = _name_index.languages(close[0])
        close = [folded for folded in close if _name_index.languages(folded) & language]
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
    return list(
        checklist_queryset()
        .filter(search_name__contains=key)
        .order_by("set_code", "collector_number")[:MAX_CHECKLIST_MATCHES]
    )


# --- sets: what an organiser chooses for a booster draft, and what the catalogue filters by ----------

MAX_SET_SUGGESTIONS = 5


def booster_sets() -> list[CardSet]:
    """The catalogue's sets with cards in boosters (what a booster draft can open), by name."""
    in_boosters = Printing.objects.filter(card_set=OuterRef("pk"), in_boosters=True)
    return list(CardSet.objects.filter(Exists(in_boosters)).only("pk", "code", "name").order_by("name", "code"))


def set_choices() -> list[tuple[str, str]]:
    """(code, "Name (CODE)") for each draftable set: the organiser sees both."""
    return [(s.code, f"{s.name} ({s.code})") for s in booster_sets()]


def find_set(text: str) -> CardSet | None:
    """A set by its code (any case) or by its name (any case, accents and punctuation folded)."""
    text = (text or "").strip()
    if not text or len(text) > 200:
        return None
    by_code = CardSet.objects.filter(code__iexact=text).first()
    if by_code is not None:
        return by_code
    key = normalize_name(text)
    named = list(CardSet.objects.filter(name__iexact=text)) or [
        s for s in CardSet.objects.only("pk", "code", "name") if normalize_name(s.name) == key
    ]
    if not named:
        return None
    # Two sets of one name: the one whose cards are in boosters is the one drafted.
    drafted = set(
        CardSet.objects.filter(pk__in=[s.pk for s in named], printings__in_boosters=True).values_list("pk", flat=True)
    )
    return sorted(named, key=lambda s: (s.pk not in drafted, s.code))[0]


def near_sets(text: str, limit: int = MAX_SET_SUGGESTIONS) -> list[CardSet]:
    """Draftable sets whose name or code looks like ``text``: containing it first, then close spellings."""
    key = normalize_name(text or "")[:200]
    if not key:
        return []
    sets = booster_sets()
    containing = [s for s in sets if key in normalize_name(s.name) or key == s.code.lower()]
    by_key: dict[str, CardSet] = {}
    for s in sets:
        by_key.setdefault(normalize_name(s.name), s)
        by_key.setdefault(s.code.lower(), s)
    close = [by_key[k] for k in difflib.get_close_matches(key, list(by_key), n=limit, cutoff=0.6)]
    out: list[CardSet] = []
    for s in containing + close:
        if s not in out:
            out.append(s)
    return out[:limit]


def resolve_set(text: str, *, field: str = "set") -> str:
    """The code of the set named by ``text`` (its code in any case, or its name).

    Unknown: a 400 ``unknown_set`` naming the near matches (``suggestions``: code and name)."""
    found = find_set(text)
    if found is not None:
        return found.code
    near = near_sets(text)
    shown = (text or "").strip()[:60]
    if near:
        message = gettext("No set in the catalogue has the code or name “%(text)s”. Did you mean %(sets)s?") % {
            "text": shown,
            "sets": ", ".join(f"{s.name} ({s.code})" for s in near),
        }
    else:
        message = gettext("No set in the catalogue has the code or name “%(text)s”. Choose one from the list.") % {
            "text": shown
        }
    raise DomainError(
        error_codes.UNKNOWN_SET,
        message,
        field=field,
        set=shown,
        suggestions=[{"code": s.code, "name": s.name} for s in near],
    )
