"""The deck pages, by audience like the API: players.py (register, view, print) and judges.py
(every deck, deck checks, corrections, sealed pools); forms.py reads what they post."""
