#pragma once
// A Python function as a dpbounds algorithm, in process (docs/python.md "Your algorithm"): registered
// under its id, it runs in experiments, checks, `compare` and the auditor like a built-in one.
#include <pybind11/pybind11.h>

#include <string>

namespace dpb::python {

namespace py = pybind11;

struct PythonAlgorithm {
  std::string id;
  std::string summary;
  py::object function;  // f(X, k, epsilon, delta, rng, **params) -> Q, or a dict with Q, Sigma, eigenvalues
  std::string scope;    // "worst_case" | "under_model_assumptions" | "not_private" (the declared claim)
  std::string neighbours = "replace";
  py::dict params;      // name -> default (a number or a string): the schema, passed to f as keywords
  std::string code;     // the function's source (or bytecode): its digest enters every experiment's key
};

// Adds (or, for an id registered here before, replaces) the algorithm in dpbounds' registry. Each run
// calls the function with the GIL held on whichever worker thread runs the trial: X is the trial's data
// as a read-only n x d view (no copy; keeping a reference to it past the call fails the trial), rng a
// numpy Generator drawing from the trial's counter-based stream. A Python exception fails that trial
// with its type and message. The claim is the one declared, marked user-declared: dpbounds does not
// verify it (the auditor tests it).
void register_python_algorithm(const PythonAlgorithm& algorithm);


}  // namespace dpb::python
