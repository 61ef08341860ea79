"""How an event backup (draftsite/backup.py) names catalogue rows: a card by its full name, a
printing by its Scryfall id (or set and collector number), a checklist card by set and number.
The catalogue itself is not in the backup: import the same card data on the other site first."""

from cards.models import Card, ChecklistCard, Printing
from draftsite.backup import Catalogue

CATALOGUE = Catalogue(card=Card, printing=Printing, checklist=ChecklistCard)
