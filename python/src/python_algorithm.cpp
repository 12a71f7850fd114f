#include "python_algorithm.hpp"

#include <fmt/format.h>
#include <numpy/random/bitgen.h>

#include <memory>

#include "algorithms/external/protocol.hpp"
#include "algorithms/registry.hpp"
#include "convert.hpp"
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"

namespace dpb::python {
namespace {

constexpr const char* kDocs = "docs/python.md";
constexpr const char* kUserDeclared = "user-declared, not verified by dpbounds";

// A Python object held by a registry entry. The registry is a static object, destroyed after the
// interpreter at exit: the reference is dropped with the GIL while the interpreter lives, else left.
class PythonRef {
 public:
  explicit PythonRef(py::object object) : object_(std::move(object)) {}
  ~PythonRef() {
    if (!Py_IsInitialized()) {
      object_.release();
      return;
    }
    const py::gil_scoped_acquire gil;
    object_ = py::object();
  }
  PythonRef(const PythonRef&) = delete;
  PythonRef& operator=(const PythonRef&) = delete;
  const py::object& get() const { return object_; }

 private:
  py::object object_;
};

// The trial's counter-based stream as a numpy bit generator: numpy.random.Generator(TrialStream) reads
// its words through `capsule` (numpy's bitgen_t interface), so the function's random numbers depend on
// (seed, stream) only, like a built-in algorithm's. A Generator kept past the call draws from a copy
// of the stream (detach), never from the trial's, which is gone by then.
class TrialStream {
 public:
  explicit TrialStream(core::Rng& stream) : stream_(&stream) {
    bitgen_.state = this;
    bitgen_.next_uint64 = [](void* self) -> std::uint64_t { return (*static_cast<TrialStream*>(self)->stream_)(); };
    bitgen_.next_uint32 = [](void* self) -> std::uint32_t {
      return static_cast<std::uint32_t>((*static_cast<TrialStream*>(self)->stream_)() >> 32);
    };
    bitgen_.next_double = [](void* self) { return core::uniform01((*static_cast<TrialStream*>(self)->stream_)); };
    bitgen_.next_raw = bitgen_.next_uint64;
    lock_ = py::module_::import("threading").attr("Lock")();
  }
  TrialStream(const TrialStream&) = delete;
  TrialStream& operator=(const TrialStream&) = delete;

  void detach() {
    detached_ = *stream_;
    stream_ = &detached_;
  }
  py::capsule capsule() { return py::capsule(static_cast<void*>(&bitgen_), "BitGenerator"); }
  const py::object& lock() const { return lock_; }

 private:
  core::Rng* stream_;
  core::Rng detached_{0, 0};
  bitgen_t bitgen_{};
  py::object lock_;
};

// What every run of a registered function needs; no Python object but through PythonRef, so it may be
// destroyed without the GIL.
struct Callable {
  std::string id;
  std::string source;  // module.qualname, for claims and errors
  std::shared_ptr<const PythonRef> function;
  std::vector<std::string> param_names;  // the function's own keywords
  alg::ClaimScope scope = alg::ClaimScope::worst_case;
  alg::Neighbours neighbours = alg::Neighbours::replace;
};

py::object to_python(const core::ParamValue& value) {
  if (const auto* x = std::get_if<double>(&value)) return py::float_(*x);
  if (const auto* s = std::get_if<std::string>(&value)) return py::str(*s);
  py::list list;
  for (double x : std::get<std::vector<double>>(value)) list.append(x);
  return list;
}

// The function's return as an estimate: a d x k array (Q), or a dict with Q and optionally Sigma (d x d)
// and eigenvalues (1 to d numbers).
alg::Estimate estimate_from(const py::object& result, Eigen::Index d, int k, const std::string& id) {
  alg::Estimate out;
  const std::string what = id + ": the function's return";
  if (!py::isinstance<py::dict>(result)) {
    out.Q = matrix(result, d, k, what + " (Q, d x k)");
    return out;
  }
  const auto dict = py::reinterpret_borrow<py::dict>(result);
  for (const auto& [key, value] : dict) {
    const std::string name = py::str(key);
    if (name != "Q" && name != "Sigma" && name != "eigenvalues")
      throw InvalidArgument(fmt::format("{} has the key '{}' (allowed: Q, Sigma, eigenvalues)", what, name));
  }
  if (!dict.contains("Q")) throw InvalidArgument(fmt::format("{} is a dict without 'Q' (a d x k array)", what));
  out.Q = matrix(dict["Q"], d, k, what + "['Q']");
  if (dict.contains("Sigma")) out.Sigma = matrix(dict["Sigma"], d, d, what + "['Sigma']");
  if (dict.contains("eigenvalues")) out.eigenvalues = vector(dict["eigenvalues"], d, what + "['eigenvalues']");
  return out;
}

std::string exception_text(const py::error_already_set& e) {
  const std::string type = py::str(e.type().attr("__name__"));
  const std::string message = py::str(e.value());
  return message.empty() ? type : type + ": " + message;
}

class PythonEstimator final : public alg::Estimator {
 public:
  PythonEstimator(std::shared_ptr<const Callable> callable, core::ParamMap resolved)
      : callable_(std::move(callable)),
        tolerances_(alg::external::tolerance_fields(kDocs).read(resolved, callable_->id)),
        resolved_(std::move(resolved)) {}

