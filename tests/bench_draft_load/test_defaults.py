"""The draft load benchmark's defaults are what a browser and a deployment cause, and every
headline says which (issue 48); what it keeps in git is a summary (issue 50). Without servers.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATH = ROOT / "bench" / "draft_load.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_draft_load_defaults", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_defaults_are_the_page_a_site_with_history_and_deploys_postgresql(bench, monkeypatch):
    monkeypatch.delenv("BENCH_DATABASE_URL", raising=False)
    args = bench.parse_args([])
    # static/js/draft.js ignores a click on a pack younger than SETTLE_MS.
    settle_ms = int(re.search(r"var SETTLE_MS = (\d+);", (ROOT / "static/js/draft.js").read_text()).group(1))
    assert args.click_delay * 1000 == settle_ms == 500
    assert args.history == 20
    assert args.database_url is None  # the bench's own cluster, as deploy/postgresql.md sets it
    assert args.balancer == (shutil.which("haproxy") is not None)
    assert args.web_workers == 2


def test_the_own_cluster_runs_with_autovacuum_on_as_deploy_requires(bench):
    import pgcluster

    settings = pgcluster.Cluster("test").settings()
    assert settings["autovacuum"] == "on" and settings["synchronous_commit"] == "on"
    assert "Keep `autovacuum = on`" in (ROOT / "deploy" / "postgresql.md").read_text()


def test_cached_databases_are_named_by_the_migrations_they_hold(bench, tmp_path, monkeypatch):
    import pgcluster

    before = pgcluster.schema_digest("ISD", "1000", "20")
    assert before == pgcluster.schema_digest("ISD", "1000", "20")
    assert before != pgcluster.schema_digest("ISD", "1000", "0")
    fake_root = tmp_path / "root"
    (fake_root / "drafts" / "migrations").mkdir(parents=True)
    (fake_root / "bench").mkdir()
    (fake_root / "bench" / "history.py").write_text("# history\n")
    (fake_root / "drafts" / "migrations" / "0001_initial.py").write_text("# one\n")
    monkeypatch.setattr(pgcluster, "ROOT", fake_root)
    one = pgcluster.schema_digest("ISD")
    (fake_root / "drafts" / "migrations" / "0002_more.py").write_text("# two\n")
    assert pgcluster.schema_digest("ISD") != one


def result(**changes):
    base = {
        "mode": "saturation",
        "window": {"seconds": 95.2},
        "pods_finished": 125,
        "pods": 125,
        "web_workers": 2,
        "history_events": 20,
        "click_delay_s": 0.5,
        "server": {"balancer": "haproxy deploy/haproxy.cfg"},
        "postgres": {"own_cluster": True, "autovacuum": "on"},
    }
    return {**base, **changes}


def test_every_headline_says_history_click_delay_processes_balancer_and_autovacuum(bench):
    label = bench.run_label(result())
    assert "history 20" in label and "click delay 500 ms" in label
    assert "2 web processes behind HAProxy" in label and "autovacuum on" in label
    bare = bench.run_label(
        result(history_events=0, click_delay_s=0.0, server={"balancer": None}, postgres={"autovacuum": "off"})
    )
    assert "history 0 (empty site)" in bare and "click delay 0" in bare
    assert "no balancer" in bare and "autovacuum off" in bare


def test_the_summary_leaves_every_picks_record_out(bench, tmp_path):
    run = {**result(), "picks": 3, "_acked": [[1, 2, 3]] * 3, "usage": {"cpu_ms_per_pick": {"web": 1.0}}}
    summary = bench.summary_of(run)
    assert "_acked" not in summary and summary["usage"] == run["usage"] and summary["picks"] == 3
    assert "_acked" in run  # the raw result keeps it
    assert json.loads(json.dumps(summary)) == summary


def test_git_keeps_no_raw_result():
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "bench/results/raw/" in ignored
