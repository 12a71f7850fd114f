// The extension module behind `import dpbounds` (python/dpbounds/__init__.py is the public API):
// dpbounds' errors become ValueError with the CLI's one-line message.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "core/errors.hpp"

PYBIND11_MODULE(_dpbounds, m) {
  m.doc() = "dpbounds' C++ core; use the package `dpbounds`, not this module";
  m.attr("__version__") = DPB_VERSION;
  pybind11::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const dpb::InvalidArgument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const dpb::ConfigError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  dpb::python::bind_catalog(m);
  dpb::python::bind_run(m);
  dpb::python::bind_experiment(m);
  dpb::python::bind_audit(m);
  dpb::python::bind_python_algorithm(m);
}
