"""The IPG infraction catalogue's names, marked for translation.

The catalogue lives in the database (seeded by migration 0002, editable in the admin); pages show
each infraction's name through :attr:`Infraction.display_name`, which translates the
names listed here and show an edited entry as the staff wrote it."""

from django.utils.translation import gettext_noop

CATALOGUE_TEXTS = (
    gettext_noop("Missed Trigger"),
    gettext_noop("Looking at Extra Cards"),
    gettext_noop("Hidden Card Error"),
    gettext_noop("Mulligan Procedure Error"),
    gettext_noop("Game Rule Violation"),
    gettext_noop("Failure to Maintain Game State"),
    gettext_noop("Tardiness"),
    gettext_noop("Outside Assistance"),
    gettext_noop("Slow Play"),
    gettext_noop("Decklist Problem"),
    gettext_noop("Deck Problem"),
    gettext_noop("Limited Procedure Violation"),
    gettext_noop("Communication Policy Violation"),
    gettext_noop("Marked Cards"),
    gettext_noop("Insufficient Shuffling"),
    gettext_noop("Unsporting Conduct — Minor"),
    gettext_noop("Unsporting Conduct — Major"),
    gettext_noop("Improperly Determining a Winner"),
    gettext_noop("Bribery and Wagering"),
    gettext_noop("Aggressive Behavior"),
    gettext_noop("Theft of Tournament Material"),
    gettext_noop("Stalling"),
    gettext_noop("Cheating"),
)
