"""The claims notebook's verdict on Theorem 6.2: its words and numbers are the simulation's findings."""

from __future__ import annotations

import pytest

from lib.counteranimal.simulation import SimulationSettings, bound_findings, findings, simulate
from lib.counteranimal.simulation_report import theorem_verdict
from lib.findings import Findings

TINY = "params/tiny/counteranimal/simulation.yaml"


@pytest.fixture(scope="module")
def simulation():
    settings = SimulationSettings.load(TINY)
    return settings, simulate(settings)


def test_the_verdict_states_the_findings_of_the_simulation(simulation):
    settings, frame = simulation
    text = theorem_verdict(frame, settings, "tiny")
    theory, bounds = findings(frame), bound_findings(frame)
    assert text.startswith(f"At `tiny` ({len(settings.seeds)} seeds, n = {settings.n_train[0]}, d = n):")
    assert f"its statements **{theory.verdict.replace('_', ' ')}**" in text
    together = Findings([*theory, *bounds]).verdict.replace("_", " ")
    assert f"together, as the claims ledger judges it, **{together}** ({len(theory) + len(bounds)} parts)" in text
    assert f"**The bound holds where the conditions hold: {bounds.verdict.replace('_', ' ')}**" in text
    assert f"of {len(bounds)} cells" in text
    error = next(f for f in theory if f.quantity.startswith("error(a != y) where"))
    assert f"{error.estimate:.2f} ({error.interval.low:.2f} to {error.interval.high:.2f})" in text


def test_the_verdict_follows_a_different_simulation(simulation):
    settings, frame = simulation
    shifted = frame.assign(error=frame["error"].where(frame["group"] != "a != y", 0.3))  # no longer worse than guessing
    text = theorem_verdict(shifted, settings, "tiny")
    assert "not clearly worse than guessing" in text and "**Large OOD error where a ≠ y: contradicted.**" in text
