#!/usr/bin/env python3
"""bench_python: what running an algorithm written in Python costs per trial beyond the algorithm itself,
registered in process (@dpbounds.algorithm) against the same function run as external.command in
persistent mode, the way a researcher reached the suite before the Python package (issue 25's target:
the in-process overhead at least 5x lower at n = 1000, d = 50).

The runner times each trial's algorithm call (TrialRow.seconds). The overhead is that time for a function
that does nothing (it returns the first k axes): handing over X and the random stream, calling, checking
the return; for external.command also writing X to the pipe and parsing the reply. A numpy Analyze-Gauss
run both ways shows what it amounts to beside real work. Run by `dpbounds bench --only python`;
--serve NAME makes this file the external program. Accepts Google Benchmark's --benchmark_filter (a regex over the case
names) and --benchmark_out=FILE (JSON), as the suite passes them to every benchmark.
"""
import json
import math
import os
import re
import sys
import tempfile

import numpy as np

N, D, K, TRIALS = 1000, 50, 2, 200
BETA = 8.0


def analyze_gauss(X, k, epsilon, delta, rng):
    """Analyze Gauss on the norm-clipped second moment, classical calibration (eps < 1 not needed here:
    the benchmark times it, its claim is not at issue)."""
    n, d = X.shape
    clipped = X * np.minimum(1.0, BETA / np.maximum(np.linalg.norm(X, axis=1), 1e-300))[:, None]
    sd = math.sqrt(2) * BETA**2 * math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    E = np.triu(rng.normal(scale=sd, size=(d, d)))
    w, V = np.linalg.eigh(clipped.T @ clipped + E + np.triu(E, 1).T)
    return V[:, ::-1][:, :k]


def nothing(X, k, epsilon, delta, rng):
    """The overhead's probe: no work, a valid return."""
    return np.eye(X.shape[1])[:, :k]


FUNCTIONS = {"nothing": nothing, "analyze_gauss": analyze_gauss}


def serve(function):
    """The external.command protocol, version 2 (docs/external.md), persistent: one request per line."""
    stdin, stdout = sys.stdin.buffer, sys.stdout
    while True:
        header = stdin.readline()
        if not header:
            return
        request = json.loads(header)
        n, d = request["n"], request["d"]
        X = np.frombuffer(stdin.read(8 * n * d), dtype="<f8").reshape(n, d)
        Q = function(X, request["k"], request["epsilon"], request["delta"], np.random.default_rng(request["seed"]))
        stdout.write(json.dumps({"id": request["id"], "Q": Q.T.tolist()}) + "\n")
        stdout.flush()


def main(argv):
    import dpbounds

    pattern = re.compile(next((a.split("=", 1)[1] for a in argv if a.startswith("--benchmark_filter=")), ""))
    out_file = next((a.split("=", 1)[1] for a in argv if a.startswith("--benchmark_out=")), None)
    cases = {}
    for name, function in FUNCTIONS.items():
        dpbounds.register(function, f"bench.{name}", claim=None)
        program = f"'{sys.executable}' '{os.path.abspath(__file__)}' --serve {name}"
        cases[f"python_overhead/{name}/in_process"] = f"bench.{name}"
        cases[f"python_overhead/{name}/external_persistent"] = {
            "external.command": {"command": program, "protocol": "persistent"}}
    cases = {name: spec for name, spec in cases.items() if pattern.search(name)}
    if not cases:
        return 0
    rows = []
    print(f"n = {N}, d = {D}, k = {K}, {TRIALS} trials each; median time of the algorithm call per trial")
    for name, spec in cases.items():
        with tempfile.TemporaryDirectory() as out:
            results = dpbounds.Experiment({
                "name": "python-overhead", "seed": 1, "trials": TRIALS,
                "model": {"name": "spiked_gaussian", "d": D, "r": 1, "lambda": 4, "sigma2": 1},
                "grid": {"n": [N]}, "privacy": {"epsilon": 1.0, "delta": 1e-5},
                "algorithms": [spec], "metrics": ["sin"],
            }).run(out=out, threads=1).results
        if (results["error"] != "").any():
            print(f"{name}: {results[results['error'] != '']['error'].iloc[0]}", file=sys.stderr)
            return 1
        median = float(np.median(results["seconds"]))
        rows.append({"name": name, "real_time": median * 1e3, "time_unit": "ms"})
        print(f"{name:<48} {median * 1e3:9.3f} ms")
    times = {row["name"]: row["real_time"] for row in rows}
    probe = "python_overhead/nothing/"
    if probe + "in_process" in times and probe + "external_persistent" in times:
        ratio = times[probe + "external_persistent"] / times[probe + "in_process"]
        print(f"overhead per trial, external.command (persistent) / in process: {ratio:.1f}x (target >= 5x)")
    if out_file:
        with open(out_file, "w") as f:
            json.dump({"context": {"library": "dpbounds " + dpbounds.__version__}, "benchmarks": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(FUNCTIONS[sys.argv[2]])
    else:
        sys.exit(main(sys.argv[1:]))
