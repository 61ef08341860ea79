"""The card catalogue's pages (pages.py)."""
