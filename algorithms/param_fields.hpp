#pragma once
// A parameter struct's fields, each declared once: its name, member, range, documentation, spec reference and,
// for a choice, the names of its values. The registry schema (the ParamSpec list `dpbounds list --json`
// prints and Registry::resolve checks against) and the reader (ParamMap -> struct) are both generated from
// the one table, and every default is the struct's own initialiser: a default, a range or a choice name is
// written in one place.
//
//   FieldTable<PrivCovParams> fields;
//   fields.real("noise_multiplier", &PrivCovParams::noise_multiplier, 1e-12, 1e12, "c in b = ...", "kumar2025 A4")
//         .choice("diagonal", &PrivCovParams::fill_diagonal, {{"fill", true}, {"faithful", false}}, "...", "A2");
//   entry.params = fields.schema();                 // defaults from PrivCovParams{}
//   const PrivCovParams q = fields.read(map, id);   // every field the map names, the rest left as they were
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/params.hpp"

namespace dpb::alg {

// A choice's listed order: as written, or the struct's default first and the rest as written (the order a
// family-wide choice such as `calibration` lists whatever default its family has).
enum class ChoiceOrder { as_listed, default_first };

template <class P>
class FieldTable {
 public:
  // The value of P a field's schema entry takes its default from.
  using SchemaFn = std::function<ParamSpec(const P& defaults)>;
  using ReadFn = std::function<void(const core::ParamMap& given, P& into, const std::string& owner)>;

  FieldTable& real(std::string name, double P::*member, std::optional<double> min, std::optional<double> max,
                   std::string doc, std::string spec_ref) {
    return add(
        [=](const P& d) { return real_param(name, d.*member, min, max, doc, spec_ref); },
        [=](const core::ParamMap& m, P& p, const std::string& owner) {
          p.*member = m.get_real(name, p.*member, owner);
        });
  }

  template <class Integer>
  FieldTable& integer(std::string name, Integer P::*member, std::optional<double> min, std::string doc,
                      std::string spec_ref) {
    return integer(std::move(name), member, min, std::nullopt, std::move(doc), std::move(spec_ref));
  }

  template <class Integer>
  FieldTable& integer(std::string name, Integer P::*member, std::optional<double> min, std::optional<double> max,
                      std::string doc, std::string spec_ref) {
    return add(
        [=](const P& d) {
          ParamSpec spec = integer_param(name, static_cast<double>(d.*member), min, doc, spec_ref);
          spec.max = max;
          return spec;
        },
        [=](const core::ParamMap& m, P& p, const std::string& owner) {
          p.*member = static_cast<Integer>(m.get_int(name, static_cast<long long>(p.*member), owner));
        });
  }

  // A choice whose names stand for values of the member (an enum, a bool): compared as values, never as
  // strings, past the reader.
  template <class Value>
  FieldTable& choice(std::string name, Value P::*member, std::vector<std::pair<std::string, Value>> names,
                     std::string doc, std::string spec_ref, ChoiceOrder order = ChoiceOrder::as_listed) {
    return choice_by<Value>(
        std::move(name), [member](const P& p) { return p.*member; }, [member](P& p, Value v) { p.*member = v; },
        std::move(names), std::move(doc), std::move(spec_ref), order);
  }

  // A choice that is not one member: `get` names the value a struct holds (its default's name is the schema's
  // default), `set` writes a chosen value into the struct (e.g. a step rule that sets a schedule and a step).
  template <class Value>
  FieldTable& choice_by(std::string name, std::function<Value(const P&)> get, std::function<void(P&, Value)> set,
                        std::vector<std::pair<std::string, Value>> names, std::string doc, std::string spec_ref,
                        ChoiceOrder order = ChoiceOrder::as_listed) {
    return add(
        [=](const P& d) {
          const std::string default_name = name_of(names, get(d), name);
          std::vector<std::string> listed;
          if (order == ChoiceOrder::default_first) listed.push_back(default_name);
          for (const auto& [n, v] : names)
            if (order == ChoiceOrder::as_listed || n != default_name) listed.push_back(n);
          return choice_param(name, default_name, std::move(listed), doc, spec_ref);
        },
        [=](const core::ParamMap& m, P& p, const std::string& owner) {
          if (!m.has(name)) return;
          const std::string given = m.get_string(name, "", owner);
          for (const auto& [n, v] : names)
            if (n == given) {
              set(p, v);
              return;
            }
          std::vector<std::string> allowed;
          for (const auto& nv : names) allowed.push_back(nv.first);
          throw InvalidArgument(fmt::format("{}: parameter '{}' must be one of: {}; got '{}'", owner, name,
                                            fmt::join(allowed, ", "), given));
        });
  }

  // "true" / "false".
  FieldTable& flag(std::string name, bool P::*member, std::string doc, std::string spec_ref) {
    return choice(std::move(name), member, {{"true", true}, {"false", false}}, std::move(doc), std::move(spec_ref));
  }

