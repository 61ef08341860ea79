#!/usr/bin/env python3
"""Benchmark of the card importer on PostgreSQL.

Builds large Scryfall-format files (a JSON array, as Scryfall's bulk data is) by repeating the
bundled Scryfall records with fresh ids and names (so every record is a new card), then imports
each into an empty catalogue in a fresh process and reports records per second and the
importer's peak RSS. Two sizes show that memory does not grow with the file. The larger file is
then imported again to time the "nothing changed" path.

    bench/import_cards [--sizes 20000 100000] [--batch-size 1000] [--keep-files]

DATABASE_URL selects the database (default postgres://postgres@127.0.0.1:5432/draftsite_bench);
it is created and migrated when missing. Writes bench/results/import_cards.json and .txt.
Targets: >= 5,000 records/s and < 300 MB peak RSS.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TMP = ROOT / "bench" / "tmp"
RESULTS = ROOT / "bench" / "results"
SCRYFALL_DIR = ROOT / "cards" / "data" / "scryfall"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/draftsite_bench"
TARGET_RATE = 5000
TARGET_MB = 300

# Runs inside the child process: import one file, report timing and peak RSS as JSON.
CHILD = r"""
import json, os, resource, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "draftsite.settings")
django.setup()
from cards.importers import import_file

def vm(key):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    return 0.0

def backend_cpu():
    # CPU seconds used so far by this connection's PostgreSQL backend (same machine only).
    from django.db import connection
    try:
        with connection.cursor() as cursor:
            cursor.execute("select pg_backend_pid()")
            pid = cursor.fetchone()[0]
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None

