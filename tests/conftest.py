"""Scenario files under tests/scenarios are collected as pytest items (one per scenario),
as pytest's own doc/en/example/nonpython shows; a failure reports what differed."""

from __future__ import annotations

import pytest

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
    config.addinivalue_line("markers", "rule(id): the RULES.md ruling a scenario pins")
