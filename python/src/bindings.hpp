#pragma once
// The extension module's parts, one per job; module.cpp puts them together.
#include <pybind11/pybind11.h>

namespace dpb::python {

namespace py = pybind11;

void bind_catalog(py::module_& m);     // algorithms, models, theorems, bound
void bind_run(py::module_& m);         // one algorithm on the caller's data
void bind_experiment(py::module_& m);  // experiments, stored runs, compare
void bind_audit(py::module_& m);       // the privacy auditor
void bind_python_algorithm(py::module_& m);

}  // namespace dpb::python