server_before = backend_cpu()
rss_before = vm("VmRSS:")
cpu_before = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
started = time.perf_counter()
summary = import_file(sys.argv[1], batch_size=int(sys.argv[2]))
seconds = time.perf_counter() - started
server_after = backend_cpu()
print(json.dumps({
    "seconds": seconds,
    "records": summary.records,
    "created": summary.created,
    "updated": summary.updated,
    "unchanged": summary.unchanged,
    "skipped": summary.skipped,
    "cards_created": summary.cards_created,
    "cpu_seconds": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) - cpu_before, 2),
    "server_cpu_seconds": (None if server_before is None or server_after is None
                           else round(server_after - server_before, 2)),
    "rss_before_import_mb": round(rss_before, 1),
    "peak_rss_mb": round(max(vm("VmHWM:"),
                             resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), 1),
}))
"""


def source_records() -> list[dict]:
    records = []
    for path in sorted(SCRYFALL_DIR.glob("*.json*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            records.extend(json.load(handle))
    return records


def renamed(obj: dict, copy: int) -> dict:
    """A copy of a Scryfall object that is a different card: new names, ids and set code."""
    tag = f" {copy}"

    def rename(name: str) -> str:
        return " // ".join(part + tag for part in name.split(" // "))

    new = dict(obj)
    new["id"] = str(uuid.uuid4())
    new["oracle_id"] = str(uuid.uuid4())
    new["name"] = rename(obj["name"])
    new["set"] = f"{obj['set']}{copy}"
    new["set_name"] = f"{obj.get('set_name', obj['set'])} (copy {copy})"
    if obj.get("card_faces"):
        new["card_faces"] = [dict(face, name=face["name"] + tag) for face in obj["card_faces"]]
    if obj.get("all_parts"):
        new["all_parts"] = [dict(part, name=rename(part["name"])) for part in obj["all_parts"]]
    return new


def build_file(size: int, records: list[dict]) -> Path:
    TMP.mkdir(parents=True, exist_ok=True)
    path = TMP / f"scryfall_{size}.json"
    if path.exists():
        return path
    partial = path.with_suffix(".partial")
    with open(partial, "w", encoding="utf-8") as out:
        out.write("[\n")
        written = 0
        copy = 0
        while written < size:
            copy += 1
            for obj in records:
                if written >= size:
                    break
                out.write(",\n" if written else "")
                out.write(json.dumps(renamed(obj, copy), ensure_ascii=False))
                written += 1
        out.write("\n]\n")
    partial.rename(path)
    return path


def ensure_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    name = url.rsplit("/", 1)[-1].split("?", 1)[0]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("select 1 from pg_database where datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    run([sys.executable, "manage.py", "migrate", "--noinput", "--skip-checks", "-v", "0"], url)


def empty_catalogue(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "truncate cards_checklistentry, cards_checklistcard, cards_cardface, "
            "cards_printing, cards_card, cards_cardset restart identity cascade"
        )
        conn.execute("vacuum analyze")


def run(cmd: list[str], url: str) -> str:
    env = dict(os.environ, DATABASE_URL=url, PYTHONPATH=str(ROOT))
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"command failed: {' '.join(cmd)}")
    return done.stdout


def import_once(path: Path, url: str, batch_size: int) -> dict:
    load_before = os.getloadavg()[0]
    out = run([sys.executable, "-c", CHILD, str(path), str(batch_size)], url)
    result = json.loads(out.strip().splitlines()[-1])
    result["records_per_second"] = round(result["records"] / result["seconds"], 1)
    result["seconds"] = round(result["seconds"], 2)
    result["file_mb"] = round(path.stat().st_size / 2**20, 1)
    # Other work on the machine slows both the importer and PostgreSQL: record it.
    result["load_average_1min"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000])
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--keep-files", action="store_true", help="keep bench/tmp files")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_DB)
    if not url.startswith("postgres"):
        raise SystemExit("this benchmark measures PostgreSQL: set DATABASE_URL=postgres://...")

    print(f"database: {url}")
    ensure_database(url)
    records = source_records()
    runs = []
    for size in sorted(args.sizes):
        started = time.perf_counter()
        path = build_file(size, records)
        print(
            f"built {path.name}: {size} records, {path.stat().st_size / 2**20:.0f} MB "
            f"({time.perf_counter() - started:.1f}s)"
        )
        empty_catalogue(url)
        result = dict(size=size, kind="fresh import", **import_once(path, url, args.batch_size))
        runs.append(result)
        print(_line(result))
    largest = max(args.sizes)
    again = dict(
        size=largest,
        kind="re-import (unchanged)",
        **import_once(TMP / f"scryfall_{largest}.json", url, args.batch_size),
    )
    runs.append(again)
    print(_line(again))
    if not args.keep_files:
        for size in args.sizes:
            (TMP / f"scryfall_{size}.json").unlink(missing_ok=True)

    fresh = [r for r in runs if r["kind"] == "fresh import"]
    report = {
        "benchmark": "import_cards",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()},
        "database": url.split("@")[-1],
        "batch_size": args.batch_size,
        "format": "Scryfall JSON array (plain), records repeated from cards/data/scryfall",
        "targets": {"records_per_second": TARGET_RATE, "peak_rss_mb": TARGET_MB},
        "runs": runs,
        "targets_met": all(r["records_per_second"] >= TARGET_RATE and r["peak_rss_mb"] < TARGET_MB for r in fresh),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "import_cards.json").write_text(json.dumps(report, indent=2) + "\n")
    text = [f"import_cards benchmark, {report['when']}, PostgreSQL {report['database']}, batch size {args.batch_size}"]
    text += [_line(r) for r in runs]
    text.append(
        f"targets (>= {TARGET_RATE} records/s, < {TARGET_MB} MB peak RSS): "
        + ("met" if report["targets_met"] else "NOT met")
    )
    (RESULTS / "import_cards.txt").write_text("\n".join(text) + "\n")
    print(text[-1])
    return 0 if report["targets_met"] else 1


def _line(r: dict) -> str:
    return (
        f"{r['kind']:>22}: {r['records']:>7} records ({r['file_mb']} MB) in "
        f"{r['seconds']:>6}s = {r['records_per_second']:>8} records/s, peak RSS "
        f"{r['peak_rss_mb']} MB, CPU importer {r['cpu_seconds']}s + "
        f"PostgreSQL {r['server_cpu_seconds']}s "
        f"(created {r['created']}, unchanged {r['unchanged']}; "
        f"load {r['load_average_1min'][0]}-{r['load_average_1min'][1]})"
    )


if __name__ == "__main__":
    sys.exit(main())
