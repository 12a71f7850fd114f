"""dpbounds from Python: differentially private PCA, its theorems, and a verifier that checks both.

The C++ core does the work; this package hands it numpy arrays and returns plain Python values. The
workflow a researcher follows is in docs/python.md. In short::

    import numpy as np
    import dpbounds

    # A built-in algorithm on your data (records are rows):
    X = np.random.default_rng(0).normal(size=(2000, 5))
    release = dpbounds.run("baseline.dp_gauss_1", X, k=1, epsilon=1.0, delta=1e-5,
                           params={"beta": 4.0})
    release.Q.shape          # (5, 1)
    release.claim["statement"]

    # Your own algorithm, used by experiments, checks, compare and the auditor like a built-in one:
    @dpbounds.algorithm(id="mine.analyze_gauss", claim="worst_case", params={"noise": 1.0})
    def analyze_gauss(X, k, epsilon, delta, rng, noise):
        ...
        return Q  # d x k, orthonormal columns (or a dict with "Q", "Sigma", "eigenvalues")

    # A theorem's bound at a point:
    dpbounds.bound("liu2022.cor5.2", example=True, n=1e6)["rate_value"]

Errors in what you pass (an unknown id, epsilon <= 0, NaN in X, a malformed experiment) raise
ValueError with the message the command-line tool prints.
"""
from __future__ import annotations

import inspect
import json
import marshal
import os
import pathlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

from . import _dpbounds as _core

__version__: str = _core.__version__

__all__ = [
    "Algorithm",
    "Experiment",
    "Release",
    "Run",
    "algorithm",
    "algorithms",
    "audit",
    "bound",
    "compare",
    "gaussian_sd",
    "load",
    "models",
    "register",
    "run",
    "theorems",
]

PathLike = Union[str, os.PathLike]


# --- What dpbounds knows -------------------------------------------------------------------------


def algorithms(include_mutants: bool = False) -> list[dict]:
    """Every registered algorithm: id, summary, parameters (name, type, default, range, doc), the data
    it needs, the population quantities it may read, and its privacy claim in words.

    Mutants (deliberately broken copies that exist to test the auditor) are left out unless asked for.

    >>> [a["id"] for a in dpbounds.algorithms()][:2]
    ['liu2022.oja', 'liu2022.private_oja']
    """
    return [a for a in _core.catalog("algorithms") if include_mutants or not a.get("mutant", False)]


def models() -> list[dict]:
    """Every data model experiments can draw from, with its parameters."""
    return _core.catalog("models")


def theorems(paper: Optional[str] = None, kind: Optional[str] = None) -> list[dict]:
    """The encoded theorems as dicts (id, paper, kind, loss, rate, conditions, example point, ...).

    paper: "liu2022", "cai2024", "kumar2025" or "dugler2026" (None: all); kind: "upper" or "lower".

    >>> {t["id"] for t in dpbounds.theorems(paper="liu2022", kind="upper")} >= {"liu2022.thm5.1"}
    True
    """
    return _core.theorems(paper or "", kind or "")


def bound(theorem_id: str, example: bool = False, **params: float) -> dict:
    """One theorem evaluated at a point: its rate, explicit value, and each condition with whether it holds.

    Parameters are keywords (n, d, k, epsilon, delta and whatever the theorem reads); example=True starts
    from the theorem's example point and lays yours over it. A parameter the theorem does not read is an
    error, so a typo never passes silently.

    >>> b = dpbounds.bound("liu2022.cor5.2", example=True, n=1e6)
    >>> b["rate_value"] > 0
    True
    """
    return _core.bound(theorem_id, params, example)


def gaussian_sd(sensitivity: float, epsilon: float, delta: float, calibration: str = "analytic") -> float:
    """The noise sd of an (epsilon, delta)-DP Gaussian mechanism for a release of l2 `sensitivity`, as
    dpbounds' own algorithms calibrate it: "analytic" (Balle & Wang 2018, the smallest sd, any epsilon) or
    "classical" (sensitivity sqrt(2 log(1.25/delta)) / epsilon, epsilon < 1 only).

    >>> round(dpbounds.gaussian_sd(1.0, 0.5, 1e-5, "classical"), 4)
    9.6896
    >>> dpbounds.gaussian_sd(1.0, 0.5, 1e-5) < dpbounds.gaussian_sd(1.0, 0.5, 1e-5, "classical")
    True
    """
    return _core.gaussian_sd(float(sensitivity), float(epsilon), float(delta), calibration)


