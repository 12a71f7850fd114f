"""Experiments from Python: from a dict or a YAML file, results as a DataFrame, the CLI's verdicts,
report and store semantics, and their errors as ValueError."""

import pytest

import dpbounds

SPEC = {
    "name": "from-python", "seed": 1, "trials": 10,
    "model": {"name": "spiked_gaussian", "d": 4, "r": 1, "lambda": 4, "sigma2": 1},
    "grid": {"n": [300, 600]},
    "privacy": {"epsilon": 1.0, "delta": 1e-5},
    "algorithms": ["baseline.nonprivate_pca", {"baseline.dp_gauss_1": {"beta": 3.0}}],
    "metrics": ["sin"],
    # The non-private PCA's error is at or below the private one's: a check that passes.
    "checks": [{"kind": "dominates", "algorithm": "baseline.nonprivate_pca", "against": "baseline.dp_gauss_1",
                "metric": "sin"}],
}

YAML = """name: from-yaml
seed: 1
trials: 3
model: { name: spiked_gaussian, d: 4, r: 1, lambda: 4, sigma2: 1 }
grid: { n: [300] }
privacy: { epsilon: 1.0, delta: 1.0e-5 }
algorithms: [baseline.nonprivate_pca, liu2022.oja]
metrics: [sin]
"""


def test_a_dict_runs_into_a_dataframe_with_the_verdicts(tmp_path, capfd):
    exp = dpbounds.Experiment(SPEC)
    assert exp.name == "from-python"
    run = exp.run(out=tmp_path, threads=2, progress=True)
    results = run.results
    assert len(results) == 2 * 2 * 10 and (results["error"] == "").all()
    assert {"cell", "algorithm", "trial", "n", "d", "epsilon", "delta", "sin", "seconds"} <= set(results.columns)
    assert sorted(results["n"].unique()) == [300, 600]
    assert [v["status"] for v in run.verdicts] == ["PASS"] and run.passed
    assert "PASS" in str(run) and (run.dir / "summary.md").is_file()
    assert run.outcome == {"tasks": 40, "executed": 40, "failed": 0, "skipped": 0}
    # Progress: one line per cell, in the order the cells finish (two threads: either order).
    progress = capfd.readouterr().err.splitlines()
    assert len(progress) == 2 and all(line.startswith("cell ") for line in progress)
    assert {line.split(": ")[0][len("cell 1/2 "):] for line in progress} == {"(n=300)", "(n=600)"}


def test_stored_trials_are_refused_resumed_or_rerun(tmp_path):
    exp = dpbounds.Experiment(SPEC)
    exp.run(out=tmp_path)
    with pytest.raises(ValueError, match="--resume"):
        exp.run(out=tmp_path)
    assert exp.run(out=tmp_path, stored="resume").outcome["skipped"] == 40
    assert exp.run(out=tmp_path, stored="fresh").outcome["executed"] == 40
    with pytest.raises(ValueError, match="refuse, resume, fresh"):
        exp.run(out=tmp_path, stored="keep")


def test_a_yaml_file_with_set_and_only(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text(YAML)
    run = dpbounds.Experiment(path, set=["trials=2"], only=["liu2022.*"]).run(out=tmp_path / "out")
    assert set(run.results["algorithm"]) == {"liu2022.oja"} and len(run.results) == 2


def test_report_and_load_give_what_the_cli_gives(tmp_path):
    run = dpbounds.Experiment(SPEC).run(out=tmp_path / "results")
    verdicts = run.report(tmp_path / "paper")
    assert (tmp_path / "paper" / "summary.md").is_file() and verdicts == run.verdicts
    loaded = dpbounds.load(run.dir)
    assert loaded.verdicts == run.verdicts
    key = ["algorithm", "n", "trial"]
    assert loaded.results.sort_values(key)["sin"].tolist() == run.results.sort_values(key)["sin"].tolist()
    assert loaded.outcome is None  # read, not run
    gate = dpbounds.compare(run, loaded)
    assert not gate["worse"] and "OK" in gate["text"]


@pytest.mark.parametrize("change, message", [
    ({"trails": 3}, r"experiment dict:\d+:\d+: unknown key 'trails' .*did you mean 'trials'"),
    ({"algorithms": ["baseline.dp_gaus_1"]}, "did you mean 'baseline.dp_gauss_1'"),
    ({"privacy": {"epsilon": -1, "delta": 1e-5}}, "epsilon must be a finite number > 0, got -1"),
    ({"grid": {"n": [float("nan")]}}, "grid axis n must be a finite number"),
])
def test_a_bad_experiment_is_a_value_error_naming_the_problem(change, message):
    with pytest.raises(ValueError, match=message):
        dpbounds.Experiment({**SPEC, **change})


def test_bad_sources_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="a dict or the path"):
        dpbounds.Experiment(42)
    with pytest.raises(ValueError, match="nonexistent.yaml"):
        dpbounds.Experiment(tmp_path / "nonexistent.yaml")
    (tmp_path / "broken.yaml").write_text("name: [unclosed\n")
    with pytest.raises(ValueError, match="broken.yaml:"):
        dpbounds.Experiment(tmp_path / "broken.yaml")
    with pytest.raises(ValueError, match="run it first"):
        dpbounds.Experiment(SPEC).report(tmp_path)
    with pytest.raises(ValueError, match="threads"):
        dpbounds.Experiment(SPEC).run(out=tmp_path, threads=0)
    assert not (tmp_path / "from-python").exists()  # refused before anything was created
