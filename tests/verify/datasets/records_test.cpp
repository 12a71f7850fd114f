#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/errors.hpp"
#include "support/npy_writer.hpp"
#include "verify/datasets/records.hpp"

namespace fs = std::filesystem;
using dpb::verify::read_delimited;
using dpb::verify::read_records;

namespace {

fs::path records_file(const std::string& name) {
  return fs::temp_directory_path() / ("dpb_records_" + std::to_string(::getpid()) + "_" + name);
}

template <typename T>
fs::path write_npy(const std::string& name, const std::string& descr, bool fortran, std::size_t rows,
                   std::size_t cols, const std::vector<T>& values) {
  const auto path = records_file(name);
  dpb::test::write_npy(path, descr, fortran, rows, cols, values);
  return path;
}

Eigen::MatrixXd from_text(const std::string& text, char delimiter) {
  std::istringstream in(text);
  return read_delimited(in, delimiter, "data").X;
}

dpb::verify::Records csv(const std::string& text) {
  std::istringstream in(text);
  return read_delimited(in, ',', "data.csv");
}

// The 3 records (1, 2), (3, 4), (5, 6) as a 2 x 3 matrix of columns.
Eigen::MatrixXd expected() { return (Eigen::MatrixXd(2, 3) << 1, 3, 5, 2, 4, 6).finished(); }

}  // namespace

TEST_CASE("CSV with and without a header and whitespace text give records as columns", "[verify][records]") {
  CHECK(from_text("a,b\n1,2\n3, 4\n5,6\n", ',') == expected());
  CHECK(from_text("1,2\n3,4\n\n5,6", ',') == expected());
  CHECK(from_text("# written by numpy.savetxt\n1 2\n3\t4\n  5   6  \n", ' ') == expected());
  CHECK(from_text("1e0,+2\n3,4\n5,6.0\n", ',') == expected());
}

TEST_CASE("malformed text names the line and column", "[verify][records]") {
  CHECK_THROWS_WITH(from_text("1,2\n3,x\n", ','), "data: line 2, column 2: 'x' is not a number");
  CHECK_THROWS_WITH(from_text("1,2\n3,4,5\n", ','), "data: line 2 has 3 columns, expected 2 (as in line 1)");
  CHECK_THROWS_WITH(from_text("1 2\n3 nan\n", ' '),
                    Catch::StartsWith("data: line 2, column 2: NaN is not allowed"));
  CHECK_THROWS_WITH(from_text("h1,h2\n1,inf\n", ','), Catch::StartsWith("data: line 2, column 2: an infinite value"));
  CHECK_THROWS_WITH(from_text("h1,h2\n", ','), Catch::Contains("no records"));
  CHECK_THROWS_WITH(from_text("1,2\n3,\n", ','), "data: line 2, column 2: '' is not a number");
}

TEST_CASE(".npy files in both orders and both float widths read the same records", "[verify][records]") {
  const std::vector<double> c_order{1, 2, 3, 4, 5, 6};       // record after record
  const std::vector<double> f_order{1, 3, 5, 2, 4, 6};       // column after column
  const std::vector<float> c_order_f4{1, 2, 3, 4, 5, 6};
  const std::vector<float> f_order_f4{1, 3, 5, 2, 4, 6};
  for (const auto& path : {write_npy("c8.npy", "<f8", false, 3, 2, c_order), write_npy("f8.npy", "<f8", true, 3, 2, f_order),
                           write_npy("c4.npy", "<f4", false, 3, 2, c_order_f4),
                           write_npy("f4.npy", "<f4", true, 3, 2, f_order_f4)}) {
    CHECK(read_records(path).X == expected());
    fs::remove(path);
  }
}

TEST_CASE("bad .npy files are refused with what is allowed", "[verify][records]") {
  const auto ints = write_npy("i8.npy", "<i8", false, 3, 2, std::vector<std::int64_t>{1, 2, 3, 4, 5, 6});
  CHECK_THROWS_WITH(read_records(ints), Catch::Contains("dtype '<i8' is not supported: allowed float64"));
  const auto with_nan = write_npy("nan.npy", "<f8", false, 3, 2, std::vector<double>{1, 2, 3, std::nan(""), 5, 6});
  CHECK_THROWS_WITH(read_records(with_nan), Catch::Contains("record 2, column 2: NaN is not allowed"));
  const auto short_file = write_npy("short.npy", "<f8", false, 3, 2, std::vector<double>{1, 2, 3});
  CHECK_THROWS_WITH(read_records(short_file), Catch::Contains("ends before its 3 x 2 values"));
  const auto not_npy = records_file("text.npy");
  std::ofstream(not_npy) << "1,2\n";
  CHECK_THROWS_WITH(read_records(not_npy), Catch::Contains("not a NumPy .npy file"));
  CHECK_THROWS_WITH(read_records(records_file("missing.csv")), Catch::Contains("no such file"));
  for (const auto& p : {ints, with_nan, short_file, not_npy}) fs::remove(p);
}

TEST_CASE("CSV follows RFC 4180: quoted fields hold commas, quotes and line breaks", "[verify][records]") {
  // Issue 22: a quoted header with a comma, or a quoted number, failed with "line 2 has 20 columns,
  // expected 40 (as in line 2)".
  const auto quoted = csv("\"income, yearly\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n\"1\",2,3\r\n4, \"5\" ,6\r\n");
  CHECK(quoted.named);
  CHECK(quoted.names == std::vector<std::string>{"income, yearly", "say \"hi\"", "two\nlines"});
  CHECK(quoted.X == (Eigen::MatrixXd(3, 2) << 1, 4, 2, 5, 3, 6).finished());
  // Without a header the columns are x1..xd.
  const auto plain = csv("1,2\n3,4\n5,6\n");
  CHECK_FALSE(plain.named);
  CHECK(plain.names == std::vector<std::string>{"x1", "x2"});
  // A ragged record is measured against the header, on the line it starts.
  CHECK_THROWS_WITH(csv("\"a,b\",c\n1,2\n\"x\ny\",3,4\n"), "data.csv: line 3 has 3 columns, expected 2 (as in line 1)");
  CHECK_THROWS_WITH(csv("a,b\n1,\"2\n"), "data.csv: line 2: a quoted field is never closed");
  CHECK_THROWS_WITH(csv("a,b\n1,\"2\"x\n"), Catch::StartsWith("data.csv: line 2: text after the closing quote"));
  CHECK_THROWS_WITH(csv("a,b\n1,2\"\n"), Catch::StartsWith("data.csv: line 2: a quote inside an unquoted field"));
}

TEST_CASE("a UTF-8 byte-order mark before a CSV without a header is skipped", "[verify][records]") {
  const auto path = records_file("bom.csv");
  std::ofstream(path, std::ios::binary) << "\xEF\xBB\xBF" << "1,2\r\n3,4\r\n5,6\r\n";
  const auto records = read_records(path);
  CHECK(records.X == expected());
  CHECK_FALSE(records.named);
  fs::remove(path);
}
