"""The rules desk's pages (pages.py: the desk)."""
