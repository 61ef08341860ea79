"""What one import run did, as counts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class ImportSummary:
    """Counts for one file (or, after ``merge``, several).

    ``created`` / ``updated`` / ``unchanged`` count card records (one per physical card, i.e.
    one per printing): created = a new printing; updated = the printing or its oracle card
    changed; unchanged = nothing was written. ``skipped`` counts records that are not cards
    (tokens, emblems, melded halves, helpers), with reasons in ``skipped_reasons``.
    """

    path: str = ""
    format: str = ""
    records: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    skipped_reasons: Counter = field(default_factory=Counter)
    by_layout: Counter = field(default_factory=Counter)
    cards_created: int = 0
    cards_updated: int = 0
    cards_unchanged: int = 0
    incomplete_cards: int = 0
    localized_names: int = 0  # printed names in other languages added by this run
    checklist_cards: int = 0
    checklists_created: int = 0
    checklists_updated: int = 0
    checklist_entries_linked: int = 0
    checklist_entries_unlinked: int = 0
    sets: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def skip(self, reason: str) -> None:
        self.skipped += 1
        self.skipped_reasons[reason] += 1

    def merge(self, other: ImportSummary) -> ImportSummary:
        for name in (
            "records",
            "created",
            "updated",
            "unchanged",
            "skipped",
            "cards_created",
            "cards_updated",
            "cards_unchanged",
            "incomplete_cards",
            "localized_names",
            "checklist_cards",
            "checklists_created",
            "checklists_updated",
            "seconds",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.skipped_reasons.update(other.skipped_reasons)
        self.by_layout.update(other.by_layout)
        # Link counts describe the catalogue after the latest run, not a sum.
        self.checklist_entries_linked = other.checklist_entries_linked
        self.checklist_entries_unlinked = other.checklist_entries_unlinked
        self.sets.extend(code for code in other.sets if code not in self.sets)
        return self

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "format": self.format,
            "records": self.records,
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "skipped": self.skipped,
            "skipped_reasons": dict(sorted(self.skipped_reasons.items())),
            "by_layout": dict(sorted(self.by_layout.items())),
            "cards": {
                "created": self.cards_created,
                "updated": self.cards_updated,
                "unchanged": self.cards_unchanged,
                "incomplete": self.incomplete_cards,
            },
            "checklist_cards": {
                "imported": self.checklist_cards,
                "created": self.checklists_created,
                "updated": self.checklists_updated,
                "entries_linked": self.checklist_entries_linked,
                "entries_unlinked": self.checklist_entries_unlinked,
            },
            "localized_names_added": self.localized_names,
            "sets": list(self.sets),
            "seconds": round(self.seconds, 3),
        }

    def format_text(self) -> str:
        layouts = ", ".join(f"{k} {v}" for k, v in sorted(self.by_layout.items())) or "none"
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(self.skipped_reasons.items()))
        lines = [
            f"{self.records} records in {self.seconds:.1f}s: {self.created} created, "
            f"{self.updated} updated, {self.unchanged} unchanged, {self.skipped} skipped"
            + (f" ({reasons})" if reasons else ""),
            f"cards: {self.cards_created} created, {self.cards_updated} updated, {self.cards_unchanged} unchanged",
            f"by layout: {layouts}",
            f"printed names in other languages: {self.localized_names} added",
            f"checklist cards: {self.checklist_cards} imported ({self.checklists_created} created,"
            f" {self.checklists_updated} updated); entries linked {self.checklist_entries_linked},"
            f" unlinked {self.checklist_entries_unlinked}",
        ]
        if self.incomplete_cards:
            lines.append(f"incomplete multi-face cards (a face never arrived): {self.incomplete_cards}")
        return "\n".join(lines)