# --- One algorithm on your data ------------------------------------------------------------------


@dataclass(frozen=True)
class Release:
    """What one run released, and what it cost.

    Q: d x k estimate of the top-k principal subspace (orthonormal columns), when the algorithm gives one.
    Sigma, eigenvalues, mean, scalar: the other releases, when the algorithm makes them.
    claim: the algorithm's privacy claim (epsilon, delta, neighbours, scope, conditions, statement).
    spent: what the accountant derives from the ledger: the (epsilon, delta) the run actually spent.
    ledger: every mechanism the run used, with its sensitivity, noise and cost.
    notes: what the release itself says about the run (read off its noisy outputs only), e.g. that every
        step was skipped because a private histogram released nothing, so Q is the random start.
    """

    Q: Optional[np.ndarray]
    Sigma: Optional[np.ndarray]
    eigenvalues: Optional[np.ndarray]
    mean: Optional[np.ndarray]
    scalar: Optional[float]
    claim: dict
    spent: dict
    ledger: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def run(
    algorithm: Union[str, "Algorithm"],
    X: Optional[np.ndarray] = None,
    k: int = 1,
    epsilon: float = 1.0,
    delta: float = 1e-5,
    params: Optional[Mapping[str, Any]] = None,
    seed: int = 1,
    neighbours: str = "replace",
    samples: Optional[np.ndarray] = None,
) -> Release:
    """Runs one algorithm on X (n x d, one record per row) and returns its Release.

    The Oja family reads matrices A_i: from X they are x_i x_i^T; samples (n x d x d) gives them
    directly, read in place when it is a C-ordered float64 array. The result depends only on the data,
    the parameters and seed. Parameters an algorithm would read from a model in simulation (a clipping
    radius, lambda1, ...) must be given in params; the error says which.

    >>> X = np.random.default_rng(0).normal(size=(1000, 4))
    >>> r = dpbounds.run("baseline.dp_gauss_1", X, k=2, epsilon=1, delta=1e-5, params={"beta": 4.0})
    >>> r.Q.shape, r.spent["epsilon"] <= r.claim["epsilon"]
    ((4, 2), True)
    """
    out = _core.run_algorithm(_id_of(algorithm), X, samples, int(k), float(epsilon), float(delta),
                              dict(params or {}), int(seed), neighbours)
    return Release(**out)


# --- Your algorithm, in process ------------------------------------------------------------------


class Algorithm:
    """A Python function registered as a dpbounds algorithm (made by @dpbounds.algorithm or register).

    Calling it calls the function; `id` is what experiments, run, audit and compare know it by.
    """

    def __init__(self, function: Callable, id: str, claim: str, neighbours: str, params: Mapping[str, Any]):
        self.function = function
        self.id = id
        self.claim = claim
        self.neighbours = neighbours
        self.params = dict(params)
        self.__doc__ = function.__doc__
        self.__wrapped__ = function

    def __call__(self, *args, **kwargs):
        return self.function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<dpbounds.Algorithm {self.id!r} ({self.claim})>"


def _code_of(function: Callable) -> str:
    """The function's source, or its bytecode when there is no source (a REPL lambda): what changes when
    the function does, so a changed function never resumes the rows of the old one."""
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        code = getattr(function, "__code__", None)
        return marshal.dumps(code).hex() if code is not None else repr(function)


def register(
    function: Callable,
    id: str,
    claim: Optional[str] = "worst_case",
    neighbours: str = "replace",
    params: Optional[Mapping[str, Any]] = None,
    summary: str = "",
) -> Algorithm:
    """Registers f(X, k, epsilon, delta, rng, **params) as algorithm `id`; see `algorithm`."""
    _core.register_algorithm(id, function, claim or "not_private", neighbours, dict(params or {}), summary,
                             _code_of(function))
    return Algorithm(function, id, claim or "not_private", neighbours, params or {})


