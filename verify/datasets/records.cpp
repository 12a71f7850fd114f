#include "verify/datasets/records.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/core.h>
#include <fstream>
#include <optional>
#include <vector>

#include "core/errors.hpp"
#include "verify/datasets/csv.hpp"

namespace dpb::verify {
namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// Fields separated by any run of blanks or tabs.
std::vector<std::string_view> split_blanks(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = line.find_first_not_of(" \t\r"); start != std::string_view::npos;) {
    const auto end = line.find_first_of(" \t\r", start);
    fields.push_back(line.substr(start, end == std::string_view::npos ? end : end - start));
    start = line.find_first_not_of(" \t\r", end);
  }
  return fields;
}

std::optional<double> parse_field(std::string_view field) {
  if (!field.empty() && field.front() == '+') field.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || field.empty()) return std::nullopt;
  return value;
}

void require_finite_value(double value, const std::string& where) {
  if (!std::isfinite(value))
    throw InvalidArgument(fmt::format("{}: {} is not allowed (records must be finite numbers)", where,
                                      std::isnan(value) ? "NaN" : "an infinite value"));
}

Eigen::MatrixXd as_columns(const std::vector<double>& row_major, std::size_t n, std::size_t d) {
  // n records of d values, record after record, is exactly a column-major d x n matrix.
  return Eigen::Map<const Eigen::MatrixXd>(row_major.data(), static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(n));
}

}  // namespace

namespace {

// Appends one record's values; the first record fixes d (or the header did).
class RecordCollector {
 public:
  explicit RecordCollector(std::string name) : name_(std::move(name)) {}

  // With `header_allowed` (CSV), a first record that is not all numbers names the columns.
  template <typename Fields>
  void add(const Fields& fields, std::size_t line, bool header_allowed) {
    std::vector<std::optional<double>> parsed;
    parsed.reserve(fields.size());
    for (const auto& f : fields) parsed.push_back(parse_field(f));
    const bool all_numbers = std::all_of(parsed.begin(), parsed.end(), [](const auto& v) { return v.has_value(); });
    if (header_allowed && n_ == 0 && names_.empty() && !all_numbers) {
      for (const auto& f : fields) names_.emplace_back(f);
      first_line_ = line;
      return;
    }
    if (first_line_ == 0) first_line_ = line;
    const std::size_t d = names_.empty() ? (n_ == 0 ? fields.size() : d_) : names_.size();
    if (fields.size() != d)
      throw InvalidArgument(fmt::format("{}: line {} has {} columns, expected {} (as in line {})", name_, line,
                                        fields.size(), d, first_line_));
    d_ = d;
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const std::string where = fmt::format("{}: line {}, column {}", name_, line, c + 1);
      if (!parsed[c]) throw InvalidArgument(fmt::format("{}: '{}' is not a number", where, std::string_view(fields[c])));
      require_finite_value(*parsed[c], where);
      values_.push_back(*parsed[c]);
    }
    ++n_;
  }

  Records finish() {
    if (n_ == 0) throw InvalidArgument(fmt::format("{}: no records (an empty file, or a header only)", name_));
    const bool named = !names_.empty();
    return {as_columns(values_, n_, d_), named ? std::move(names_) : default_feature_names(d_), named};
  }

 private:
  std::string name_;
  std::vector<double> values_;
  std::vector<std::string> names_;
  std::size_t d_ = 0, n_ = 0, first_line_ = 0;
};

void skip_byte_order_mark(std::istream& in) {
  char bom[3] = {};
  in.read(bom, 3);
  if (in.gcount() == 3 && std::string_view(bom, 3) == "\xEF\xBB\xBF") return;
  in.clear();
  in.seekg(0);
}

}  // namespace

std::vector<std::string> default_feature_names(std::size_t d) {
  std::vector<std::string> names;
  for (std::size_t c = 1; c <= d; ++c) names.push_back(fmt::format("x{}", c));
  return names;
}

Records read_delimited(std::istream& in, char delimiter, const std::string& name) {
  RecordCollector records(name);
  if (delimiter == ',') {
    CsvReader reader(in, name);
    for (CsvRecord record; reader.next(record);) records.add(record.fields, record.line, true);
  } else {
    std::string line;
    for (std::size_t line_number = 1; std::getline(in, line); ++line_number) {
      const std::string_view text = trim(line);
      if (text.empty() || text.front() == '#') continue;
      records.add(split_blanks(text), line_number, false);
    }
  }
  if (in.bad()) throw InvalidArgument(fmt::format("{}: read error", name));
  return records.finish();
}

