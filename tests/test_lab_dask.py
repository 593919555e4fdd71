"""The balance lab on a Dask cluster: a LocalCluster started here stands in for a real one."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("distributed", reason="the Dask path needs the lab extra "
                                          "(pip install -e '.[lab]'); CI installs it")

from distributed import LocalCluster  # noqa: E402

from lifeboat_rules.cli import main  # noqa: E402
from lifeboat_rules.lab import Plan, run  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, host="127.0.0.1") as local:
        yield local


@pytest.mark.slow
def test_a_cluster_gives_the_summary_and_rows_of_one_process(cluster):
    plan = Plan.make("classic", games=30, players=5, seed=300, compare="shark", rotate=True)
    here, there = [], []
    expected = run(plan, each=here.append)
    got = run(plan, dask=cluster.scheduler_address, chunk=4, each=there.append)
    assert got == expected
    assert there == here


@pytest.mark.slow
def test_the_command_line_runs_on_a_cluster(cluster, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["simulate", "--games", "12", "--seed", "9", "--dask", cluster.scheduler_address,
                 "--report", str(out)]) == 0
    assert f"on {cluster.scheduler_address}" in capsys.readouterr().out
    here = tmp_path / "here"
    assert main(["simulate", "--games", "12", "--seed", "9", "--report", str(here)]) == 0
    assert json.loads((out / "summary.json").read_text()) == \
        json.loads((here / "summary.json").read_text())