  // Any string (a command line, a path).
  FieldTable& text(std::string name, std::string P::*member, std::string doc, std::string spec_ref) {
    return add([=](const P& d) { return text_param(name, d.*member, doc, spec_ref); },
               [=](const core::ParamMap& m, P& p, const std::string& owner) {
                 p.*member = m.get_string(name, p.*member, owner);
               });
  }

  // A choice with one allowed value that documents a fixed behaviour (a tie-breaking rule): in the schema,
  // so a config may name it, and read by nobody.
  FieldTable& fixed_choice(std::string name, std::string value, std::string doc, std::string spec_ref) {
    return add([=](const P&) { return choice_param(name, value, {value}, doc, spec_ref); },
               [](const core::ParamMap&, P&, const std::string&) {});
  }

  // The fields of a member struct, under their own names with `prefix` before each; their defaults are the
  // member's value in P{} (which may differ from the member type's own initialisers).
  template <class S>
  FieldTable& nest(S P::*member, const FieldTable<S>& sub, const std::string& prefix = "") {
    for (std::size_t i = 0; i < sub.size(); ++i) {
      auto schema = sub.schema_fn(i);
      auto read = sub.read_fn(i);
      add(
          [=](const P& d) {
            ParamSpec spec = schema(d.*member);
            spec.name = prefix + spec.name;
            return spec;
          },
          [=](const core::ParamMap& m, P& p, const std::string& owner) { read(prefixed(m, prefix), p.*member, owner); });
    }
    return *this;
  }

  // The fields of a base class of P (a family's shared parameters), in their place in P's schema.
  template <class Base>
  FieldTable& inherit(const FieldTable<Base>& base) {
    static_assert(std::is_base_of_v<Base, P>);
    for (std::size_t i = 0; i < base.size(); ++i) {
      auto schema = base.schema_fn(i);
      auto read = base.read_fn(i);
      add([=](const P& d) { return schema(static_cast<const Base&>(d)); },
          [=](const core::ParamMap& m, P& p, const std::string& owner) { read(m, static_cast<Base&>(p), owner); });
    }
    return *this;
  }

  // Another table's fields after these.
  FieldTable& append(const FieldTable& more) {
    for (std::size_t i = 0; i < more.size(); ++i) add(more.schema_fn(i), more.read_fn(i));
    return *this;
  }

  // The schema, in declaration order, its defaults read from `defaults`.
  std::vector<ParamSpec> schema(const P& defaults = P{}) const {
    std::vector<ParamSpec> specs;
    specs.reserve(fields_.size());
    for (const auto& f : fields_) specs.push_back(f.schema(defaults));
    return specs;
  }

  // `into` with every field `given` names replaced by its value (a wrong type or an unknown choice throws
  // dpb::InvalidArgument naming `owner` and the parameter); fields it does not name keep their values.
  P read(const core::ParamMap& given, const std::string& owner, P into = P{}) const {
    for (const auto& f : fields_) f.read(given, into, owner);
    return into;
  }

  std::size_t size() const { return fields_.size(); }
  const SchemaFn& schema_fn(std::size_t i) const { return fields_[i].schema; }
  const ReadFn& read_fn(std::size_t i) const { return fields_[i].read; }

 private:
  struct Field {
    SchemaFn schema;
    ReadFn read;
  };

  FieldTable& add(SchemaFn schema, ReadFn read) {
    fields_.push_back({std::move(schema), std::move(read)});
    return *this;
  }

  template <class Value>
  static std::string name_of(const std::vector<std::pair<std::string, Value>>& names, const Value& value,
                             const std::string& field) {
    for (const auto& [n, v] : names)
      if (v == value) return n;
    throw InvalidArgument(fmt::format("parameter '{}': its default has no name among its choices", field));
  }

  // The entries of `m` whose names start with `prefix`, under the rest of their names.
  static core::ParamMap prefixed(const core::ParamMap& m, const std::string& prefix) {
    if (prefix.empty()) return m;
    core::ParamMap out;
    for (const auto& [name, value] : m.values())
      if (name.rfind(prefix, 0) == 0) out.set(name.substr(prefix.size()), value);
    return out;
  }

  std::vector<Field> fields_;
};

// An entry's schema and factory from one table: `params` is fields.schema() and every estimator it makes is
// make(fields.read(resolved, id)), so what the registry checks and what the algorithm reads cannot part.
// `make` maps the parameter struct to the estimator (construct<E>() for a constructor E(P)).
template <class P, class Make>
AlgorithmEntry with_parameters(AlgorithmEntry entry, FieldTable<P> fields, Make make) {
  entry.params = fields.schema();
  entry.factory = [fields = std::move(fields), make = std::move(make),
                   id = entry.id](const core::ParamMap& resolved) -> std::unique_ptr<Estimator> {
    return make(fields.read(resolved, id));
  };
  return entry;
}

// The `make` of with_parameters for an estimator constructed from its parameter struct.
template <class E>
auto construct() {
  return [](auto params) -> std::unique_ptr<Estimator> { return std::make_unique<E>(std::move(params)); };
}

}  // namespace dpb::alg
