"""dpbounds.run: a built-in algorithm on the caller's numpy data, with its claim and ledger."""
import numpy as np
import pytest

import dpbounds


def run(X, **kw):
    args = dict(k=2, epsilon=1.0, delta=1e-5, params={"beta": 6.0}, seed=3)
    args.update(kw)
    return dpbounds.run("baseline.dp_gauss_1", X, **args)


def test_release_claim_and_ledger(records):
    r = run(records)
    assert r.Q.shape == (5, 2)
    assert np.allclose(r.Q.T @ r.Q, np.eye(2), atol=1e-12)
    assert abs(r.Q[0, 0]) > 0.9  # the strong direction e_1 (sin ~ 0.1 at this n and noise)
    assert r.claim["epsilon"] == 1.0 and r.claim["delta"] == 1e-5 and r.claim["scope"] == "worst_case"
    assert r.spent["epsilon"] <= r.claim["epsilon"] * (1 + 1e-9)
    assert [e["mechanism"] for e in r.ledger] == ["gaussian"]
    # Replace-one sensitivity of the trace-clipped sum: sqrt(2) beta^2 (algorithms/baselines/analyze_gauss.hpp).
    assert r.ledger[0]["sensitivity"] == pytest.approx(np.sqrt(2) * 36)
    assert not hasattr(r, "diagnostics")  # read off the data without noise: never released


def test_same_seed_same_release_other_seed_other(records):
    assert np.array_equal(run(records).Q, run(records).Q)
    assert not np.array_equal(run(records).Q, run(records, seed=4).Q)


def test_layouts_and_dtypes_give_the_same_release(records):
    # Fortran order and float32 are converted; the release depends on the values only.
    assert np.array_equal(run(records).Q, run(np.asfortranarray(records)).Q)
    as32 = records.astype(np.float32)
    assert np.array_equal(run(as32).Q, run(as32.astype(np.float64)).Q)


def test_the_oja_family_runs_on_records(records):
    r = dpbounds.run("liu2022.private_oja", records, k=1, epsilon=2.0, delta=1e-5,
                     params={"lambda1": 5.0, "lambda2": 1.0, "gamma": 3.0}, seed=1)
    assert r.Q.shape == (5, 1) and r.ledger


@pytest.mark.parametrize("change, message", [
    (dict(epsilon=0.0), "epsilon"),
    (dict(delta=1.5), "delta"),
    (dict(k=6), "k must lie in"),
    (dict(params={"bta": 6.0}), "bta"),
    (dict(params={"calibration": "exact"}), "analytic"),
    (dict(params={"beta": True}), "number"),
    (dict(neighbours="swap"), "replace, add_remove"),
])
def test_bad_input_is_a_value_error_with_the_cli_message(records, change, message):
    with pytest.raises(ValueError, match=message):
        run(records, **change)


def test_bad_data_is_a_value_error(records):
    bad = records.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="finite"):
        run(bad)
    with pytest.raises(ValueError, match="two-dimensional"):
        run(records[:, 0])
    with pytest.raises(ValueError, match="array of numbers"):
        run([["a", "b"]])
    with pytest.raises(ValueError, match="unknown algorithm 'baseline.dp_gaus_1'"):
        dpbounds.run("baseline.dp_gaus_1", records)


def outer_products(X):
    return np.einsum("ni,nj->nij", X, X)


def test_the_oja_family_reads_the_matrices_themselves(records):
    args = dict(k=1, epsilon=2.0, delta=1e-5, params={"lambda1": 5.0, "lambda2": 1.0}, seed=2)
    from_records = dpbounds.run("liu2022.oja", records, **args)
    from_matrices = dpbounds.run("liu2022.oja", samples=outer_products(records), **args)
    # x (x^T Q) and (x x^T) Q round differently; the same steps otherwise.
    assert np.allclose(from_matrices.Q, from_records.Q, atol=1e-8)
    # Matrices that are not rank one: A_i = x x^T + I shifts every eigenvalue, not the eigenvectors.
    shifted = dpbounds.run("liu2022.oja", samples=outer_products(records) + np.eye(5), **args)
    assert abs(shifted.Q[0, 0]) > 0.9


def test_every_oja_family_algorithm_takes_matrices_or_says_why_not(records):
    samples = outer_products(records[:200])
    for entry in dpbounds.algorithms():
        if entry["needs"] != "sample_matrices":
            continue
        try:  # a release or a ValueError naming what it lacks; never a crash of the interpreter
            r = dpbounds.run(entry["id"], samples=samples, k=1, epsilon=1.0, delta=1e-5, seed=1)
            assert r.claim["statement"], entry["id"]  # PRIVRANGE may release BOTTOM: nothing but its claim
        except ValueError as error:
            assert str(error), entry["id"]


def test_bad_matrices_are_value_errors(records):
    samples = outer_products(records[:20])
    with pytest.raises(ValueError, match="reads records"):
        dpbounds.run("baseline.dp_gauss_1", samples=samples, params={"beta": 6.0})
    with pytest.raises(ValueError, match="one of the two"):
        dpbounds.run("liu2022.oja", records, samples=samples)
    with pytest.raises(ValueError, match="one of the two"):
        dpbounds.run("liu2022.oja")
    with pytest.raises(ValueError, match=r"\(n, d, d\)"):
        dpbounds.run("liu2022.oja", samples=samples[:, :, :4])
    bad = samples.copy()
    bad[3, 1, 2] = np.inf
    with pytest.raises(ValueError, match="A_3 is inf"):
        dpbounds.run("liu2022.oja", samples=bad)


def test_release_notes_say_what_the_noisy_outputs_show(records):
    assert run(records).notes == []
    # DP-PCA at 2e4 records and eps = 0.8: every Alg. 4 histogram releases nothing, every step is skipped and
    # Q is the random start. The count is read off the released histograms, so the release may say it.
    X = np.random.default_rng(3).normal(size=(20000, 5))
    r = dpbounds.run("liu2022.dp_pca", X, k=1, epsilon=0.8, delta=1e-6, params={"c1": 0.2}, seed=1)
    assert len(r.notes) == 1 and "random starting direction" in r.notes[0]