def algorithm(
    id: str,
    claim: Optional[str] = "worst_case",
    neighbours: str = "replace",
    params: Optional[Mapping[str, Any]] = None,
    summary: str = "",
) -> Callable[[Callable], Algorithm]:
    """Decorator: registers f(X, k, epsilon, delta, rng, **params) as a dpbounds algorithm.

    X: the trial's records, a read-only n x d float64 view (copy it to keep it past the call).
    k: the number of components asked for. epsilon, delta: the budget it must spend at most.
    rng: a numpy Generator over the trial's counter-based stream: use it for every random number and
        runs are reproducible, across threads too.
    params: name -> default (numbers or strings); each is passed as a keyword, can be set per experiment
        ("mine.analyze_gauss[noise=0.5]") and enters the experiment's key.
    Return Q (d x k, orthonormal columns) or a dict with "Q" and optionally "Sigma" (d x d, symmetric)
    and "eigenvalues" (1 to d numbers).

    claim: "worst_case" ((epsilon, delta)-DP for every pair of neighbouring datasets), "under_model_assumptions",
        or None / "not_private". It is user-declared: dpbounds reports it as such and the auditor tests it.
    neighbours: "replace" (one record replaced) or "add_remove".

    A Python exception fails that trial with its message; the run goes on. Registering an id again
    replaces the earlier function (a notebook cell run twice).

        @dpbounds.algorithm(id="mine.analyze_gauss", params={"beta": 4.0})
        def analyze_gauss(X, k, epsilon, delta, rng, beta):
            n, d = X.shape
            norms = np.maximum(np.linalg.norm(X, axis=1) / beta, 1.0)
            C = (X / norms[:, None]).T @ (X / norms[:, None])
            sd = np.sqrt(2) * beta**2 * np.sqrt(2 * np.log(1.25 / delta)) / epsilon
            E = np.triu(rng.normal(scale=sd, size=(d, d)))
            w, V = np.linalg.eigh(C + E + np.triu(E, 1).T)
            return V[:, ::-1][:, :k]
    """

    def register_function(function: Callable) -> Algorithm:
        return register(function, id, claim, neighbours, params, summary)

    return register_function


def _id_of(algorithm: Union[str, Algorithm]) -> str:
    if isinstance(algorithm, Algorithm):
        return algorithm.id
    if isinstance(algorithm, str):
        return algorithm
    raise ValueError(f"an algorithm is an id (str) or a registered dpbounds.Algorithm, got {algorithm!r}")


# --- Experiments ---------------------------------------------------------------------------------


class Run:
    """A run of an experiment: its trials, verdicts and audits, as `dpbounds run` reports them.

    results: one row per trial (cell, algorithm, trial, every cell parameter such as n, d, epsilon, each
        metric, diagnostics.*, error, seconds) as a pandas DataFrame.
    verdicts: one dict per check (check, status PASS / FAIL / INCONCLUSIVE, summary, figures).
    audits: one dict per privacy audit (eps_lb, verdict, ...). passed: what exit status 0 means for the CLI.
    """

    def __init__(self, core_run):
        self._run = core_run

    @property
    def results(self):
        import pandas

        return pandas.DataFrame(self._run.columns())

    @property
    def verdicts(self) -> list[dict]:
        return self._run.verdicts

    @property
    def audits(self) -> list[dict]:
        return self._run.audits

    @property
    def failures(self) -> list[str]:
        return list(self._run.failures)

    @property
    def passed(self) -> bool:
        return self._run.exit_code == 0

    @property
    def dir(self) -> pathlib.Path:
        return pathlib.Path(self._run.dir)

    @property
    def outcome(self) -> Optional[dict]:
        return self._run.outcome

    def report(self, out: PathLike) -> list[dict]:
        """Writes the report `dpbounds check` writes (summary.md, tables, figures, verdicts.json) into
        `out`, checks run again on the stored trials; returns the verdicts."""
        self._run.report(os.fspath(out))
        return self._run.verdicts

    def __str__(self) -> str:
        return self._run.summary()

    def __repr__(self) -> str:
        return f"<dpbounds.Run {self._run.name!r} at {self._run.dir!r}, passed={self.passed}>"