  alg::Estimate run(const alg::Input& in, core::Rng& rng) const override {
    const std::string& id = callable_->id;
    if (in.X == nullptr || in.X->cols() < 1)
      throw InvalidArgument(fmt::format("{} needs the data vectors (n x d, n >= 1)", id));
    if (in.k < 1 || in.k > in.X->rows())
      throw InvalidArgument(fmt::format("{}: k must lie in [1, d = {}], got {}", id, in.X->rows(), in.k));
    alg::validate(in.privacy);
    alg::Estimate out;
    {
      const py::gil_scoped_acquire gil;
      out = call(in, rng);
    }
    if (const std::string problem = alg::external::structure_problem(out, tolerances_); !problem.empty())
      throw InvalidArgument(fmt::format("{}: the function's return {}", id, problem));
    out.claim = claim(in);
    return out;
  }

  alg::PrivacyClaim claim(const alg::Input& in) const override {
    alg::PrivacyClaim claim;
    claim.epsilon = in.privacy.epsilon;
    claim.delta = in.privacy.delta;
    claim.neighbours = callable_->neighbours;
    claim.scope = callable_->scope;
    claim.conditions = {kUserDeclared, "Python function " + callable_->source};
    return claim;
  }

 private:
  alg::Estimate call(const alg::Input& in, core::Rng& rng) const {
    const std::string& id = callable_->id;
    const py::array X = records_view(*in.X);
    auto* stream = new TrialStream(rng);
    const py::object stream_object = py::cast(stream, py::return_value_policy::take_ownership);
    const py::object generator = py::module_::import("numpy.random").attr("Generator")(stream_object);
    py::dict keywords;
    for (const auto& name : callable_->param_names) keywords[py::str(name)] = to_python(resolved_.values().at(name));
    py::object result;
    try {
      result = callable_->function->get()(X, in.k, in.privacy.epsilon, in.privacy.delta, generator, **keywords);
    } catch (const py::error_already_set& e) {
      stream->detach();
      throw InvalidArgument(fmt::format("{}: {}", id, exception_text(e)));
    }
    stream->detach();
    if (X.ref_count() > 1)
      throw InvalidArgument(fmt::format(
          "{}: the function kept a reference to X after it returned; X is a read-only view of the trial's "
          "data, valid only during the call: keep X.copy() instead",
          id));
    return estimate_from(result, in.X->rows(), in.k, id);
  }

