"""``manage.py migrate`` on a fresh database, timed by phase (docs/development.md, "Migrations").

Run against an empty database of your own (it migrates it):

    createdb draftsite_fresh
    DB_POOL=0 DATABASE_URL=postgres://.../draftsite_fresh .venv/bin/python bench/migrate_fresh.py

Prints the wall and CPU time of Django's start, the system checks and the migrations (with the
post-migrate handlers), the time spent in the database and the database server's CPU (read from
``/proc`` of its backend: run it on the database's host), so that runs on a busy machine can be
compared by CPU as well as by the clock. The figures of the run go to
``bench/results/migrate_fresh.json``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
RESULT = Path(__file__).resolve().parent / "results" / "migrate_fresh.json"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "draftsite.settings")


def main() -> None:
    wall, cpu = time.time(), time.process_time()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    setup = (time.time() - wall, time.process_time() - cpu)
    database = [0.0, 0]

    def timed(execute, sql, params, many, context):
        start = time.time()
        try:
            return execute(sql, params, many, context)
        finally:
            database[0] += time.time() - start
            database[1] += 1

    with connection.execute_wrapper(timed):
        start = (time.time(), time.process_time())
        call_command("check", databases=["default"], verbosity=0)
        checked = (time.time(), time.process_time())
        call_command("migrate", verbosity=0, skip_checks=True)
        done = (time.time(), time.process_time())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    server = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=RESULT.parent)
    figures = {
        "benchmark": "migrate_fresh",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "commit": commit.stdout.strip() or None,
        "setup_s": round(setup[0], 2),
        "setup_cpu_s": round(setup[1], 2),
        "checks_s": round(checked[0] - start[0], 2),
        "checks_cpu_s": round(checked[1] - start[1], 2),
        "migrate_s": round(done[0] - checked[0], 2),
        "migrate_cpu_s": round(done[1] - checked[1], 2),
        "database_s": round(database[0], 2),
        "statements": database[1],
        "server_cpu_s": round(server, 2),
        "total_s": round(done[0] - wall, 2),
        "total_cpu_s": round(setup[1] + done[1] - start[1] + server, 2),
        "load": round(os.getloadavg()[0], 1),
    }
    RESULT.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(
        f"setup {setup[0]:.2f} s (cpu {setup[1]:.2f}) | checks {checked[0] - start[0]:.2f} s "
        f"(cpu {checked[1] - start[1]:.2f}) | migrate {done[0] - checked[0]:.2f} s (cpu {done[1] - checked[1]:.2f}) | "
        f"database {database[0]:.2f} s in {database[1]} statements, server cpu {server:.2f} | "
        f"total {done[0] - wall:.2f} s, cpu {setup[1] + done[1] - start[1] + server:.2f} | "
        f"load {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
