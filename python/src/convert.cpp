#include "convert.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::python {

py::object to_python(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(value.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(value.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(value.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(value.get<double>());
    case nlohmann::json::value_t::string: return py::str(value.get<std::string>());
    case nlohmann::json::value_t::array: {
      py::list list;
      for (const auto& item : value) list.append(to_python(item));
      return list;
    }
    case nlohmann::json::value_t::object: {
      py::dict dict;
      for (const auto& [key, item] : value.items()) dict[py::str(key)] = to_python(item);
      return dict;
    }
    default: return py::none();  // binary and discarded values: never written by dpbounds
  }
}

bool is_number(const py::handle& value) {
  return !py::isinstance<py::bool_>(value) && (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value) ||
                                               py::hasattr(value, "__float__"));
}

core::ParamMap param_map(const py::handle& params, const std::string& owner) {
  core::ParamMap map;
  if (params.is_none()) return map;
  if (!py::isinstance<py::dict>(params))
    throw InvalidArgument(fmt::format("{}: params must be a dict of name -> value", owner));
  for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(params)) {
    const std::string name = py::str(key);
    const auto wrong = [&] {
      return InvalidArgument(fmt::format("{}: parameter '{}' = {} must be a number, a string or a list of numbers",
                                         owner, name, std::string(py::repr(value))));
    };
    if (py::isinstance<py::str>(value)) {
      map.set(name, value.cast<std::string>());
    } else if (is_number(value)) {
      map.set(name, value.cast<double>());
    } else if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value) || py::isinstance<py::array>(value)) {
      std::vector<double> numbers;
      for (const auto& item : value) {
        if (!is_number(item)) throw wrong();
        numbers.push_back(item.cast<double>());
      }
      map.set(name, std::move(numbers));
    } else {
      throw wrong();
    }
  }
  return map;
}

namespace {

// `value` as a C-ordered float64 array (numpy copies only when the dtype or layout differ).
py::array_t<double, py::array::c_style | py::array::forcecast> as_doubles(const py::handle& value,
                                                                          const std::string& what) {
  auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  if (!array) throw InvalidArgument(fmt::format("{} must be an array of numbers", what));
  return array;
}

}  // namespace

Eigen::MatrixXd records(const py::handle& X, const std::string& what) {
  const auto array = as_doubles(X, what);
  if (array.ndim() != 2 || array.shape(0) < 1 || array.shape(1) < 1)
    throw InvalidArgument(fmt::format("{} must be a two-dimensional array of records, n x d with n, d >= 1 (got shape {})",
                                      what, std::string(py::str(py::getattr(array, "shape")))));
  const Eigen::MatrixXd out = Eigen::Map<const Eigen::MatrixXd>(array.data(), array.shape(1), array.shape(0));
  core::require_finite(out, what.c_str());
  return out;
}

py::array records_view(const Eigen::MatrixXd& records) {
  const auto d = static_cast<py::ssize_t>(records.rows()), n = static_cast<py::ssize_t>(records.cols());
  const auto item = static_cast<py::ssize_t>(sizeof(double));
  py::array view(py::dtype::of<double>(), {n, d}, {d * item, item}, records.data(), py::none());
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return view;
}

py::array_t<double> to_numpy(const Eigen::MatrixXd& matrix) {
  py::array_t<double, py::array::f_style> out({matrix.rows(), matrix.cols()});
  std::copy(matrix.data(), matrix.data() + matrix.size(), out.mutable_data());
  return out;
}

py::array_t<double> to_numpy(const Eigen::VectorXd& vector) {
  py::array_t<double> out(vector.size());
  std::copy(vector.data(), vector.data() + vector.size(), out.mutable_data());
  return out;
}

Eigen::MatrixXd matrix(const py::handle& value, Eigen::Index rows, Eigen::Index cols, const std::string& what) {
  const auto array = as_doubles(value, what);
  if (array.ndim() != 2 || array.shape(0) != rows || array.shape(1) != cols)
    throw InvalidArgument(fmt::format("{} must have shape ({}, {}), got {}", what, rows, cols,
                                      std::string(py::str(py::getattr(array, "shape")))));
  const Eigen::MatrixXd out =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(array.data(), rows, cols);
  core::require_finite(out, what.c_str());
  return out;
}

Eigen::VectorXd vector(const py::handle& value, Eigen::Index max_length, const std::string& what) {
  const auto array = as_doubles(value, what);
  if (array.ndim() != 1 || array.shape(0) < 1 || array.shape(0) > max_length)
    throw InvalidArgument(fmt::format("{} must be a one-dimensional array of 1 to {} numbers, got shape {}", what,
                                      max_length, std::string(py::str(py::getattr(array, "shape")))));
  const Eigen::VectorXd out = Eigen::Map<const Eigen::VectorXd>(array.data(), array.shape(0));
  core::require_finite(Eigen::MatrixXd(out), what.c_str());
  return out;
}

}  // namespace dpb::python