  std::shared_ptr<const Callable> callable_;
  alg::external::ReplyTolerances tolerances_;
  core::ParamMap resolved_;
};

alg::ClaimScope parse_scope(const std::string& scope, const std::string& id) {
  if (scope == "worst_case") return alg::ClaimScope::worst_case;
  if (scope == "under_model_assumptions") return alg::ClaimScope::under_model_assumptions;
  if (scope == "not_private") return alg::ClaimScope::not_private;
  throw InvalidArgument(fmt::format(
      "{}: claim '{}' is not one of worst_case, under_model_assumptions, not_private", id, scope));
}

}  // namespace

void register_python_algorithm(const PythonAlgorithm& algorithm) {
  const std::string& id = algorithm.id;
  if (id.empty()) throw InvalidArgument("a Python algorithm needs an id, e.g. 'mine.analyze_gauss'");
  if (!PyCallable_Check(algorithm.function.ptr()))
    throw InvalidArgument(fmt::format("{}: the algorithm must be a callable f(X, k, epsilon, delta, rng)", id));
  if (algorithm.neighbours != "replace" && algorithm.neighbours != "add_remove")
    throw InvalidArgument(fmt::format("{}: neighbours '{}' is not one of replace, add_remove", id, algorithm.neighbours));
  auto callable = std::make_shared<Callable>();
  callable->id = id;
  callable->scope = parse_scope(algorithm.scope, id);
  callable->neighbours = algorithm.neighbours == "replace" ? alg::Neighbours::replace : alg::Neighbours::add_remove;
  const py::object& f = algorithm.function;
  callable->source = fmt::format("{}.{}", std::string(py::str(py::getattr(f, "__module__", py::str("?")))),
                                 std::string(py::str(py::getattr(f, "__qualname__", py::repr(f)))));
  callable->function = std::make_shared<const PythonRef>(f);

  alg::AlgorithmEntry entry;
  entry.id = id;
  entry.summary = algorithm.summary.empty() ? fmt::format("{}: Python function {}", id, callable->source)
                                            : algorithm.summary;
  entry.source = fmt::format("Python function {} ({})", callable->source, kDocs);
  entry.needs = alg::DataNeed::vectors;
  for (const auto& [key, value] : algorithm.params) {
    const std::string name = py::str(key);
    if (name == "orthonormality_tolerance" || name == "symmetry_tolerance")
      throw InvalidArgument(fmt::format("{}: parameter '{}' is dpbounds' own (the checks of the return)", id, name));
    if (py::isinstance<py::str>(value))
      entry.params.push_back(alg::text_param(name, value.cast<std::string>(), "parameter of the Python function", kDocs));
    else if (is_number(value))
      entry.params.push_back(alg::real_param(name, value.cast<double>(), std::nullopt, std::nullopt,
                                             "parameter of the Python function", kDocs));
    else
      throw InvalidArgument(fmt::format("{}: the default of parameter '{}' must be a number or a string, got {}", id,
                                        name, std::string(py::repr(value))));
    callable->param_names.push_back(name);
  }
  const auto tolerances = alg::external::tolerance_fields(kDocs).schema();
  entry.params.insert(entry.params.end(), tolerances.begin(), tolerances.end());
  entry.privacy = fmt::format("{} claim for the budget it is called with: {}", algorithm.scope, kUserDeclared);
  // The function's code enters the experiment's key: an edited function never resumes the old one's rows.
  entry.provenance = [digest = fmt::format("{}={:016x}", callable->source, core::hash_name(algorithm.code))](
                         const core::ParamMap&) { return digest; };
  entry.factory = [callable](const core::ParamMap& resolved) -> std::unique_ptr<alg::Estimator> {
    return std::make_unique<PythonEstimator>(callable, resolved);
  };
  alg::register_runtime_algorithm(std::move(entry));
}

void bind_python_algorithm(py::module_& m) {
  py::class_<TrialStream>(m, "TrialStream",
                          "The trial's counter-based random stream as a numpy bit generator (numpy.random.Generator "
                          "takes it); made by dpbounds for each call of a Python algorithm.")
      .def_property_readonly("capsule", &TrialStream::capsule)
      .def_property_readonly("lock", &TrialStream::lock);
  m.def(
      "register_algorithm",
      [](std::string id, py::object function, std::string claim, std::string neighbours, py::dict params,
         std::string summary, std::string code) {
        register_python_algorithm({std::move(id), std::move(summary), std::move(function), std::move(claim),
                                   std::move(neighbours), std::move(params), std::move(code)});
      },
      py::arg("id"), py::arg("function"), py::arg("claim"), py::arg("neighbours"), py::arg("params"),
      py::arg("summary"), py::arg("code"));
}

}  // namespace dpb::python
