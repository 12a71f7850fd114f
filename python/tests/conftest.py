"""Shared fixtures of the Python package's tests (run by ctest, one ctest test per file, with
PYTHONPATH pointing at the build tree's package)."""
import numpy as np
import pytest


@pytest.fixture
def records():
    """500 records in d = 5 with one strong direction (e_1, variance 4 + 1) and unit noise."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(500, 5))
    X[:, 0] *= np.sqrt(5.0)
    return X
