#pragma once
// A user's records, read from a file, as the columns of a d x n matrix (DESIGN.md §3: samples are
// columns). Every malformed input is a dpb::InvalidArgument naming the file, the line or record, and
// the column, so a user can go straight to it.
#include <Eigen/Dense>
#include <filesystem>
#include <istream>
#include <string>

namespace dpb::verify {

// The format follows the extension: .csv (comma-separated, optional header line), .npy (NumPy
// float64 or float32, C or Fortran order, 2-D: one record per row), anything else whitespace-separated
// text (lines starting with '#' are comments, as numpy.savetxt writes them).
Eigen::MatrixXd read_records(const std::filesystem::path& path);

// Delimited text: `delimiter` ',' (CSV: a first line that is not all numbers is a header) or ' ' (any
// run of blanks or tabs). `name` labels the errors. Parses line by line into one buffer.
Eigen::MatrixXd read_delimited(std::istream& in, char delimiter, const std::string& name);

Eigen::MatrixXd read_npy(const std::filesystem::path& path);

}  // namespace dpb::verify
