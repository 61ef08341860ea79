"""What an event backup (draftsite/backup.py) holds of sealed events: nothing yet.

Format version 1 predates sealed events; carrying them means new sections, and files written
before them must still import. The pool each player builds from is ``decks.SealedPool``, which
the decks app's sections already carry."""

from sealed.models import PaperPool, PoolSwap, SealedEvent, SealedPack

_NOT_YET = "not in format version 1: sealed settings, opened packs and paper pools are not backed up yet"

LEFT_OUT = {model: _NOT_YET for model in (SealedEvent, SealedPack, PaperPool, PoolSwap)}
