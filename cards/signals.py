"""What the card catalogue tells the apps built on it (which cards never import)."""

from django.dispatch import Signal

# Sent after every import run (also one stopped by an error: its earlier batches stay), so that
# caches of card data in this process are dropped. Arguments: ``path``.
catalogue_imported = Signal()
