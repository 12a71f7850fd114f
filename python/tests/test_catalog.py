"""The catalogue from Python: algorithms, theorems and one bound, as plain values."""
import numpy as np
import pytest

import dpbounds


def test_algorithms_are_the_registry_without_mutants_unless_asked():
    ids = [a["id"] for a in dpbounds.algorithms()]
    assert "baseline.dp_gauss_1" in ids and "liu2022.private_oja" in ids
    assert not any(i.startswith("mutant.") for i in ids)
    with_mutants = [a["id"] for a in dpbounds.algorithms(include_mutants=True)]
    assert "mutant.dp_gauss_halved_noise" in with_mutants
    entry = next(a for a in dpbounds.algorithms() if a["id"] == "baseline.dp_gauss_1")
    assert {p["name"] for p in entry["params"]} >= {"beta", "calibration"}


def test_theorems_filter_by_paper_and_kind():
    upper = dpbounds.theorems(paper="liu2022", kind="upper")
    assert upper and all(t["id"].startswith("liu2022.") and t["kind"] == "upper" for t in upper)
    assert "liu2022.thm5.1" in {t["id"] for t in upper}
    assert len(dpbounds.theorems()) > len(upper)
    with pytest.raises(ValueError, match="liu2022"):
        dpbounds.theorems(paper="liu2021")


def test_bound_at_the_example_point_and_its_errors():
    b = dpbounds.bound("liu2022.cor5.2", example=True)
    larger_n = dpbounds.bound("liu2022.cor5.2", example=True, n=b["params"]["n"] * 100)
    assert 0 < larger_n["rate_value"] < b["rate_value"]  # the rate falls with n
    # A numpy integer is a number, as it is for run() and register() (np.int64 is no subclass of int).
    as_numpy = dpbounds.bound("liu2022.cor5.2", example=True, n=np.int64(b["params"]["n"] * 100))
    assert as_numpy["rate_value"] == larger_n["rate_value"]
    with pytest.raises(ValueError, match="must be a number"):
        dpbounds.bound("liu2022.cor5.2", example=True, n=True)
    with pytest.raises(ValueError, match="lamda1"):  # a parameter no formula reads is refused
        dpbounds.bound("liu2022.cor5.2", example=True, lamda1=3.0)
    with pytest.raises(ValueError, match="give parameters as keywords"):  # missing ones say how to give them
        dpbounds.bound("liu2022.cor5.2")
    with pytest.raises(ValueError, match="liu2022.cor5.2"):  # an unknown id names the nearest
        dpbounds.bound("liu2022.cor5.3")
