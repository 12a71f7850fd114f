// A tiny external algorithm speaking the external.command protocol, version 2 (docs/external.md): the
// reference implementation of the protocol, and the program the external.command tests drive.
//
// It releases the top-k eigenvectors of the second moment (1/n) X X^T, plus, when a noise sd > 0 is
// given, a symmetric Gaussian perturbation drawn from the request's seed (a toy: it claims nothing). It
// loops until EOF on stdin, so one process serves a whole persistent run. Its first argument makes it
// misbehave in each way the adapter must survive:
//   usage: example_external_pca [MODE] [NOISE_SD]
//   pca           (default) answer every request
//   exit_nonzero  complain on stderr and exit with status 3 before reading anything
//   malformed     reply with a line that is not JSON
//   wrong_shape   reply with columns of d - 1 numbers
//   non_finite    reply with NaN in Q, as a careless JSON writer would
//   sleep         sleep 5 s before every reply
//   crash_second  answer the first request, exit with status 4 on the second
//   stray_lines   before about half of the replies (chosen by the seed), print a debugging line to stdout
//                 and pause 50 ms
//   out_of_order  answer each request after the first with the reply to the one before it
// Every reply's diagnostics echo the request's seed, so a test can tell whose reply it holds.
#include <unistd.h>
#include <Eigen/Dense>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>
#include <string>
#include <thread>

namespace {

using nlohmann::json;

constexpr std::chrono::seconds kSleep{5};
constexpr std::chrono::milliseconds kStrayLinePause{50};

// n*d little-endian float64 values, record after record: column i of the d x n matrix is record i.
Eigen::MatrixXd read_records(std::istream& in, long n, long d) {
  Eigen::MatrixXd X(d, n);
  unsigned char bytes[8];
  for (long i = 0; i < X.size(); ++i) {
    in.read(reinterpret_cast<char*>(bytes), sizeof bytes);
    std::uint64_t word = 0;
    for (int b = 7; b >= 0; --b) word = (word << 8) | bytes[b];
    X.data()[i] = std::bit_cast<double>(word);
  }
  return X;
}

// Standard normal by Box-Muller from a 64-bit Mersenne twister: the same on every standard library.
double standard_normal(std::mt19937_64& engine) {
  const double u1 = (double(engine() >> 11) + 1.0) / 9007199254740993.0;  // (0, 1]
  const double u2 = double(engine() >> 11) / 9007199254740992.0;          // [0, 1)
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

json columns(const Eigen::MatrixXd& M) {
  json out = json::array();
  for (long j = 0; j < M.cols(); ++j) {
    json column = json::array();
    for (long i = 0; i < M.rows(); ++i) column.push_back(M(i, j));
    out.push_back(column);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "pca";
  const double noise_sd = argc > 2 ? std::stod(argv[2]) : 0.0;
  if (mode == "exit_nonzero") {
    std::cerr << "example_external_pca: simulated failure\n";
    return 3;
  }
  std::string header_line, previous_reply;
  for (long trial = 1; std::getline(std::cin, header_line); ++trial) {
    const json header = json::parse(header_line);
    const long n = header.at("n"), d = header.at("d"), k = header.at("k");
    const Eigen::MatrixXd X = read_records(std::cin, n, d);
    if (!std::cin) return 2;
    if (mode == "crash_second" && trial == 2) return 4;
    if (mode == "sleep") std::this_thread::sleep_for(kSleep);

    Eigen::MatrixXd S = X * X.transpose() / double(n);
    if (noise_sd > 0) {
      std::mt19937_64 engine(header.at("seed").get<std::uint64_t>());
      for (long j = 0; j < d; ++j)
        for (long i = 0; i <= j; ++i) S(i, j) = S(j, i) = S(i, j) + noise_sd * standard_normal(engine);
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(S);  // ascending eigenvalues
    const Eigen::MatrixXd Q = solver.eigenvectors().rightCols(k).rowwise().reverse();
    const Eigen::VectorXd values = solver.eigenvalues().tail(k).reverse();

    const auto seed = header.at("seed").get<std::uint64_t>();
    json reply = {{"id", header.at("id")},
                  {"Q", columns(mode == "wrong_shape" ? Eigen::MatrixXd(Q.topRows(d - 1)) : Q)},
                  {"eigenvalues", std::vector<double>(values.data(), values.data() + k)},
                  {"diagnostics", {{"pid", ::getpid()}, {"trial", trial}, {"seed", double(seed)}}}};
    std::string text = reply.dump();
    if (mode == "stray_lines" && seed % 2 == 0) {  // a separate write, so the reply arrives after it
      std::cout << "debug: trial " << trial << " starts" << std::endl;
      std::this_thread::sleep_for(kStrayLinePause);
    }
    if (mode == "out_of_order" && trial > 1) std::swap(text, previous_reply);
    if (mode == "out_of_order" && trial == 1) previous_reply = text;
    if (mode == "malformed") text = "Q = " + text;
    if (mode == "non_finite") {
      const std::size_t first = text.find("[[") + 2;  // Q's first entry (keys are sorted: Q is the first array)
      text.replace(first, text.find_first_of(",]", first) - first, "NaN");
    }
    std::cout << text << '\n' << std::flush;
  }
  return 0;
}