Eigen::MatrixXd read_npy(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(fmt::format("{}: cannot open the file", name));
  char magic[8] = {};
  in.read(magic, 8);
  if (!in || std::string_view(magic, 6) != "\x93NUMPY")
    throw InvalidArgument(fmt::format("{}: not a NumPy .npy file (bad magic bytes)", name));
  const int major = static_cast<unsigned char>(magic[6]);
  std::uint32_t header_length = 0;
  unsigned char length_bytes[4] = {};
  in.read(reinterpret_cast<char*>(length_bytes), major == 1 ? 2 : 4);
  for (int i = (major == 1 ? 1 : 3); i >= 0; --i) header_length = header_length * 256 + length_bytes[i];
  std::string header(header_length, '\0');
  in.read(header.data(), header_length);
  if (!in) throw InvalidArgument(fmt::format("{}: truncated .npy header", name));

  // The header is a Python dict literal: {'descr': '<f8', 'fortran_order': False, 'shape': (n, d), }
  const auto value_of = [&](const std::string& key) {
    const auto at = header.find("'" + key + "'");
    if (at == std::string::npos) throw InvalidArgument(fmt::format("{}: .npy header has no '{}'", name, key));
    return trim(std::string_view(header).substr(header.find(':', at) + 1));
  };
  const auto descr_text = value_of("descr");
  const std::string descr(descr_text.substr(1, descr_text.find('\'', 1) - 1));
  const bool fortran = value_of("fortran_order").substr(0, 4) == "True";
  const auto shape_text = value_of("shape");
  const std::string shape(shape_text.substr(1, shape_text.find(')') - 1));
  std::vector<std::size_t> dims;
  for (std::size_t start = 0; start < shape.size();) {
    const auto comma = std::min(shape.find(',', start), shape.size());
    const auto f = trim(std::string_view(shape).substr(start, comma - start));
    start = comma + 1;
    if (f.empty()) continue;
    const auto v = parse_field(f);
    if (!v || *v < 0) throw InvalidArgument(fmt::format("{}: bad shape ({}) in the .npy header", name, shape));
    dims.push_back(static_cast<std::size_t>(*v));
  }
  if (dims.size() != 2)
    throw InvalidArgument(fmt::format("{}: the array has shape ({}); expected 2-D (records x columns)", name, shape));
  const bool little = descr[0] == '<' || descr[0] == '|' || descr[0] == '=';
  const std::string type = descr.substr(1);
  if (!little || (type != "f8" && type != "f4"))
    throw InvalidArgument(fmt::format("{}: dtype '{}' is not supported: allowed float64 ('<f8') or float32 ('<f4'), "
                                      "little-endian",
                                      name, descr));
  const std::size_t n = dims[0], d = dims[1], count = n * d;
  if (n == 0 || d == 0) throw InvalidArgument(fmt::format("{}: no records (shape ({}))", name, shape));
  std::vector<double> values(count);
  if (type == "f8") {
    in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(count * sizeof(double)));
  } else {
    std::vector<float> floats(count);
    in.read(reinterpret_cast<char*>(floats.data()), static_cast<std::streamsize>(count * sizeof(float)));
    std::copy(floats.begin(), floats.end(), values.begin());
  }
  if (!in) throw InvalidArgument(fmt::format("{}: the file ends before its {} x {} values", name, n, d));
  // C order stores record after record (a column-major d x n matrix); Fortran order column after
  // column (a column-major n x d matrix, transposed here).
  Eigen::MatrixXd X = fortran ? Eigen::MatrixXd(Eigen::Map<const Eigen::MatrixXd>(values.data(), n, d).transpose())
                              : as_columns(values, n, d);
  for (Eigen::Index i = 0; i < X.cols(); ++i)
    for (Eigen::Index c = 0; c < X.rows(); ++c)
      if (!std::isfinite(X(c, i)))
        require_finite_value(X(c, i), fmt::format("{}: record {}, column {}", name, i + 1, c + 1));
  return X;
}

Records read_records(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) throw InvalidArgument(fmt::format("{}: no such file", path.string()));
  if (std::filesystem::is_directory(path))
    throw InvalidArgument(fmt::format("{}: is a directory, expected a data file (.csv, .npy or text)", path.string()));
  const auto extension = path.extension().string();
  if (extension == ".npy") {
    Eigen::MatrixXd X = read_npy(path);
    auto names = default_feature_names(static_cast<std::size_t>(X.rows()));
    return {std::move(X), std::move(names), false};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(fmt::format("{}: cannot open the file", path.string()));
  skip_byte_order_mark(in);
  return read_delimited(in, extension == ".csv" ? ',' : ' ', path.string());
}

}  // namespace dpb::verify
