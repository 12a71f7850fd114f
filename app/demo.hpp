#pragma once
// The end-to-end demo behind `dpbounds demo` (the README's main job until the verifier lands):
// spiked-Gaussian data from the model catalogue, non-private PCA, and the registered
// baseline.dp_gauss_1 (Analyze-Gauss on the clipped second-moment matrix), at several sample sizes.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "algorithms/privacy.hpp"

namespace dpb::app {

struct DemoOptions {
  std::uint64_t seed = 1;
  alg::Privacy privacy{1.0, 1e-5};
  int d = 20;             // ambient dimension
  int k = 2;              // number of spikes = subspace dimension estimated
  double lambda = 5.0;    // spike strength (cai2024's lambda)
  double sigma2 = 1.0;    // noise variance
  std::vector<long> ns = {1000, 10000, 100000};
};

struct DemoRow {
  long n = 0;
  double nonprivate_error = 0;  // ||U_hat U_hat^T - U U^T||_F of non-private PCA
  double private_error = 0;     // the same for the private PCA
  double noise_sigma = 0;       // sd of each noise entry added to the second-moment matrix
  double clipped_fraction = 0;  // share of samples whose norm exceeded the clip radius
};

struct DemoResult {
  std::string model;  // one line describing the model instance
  double clip_radius = 0;
  alg::PrivacyClaim claim;
  std::vector<DemoRow> rows;
};

// Throws dpb::InvalidArgument on invalid options (eps <= 0, delta outside (0, 1), k > d, n < 1, ...).
DemoResult demo_results(const DemoOptions& options);
// Runs the demo and prints a short report with the privacy claim and a table.
void run_demo(const DemoOptions& options, std::ostream& out);

// A master seed given as text: an integer in [0, 2^53]; otherwise dpb::InvalidArgument.
std::uint64_t parse_seed(const std::string& text);

}  // namespace dpb::app
