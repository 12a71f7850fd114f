#pragma once
// Values between Python and dpbounds: JSON-shaped results as Python objects, parameter dicts as
// ParamMaps, and data matrices as numpy arrays with records in rows (numpy's convention) where dpbounds
// keeps them in columns.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>
#include <string>

#include "core/params.hpp"

namespace dpb::python {

namespace py = pybind11;

// null -> None, numbers -> int / float, arrays -> list, objects -> dict.
py::object to_python(const nlohmann::json& value);

// A dict of named parameters: each value a number, a string or a list of numbers (a bool is refused:
// dpbounds' parameters are numbers or names). Throws dpb::InvalidArgument naming `owner` otherwise.
core::ParamMap param_map(const py::handle& params, const std::string& owner);

// An n x d array of records (one per row), any dtype and layout numpy can cast to float64, as the d x n
// matrix dpbounds' algorithms read (records in columns: the same memory as a C-ordered n x d array).
// Throws dpb::InvalidArgument naming `what` when it is not two-dimensional with n, d >= 1 or holds a
// value that is not finite.
Eigen::MatrixXd records(const py::handle& X, const std::string& what);

// A d x n matrix of records as a read-only n x d numpy array over the same memory (no copy). The array owns
// nothing: the caller must see that it does not outlive `records` (python_algorithm checks its refcount).
py::array records_view(const Eigen::MatrixXd& records);

// A Python int or float, or a numpy scalar (anything with __float__), but not a bool: what a numeric
// parameter accepts.
bool is_number(const py::handle& value);

// Copies, in numpy's shape: a d x k matrix stays d x k.
py::array_t<double> to_numpy(const Eigen::MatrixXd& matrix);
py::array_t<double> to_numpy(const Eigen::VectorXd& vector);

// A two-dimensional array of shape (rows, cols) of finite numbers, copied; dpb::InvalidArgument naming
// `what` otherwise.
Eigen::MatrixXd matrix(const py::handle& value, Eigen::Index rows, Eigen::Index cols, const std::string& what);
// A one-dimensional array of 1 to max_length finite numbers, copied.
Eigen::VectorXd vector(const py::handle& value, Eigen::Index max_length, const std::string& what);

}  // namespace dpb::python
