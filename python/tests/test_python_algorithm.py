"""A Python function as a dpbounds algorithm: experiments run it like a built-in one, reproducibly, and
every way it can go wrong fails its trial with a readable message, never the run or the interpreter."""
import numpy as np
import pytest

import dpbounds


def experiment(algorithms, name="python-algorithm", trials=6, seed=1):
    return dpbounds.Experiment({
        "name": name, "seed": seed, "trials": trials,
        "model": {"name": "spiked_gaussian", "d": 5, "r": 1, "lambda": 4, "sigma2": 1},
        "grid": {"n": [200, 400]},
        "privacy": {"epsilon": 1.0, "delta": 1e-5},
        "algorithms": algorithms,
        "metrics": ["sin"],
    })


@dpbounds.algorithm(id="test.random_subspace", claim="worst_case", params={"scale": 1.0})
def random_subspace(X, k, epsilon, delta, rng, scale):
    """Ignores the data: a uniformly random k-dimensional subspace (0-DP), drawn from the trial's stream."""
    Q, _ = np.linalg.qr(scale * rng.standard_normal((X.shape[1], k)))
    return Q


def test_registered_and_listed_like_a_built_in():
    entry = next(a for a in dpbounds.algorithms() if a["id"] == "test.random_subspace")
    assert [p["name"] for p in entry["params"]][0] == "scale"
    assert "user-declared" in entry["privacy"]
    assert random_subspace.id == "test.random_subspace"
    assert random_subspace(np.zeros((3, 4)), 2, 1.0, 0.0, np.random.default_rng(0), 1.0).shape == (4, 2)


def test_runs_are_reproducible_across_reruns_and_threads(tmp_path):
    exp = experiment(["test.random_subspace", "baseline.nonprivate_pca"])
    one = exp.run(out=tmp_path / "a", threads=1).results
    two = exp.run(out=tmp_path / "b", threads=2).results
    assert (one["error"] == "").all() and len(one) == 2 * 2 * 6
    key = ["algorithm", "n", "trial"]
    assert np.array_equal(one.sort_values(key)["sin"].to_numpy(), two.sort_values(key)["sin"].to_numpy())
    # The rng is the trial's own stream: another seed gives other numbers, trials differ from each other.
    other = experiment(["test.random_subspace"], seed=2).run(out=tmp_path / "c").results
    mine = one[one["algorithm"] == "test.random_subspace"]
    assert not np.array_equal(np.sort(mine["sin"].to_numpy()), np.sort(other["sin"].to_numpy()))
    assert mine["sin"].nunique() == len(mine)


def test_its_parameters_are_set_per_experiment(tmp_path):
    results = experiment([{"test.random_subspace": {"scale": 2.0}}]).run(out=tmp_path).results
    assert set(results["algorithm"]) == {"test.random_subspace[scale=2]"}
    with pytest.raises(ValueError, match="scal"):
        experiment([{"test.random_subspace": {"scal": 2.0}}])


def failing(message_of_X):
    def f(X, k, epsilon, delta, rng):
        return message_of_X(X, k)
    return f


KEPT = []


@pytest.mark.parametrize("body, message", [
    (lambda X, k: 1 / 0, "ZeroDivisionError: division by zero"),
    (lambda X, k: np.ones((X.shape[1], k + 1)), "must have shape (5, 1)"),
    (lambda X, k: np.ones((X.shape[1], k)), "not orthonormal"),
    (lambda X, k: {"Q": np.eye(X.shape[1])[:, :k], "sigma": 1}, "key 'sigma'"),
    (lambda X, k: {"Q": np.eye(X.shape[1])[:, :k], "eigenvalues": [np.nan]}, "finite"),
    (lambda X, k: "Q", "array of numbers"),
    (lambda X, k: KEPT.append(X) or np.eye(X.shape[1])[:, :k], "kept a reference to X"),
])
def test_a_failing_function_fails_its_trials_not_the_run(tmp_path, body, message):
    dpbounds.register(failing(body), "test.failing")
    run = experiment(["test.failing", "baseline.nonprivate_pca"], trials=2).run(out=tmp_path)
    results = run.results
    mine = results[results["algorithm"] == "test.failing"]
    assert len(mine) == 4 and all(message in e for e in mine["error"])
    assert (results[results["algorithm"] == "baseline.nonprivate_pca"]["error"] == "").all()
    assert not run.passed  # a pair without a successful trial fails the run (the CLI's exit 1)
    assert any("test.failing" in line for line in run.failures)
    KEPT.clear()


def test_x_is_a_read_only_view(tmp_path):
    def writes(X, k, epsilon, delta, rng):
        X[0, 0] = 1.0
    dpbounds.register(writes, "test.writes")
    results = experiment(["test.writes"], trials=1).run(out=tmp_path).results
    assert all("read-only" in e for e in results["error"])


def test_registering_again_replaces_and_bad_registrations_are_value_errors():
    dpbounds.register(lambda X, k, e, d, rng: np.eye(X.shape[1])[:, :k], "test.replaced")
    dpbounds.register(lambda X, k, e, d, rng: np.eye(X.shape[1])[:, -k:], "test.replaced")
    X = np.random.default_rng(0).normal(size=(10, 3))
    assert np.array_equal(dpbounds.run("test.replaced", X).Q, np.eye(3)[:, -1:])
    with pytest.raises(ValueError, match="worst_case, under_model_assumptions, not_private"):
        dpbounds.register(random_subspace.function, "test.bad_claim", claim="always")
    with pytest.raises(ValueError, match="id of a built-in algorithm"):
        dpbounds.register(random_subspace.function, "baseline.dp_gauss_1")
    with pytest.raises(ValueError, match="must be a number or a string"):
        dpbounds.register(random_subspace.function, "test.bad_param", params={"flag": True})
    # A numpy scalar default is a number, as it is for run()'s params and bound().
    dpbounds.register(random_subspace.function, "test.numpy_default", params={"scale": np.int64(2)})
    assert dpbounds.run("test.numpy_default", X).Q.shape == (3, 1)


def test_its_claim_is_the_budget_and_marked_user_declared():
    X = np.random.default_rng(0).normal(size=(50, 4))
    r = dpbounds.run(random_subspace, X, k=2, epsilon=0.5, delta=1e-6)
    assert (r.claim["epsilon"], r.claim["delta"], r.claim["scope"]) == (0.5, 1e-6, "worst_case")
    assert "user-declared, not verified by dpbounds" in r.claim["conditions"]
    assert r.ledger == []


def test_a_plain_function_is_audited_under_its_own_name():
    def ignores_the_data(X, k, epsilon, delta, rng):
        Q, _ = np.linalg.qr(rng.standard_normal((X.shape[1], k)))
        return Q
    # 0-DP (its output does not depend on X): no score separates the two neighbouring datasets.
    result = dpbounds.audit(ignores_the_data, epsilon=1.0, delta=1e-5, n=50, d=4, trials=500)
    assert result["algorithm"] == "python.ignores_the_data" and result["verdict"] == "PASS", result["text"]
    with pytest.raises(ValueError, match="trials"):
        dpbounds.audit(ignores_the_data, trials=3)
