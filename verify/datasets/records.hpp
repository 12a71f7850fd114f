#pragma once
// A user's records, read from a file, as the columns of a d x n matrix (DESIGN.md §3: samples are
// columns). Every malformed input is a dpb::InvalidArgument naming the file, the line or record, and
// the column, so a user can go straight to it.
#include <Eigen/Dense>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

namespace dpb::verify {

// The records (d x n, one column per record) and the names of their d features: a CSV header's, else
// x1..xd.
struct Records {
  Eigen::MatrixXd X;
  std::vector<std::string> names;
  bool named = false;  // the names came from the file
};

// x1, ..., xd: the names of columns a file does not name.
std::vector<std::string> default_feature_names(std::size_t d);

// The format follows the extension: .csv (RFC 4180: quoted fields, optional header), .npy (NumPy
// float64 or float32, C or Fortran order, 2-D: one record per row), anything else whitespace-separated
// text (lines starting with '#' are comments, as numpy.savetxt writes them).
// A UTF-8 byte-order mark at the start of a text file is skipped.
Records read_records(const std::filesystem::path& path);

// Delimited text: `delimiter` ',' (CSV, verify/datasets/csv.hpp: a first record that is not all numbers
// is the header) or ' ' (any run of blanks or tabs). `name` labels the errors. Parses record by record
// into one buffer.
Records read_delimited(std::istream& in, char delimiter, const std::string& name);

Eigen::MatrixXd read_npy(const std::filesystem::path& path);

}  // namespace dpb::verify