class Experiment:
    """An experiment, from a YAML file or from a dict of the same shape (docs/experiments.md).

        exp = dpbounds.Experiment({
            "name": "gauss", "seed": 1, "trials": 20,
            "model": {"name": "spiked_gaussian", "d": 5, "r": 1, "lambda": 4, "sigma2": 1},
            "grid": {"n": [200, 400]},
            "privacy": {"epsilon": 1.0, "delta": 1e-5},
            "algorithms": ["baseline.dp_gauss_1", {"mine.analyze_gauss": {"beta": 4.0}}],
            "metrics": ["sin"],
        })
        run = exp.run(out="results", threads=2)
        run.results.groupby(["algorithm", "n"])["sin"].mean()

    set and only are `dpbounds run`'s --set and --only ("grid.n=[1000,2000]", "liu2022.*").
    """

    def __init__(self, source: Union[Mapping[str, Any], PathLike], *, set: Sequence[str] = (),
                 only: Sequence[str] = ()):
        if isinstance(source, Mapping):
            text = json.dumps(source, indent=2, default=_json_value)  # JSON is YAML
            self._spec = _core.parse_experiment(text, "experiment dict", list(set), list(only))
        elif isinstance(source, (str, os.PathLike)):
            self._spec = _core.load_experiment(os.fspath(source), list(set), list(only))
        else:
            raise ValueError(f"an experiment is a dict or the path of a YAML file, got {type(source).__name__}")
        self._last: Optional[Run] = None

    @property
    def name(self) -> str:
        return self._spec.name

    def run(self, out: PathLike = "results", threads: int = 1, stored: str = "refuse",
            progress: bool = False) -> Run:
        """Runs the trials into out/<name>/results.sqlite, then the checks, report and audits.

        stored: what to do with trials of this experiment already in the store: "refuse" (an error, as
        the CLI without --resume or --fresh), "resume" (run only the rest) or "fresh" (delete and rerun).
        progress: one line per cell on stderr. Ctrl-C stops after the trials in flight (KeyboardInterrupt;
        stored="resume" goes on).
        """
        self._last = Run(_core.run_experiment(self._spec, os.fspath(out), int(threads), stored, bool(progress)))
        return self._last

    def report(self, out: PathLike) -> list[dict]:
        """The report of the last run, written into `out` (see Run.report)."""
        if self._last is None:
            raise ValueError(f"experiment {self.name}: run it first (Experiment.run), or dpbounds.load(DIR).report(out)")
        return self._last.report(out)


def _json_value(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{value!r} ({type(value).__name__}) has no place in an experiment")


def load(results: PathLike) -> Run:
    """A stored run (the directory `run` wrote, or its results.sqlite), its checks run again."""
    return Run(_core.load_run(os.fspath(results)))


def compare(a: Union[PathLike, Run], b: Union[PathLike, Run], metrics: Iterable[str] = (), alpha: float = 0.05,
            map: Optional[Mapping[str, str]] = None) -> dict:
    """`dpbounds compare A B`: is run B significantly worse than run A (errors and audits)?

    Returns the comparison as a dict; "worse" is True when the gate fails (the CLI's exit 1) and "text"
    is what the CLI prints. map pairs a label of A with one of B ({"baseline.dp_gauss_1": "mine.gauss"}).
    """
    paths = [os.fspath(x.dir if isinstance(x, Run) else x) for x in (a, b)]
    maps = [f"{old}={new}" for old, new in (map or {}).items()]
    return _core.compare(paths[0], paths[1], list(metrics), float(alpha), maps)


# --- The auditor ---------------------------------------------------------------------------------


def audit(algorithm: Union[str, Algorithm, Callable], *, epsilon: float = 1.0, delta: float = 1e-5, n: int = 200,
          d: int = 10, k: Optional[int] = None, params: Optional[Mapping[str, Any]] = None, trials: Optional[int] = None,
          seconds: Optional[float] = None, **options: Any) -> dict:
    """An empirical lower bound on the algorithm's privacy loss, checked against its claim.

    The same auditor and defaults as `dpbounds audit`: without trials, 1000 runs per side growing while
    60 seconds allow. options are the keys of an experiment's audit entry (docs/auditing.md): model,
    model_params, neighbours (search: the best construction and score by pilot runs), search_trials, per_entry, score,
    confidence, seed, canary_scale, index, max_trials, expect.
    A plain function is registered first (as "python.<name>", claim worst_case).
    Returns the audit as a dict: verdict, epsilon_lower, tightness, claim, gdp_mu_lower, ...; "text" is
    what the CLI prints.
    """
    if callable(algorithm) and not isinstance(algorithm, Algorithm):
        algorithm = register(algorithm, f"python.{getattr(algorithm, '__name__', 'function')}")
    spec = {"algorithm": _id_of(algorithm), "epsilon": epsilon, "delta": delta, "n": n, "d": d,
            "params": dict(params or {})}
    if k is not None:  # unset: the CLI's default (1, or d where the worst case releases every eigenpair)
        spec["k"] = k
    if trials is not None:
        spec["trials"] = trials
    # The CLI's default: adaptive within a time budget unless the runs are fixed.
    spec["seconds"] = seconds if seconds is not None else (0 if trials is not None else 60)
    spec.update(options)
    return _core.audit(json.dumps(spec, default=_json_value))
