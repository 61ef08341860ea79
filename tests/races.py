"""Races for tests: calls run at the same moment in threads (real transactions), their results or
exceptions collected; used by the races of the draft engine (tests/drafts/services/test_races.py,
test_socket_picks.py), the event staff (tests/events/services/test_races.py) and judge calls."""

import threading

from django.db import connection

from draftsite.errors import DomainError


def race(*calls):
    """Run the calls at the same moment in threads; return their results or exceptions."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # collected and asserted on by the test
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def codes(results):
    return sorted(r.code if isinstance(r, DomainError) else "ok" for r in results)
