"""Scenario files under tests/scenarios are collected as pytest items (one per scenario),
as pytest's own doc/en/example/nonpython shows; a failure reports what differed.

Hypothesis profiles (issue #4, docs/reliability.md): the default one (CI) keeps the whole
suite within minutes; ``HYPOTHESIS_PROFILE=long`` runs the property tests for 100,000 stateful
steps per ruleset and many more fuzz cases. The counts the property tests ran are printed at
the end of the run."""

from __future__ import annotations

import json
import os
import sys

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "long", deadline=None, max_examples=20_000, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])

from lifeboat_rules.errors import ContentError
from lifeboat_rules.scenario import load_file, run


def pytest_collect_file(parent, file_path):
    if file_path.suffix in (".yaml", ".yml") and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        try:
            scenarios = load_file(str(self.path))
        except ContentError as exc:
            yield InvalidFile.from_parent(self, name="(invalid file)", error=str(exc))
            return
        for scenario in scenarios:
            yield ScenarioItem.from_parent(self, name=scenario.name, scenario=scenario)


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, **kwargs):
        super().__init__(**kwargs)
        self.scenario = scenario
        for rule in scenario.data.get("rules", []):
            self.add_marker(pytest.mark.rule(rule))

    def runtest(self):
        outcome = run(self.scenario)
        if not outcome.passed:
            raise ScenarioFailed(outcome.message)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailed):
            return f"scenario {self.name!r} ({self.scenario.where}): {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario: {self.name}"


class InvalidFile(pytest.Item):
    def __init__(self, *, error, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def runtest(self):
        raise ScenarioFailed(self.error)

    def repr_failure(self, excinfo):
        return f"invalid scenario file: {excinfo.value}"


def pytest_configure(config):
    config.addinivalue_line("markers", "rule(id): the ruling (docs/rules.md) a test pins")
    config.addinivalue_line("markers", "slow: takes more than a few seconds; "
                                       "`python -m pytest -m 'not slow'` leaves it out")


# Parametrized tests whose first case stands for the others in the fast subset
# (`python -m pytest -m "not slow"`): the other cases are marked slow; CI runs them all.
FIRST_CASE_ONLY = {
    "test_views_follow_the_schema_and_keep_secrets",
    "test_hostile_values_are_refused_where_they_are_put",
    "test_hostile_documents_are_refused_by_every_entry_point",
    "test_a_hook_answering_nonsense_is_refused_and_named",
    "test_a_plugin_raising_during_apply_is_named_and_undone",
    "test_values_that_only_compare_equal_are_refused_without_a_trace",
    "test_plain_values_are_refused_at_their_place_or_right_there",
}


# The slowest tests of the fast subset (3 to 7 s each on a shared 2-core machine, measured with
# --durations), left to the full run: each has a quicker neighbour in the fast subset
# (benchmarks: test_bench_prints_the_ratios; reports and jobs: test_jobs_do_not_change_the_report;
# the command line's refusals: tests/test_hostile_files.py's others; events: the copy tests of
# tests/test_events.py; bots by name: test_play_against_bots_by_name).
FULL_RUN_ONLY = {
    "test_bytecodes_counts_the_work_of_a_step",
    "test_the_report_has_the_summary_the_rows_the_plots_and_one_page",
    "test_a_comparison_report_pairs_the_rows_and_plots_the_differences",
    "test_the_same_seed_gives_the_same_summary_in_this_process_and_in_two_workers",
    "test_the_command_line_refuses_a_python_tag_and_runs_nothing",
    "test_every_event_type_is_known_with_the_fields_that_hold_containers",
    "test_simulate_with_bots_by_name",
}


def pytest_collection_modifyitems(config, items):
    seen: set = set()
    for item in items:
        name = getattr(item, "originalname", item.name)
        if name in FULL_RUN_ONLY:
            item.add_marker(pytest.mark.slow)
        if name in FIRST_CASE_ONLY:
            if name in seen:
                item.add_marker(pytest.mark.slow)
            seen.add(name)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With ``LIFEBOAT_NO_SKIPS=1`` (set by .ci/run) a skipped test fails: in CI every extra,
    the browser and tmux are installed, so a skip there would only hide a test that ran
    nothing (an expected failure, ``xfail``, is not a skip)."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail") and os.environ.get("LIFEBOAT_NO_SKIPS") == "1":
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped, where every test must run (LIFEBOAT_NO_SKIPS=1): {reason}"


WORKER_STATS: dict = {}     # with pytest-xdist: what each worker's property tests counted


def pytest_sessionfinish(session):
    """A pytest-xdist worker hands its counts to the main process (``pytest_testnodedown``)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    invariants = sys.modules.get("invariants")
    stats = getattr(invariants, "STATS", None)
    if workeroutput is not None and stats:
        workeroutput["property_stats"] = json.dumps(stats)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    counted = getattr(node, "workeroutput", {}).get("property_stats")
    if counted:
        for section, counts in json.loads(counted).items():
            mine = WORKER_STATS.setdefault(section, {})
            for key, value in counts.items():
                mine[key] = mine.get(key, 0) + value


def pytest_terminal_summary(terminalreporter):
    """The counts the property tests ran (tests/invariants.py STATS, or what the pytest-xdist
    workers counted), per ruleset."""
    invariants = sys.modules.get("invariants")
    stats = getattr(invariants, "STATS", None) or WORKER_STATS
    if not stats:
        return
    profile = os.environ.get("HYPOTHESIS_PROFILE", "default")
    terminalreporter.write_sep("-", f"property tests ran (profile {profile})")
    for section in sorted(stats):
        counts = ", ".join(f"{key} {value:,}" for key, value in sorted(stats[section].items()))
        terminalreporter.write_line(f"{section}: {counts}")
