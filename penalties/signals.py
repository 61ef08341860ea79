"""What other apps may listen to, so penalties never imports them (imports stay one-way).

``penalty_changed`` is sent inside the writing transaction after a penalty is issued,
reviewed or decided on appeal, with ``penalty=`` the row as it now stands. The matches app
listens: a Game Loss or Match Loss applies to the player's match, a disqualification drops
them (matches/hooks.py).
"""

from django.dispatch import Signal

penalty_changed = Signal()
