#include "lowerbounds/constructions/liu2022_packing.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::lower {

Liu2022Code liu2022_lemma_c5_code(int d, std::uint64_t seed, std::size_t max_words) {
  if (d < liu2022_packing_min_dimension)
    throw InvalidArgument(
        fmt::format("liu2022 Lemma C.5 packing: d = {} must be >= {} so that l = floor((d-1)/8) >= 1", d,
                    liu2022_packing_min_dimension));
  if (max_words < 2) throw InvalidArgument("liu2022 Lemma C.5 packing: max_words must be >= 2");
  Liu2022Code out;
  out.weight = (d - 1) / 8;
  const int min_distance = (out.weight + 1) / 2;  // ceil(l/2)
  out.code = greedy_code(d - 1, out.weight, min_distance, GreedyOrder::random, seed, max_words);
  const CodeCheck check = verify_code(out.code);
  if (check.size < 2)
    throw InvalidArgument("liu2022 Lemma C.5 packing: the greedy scan kept fewer than two words");
  out.min_hamming = check.min_distance;
  for (std::size_t i = 0; i < out.code.words.size(); ++i)
    for (std::size_t j = i + 1; j < out.code.words.size(); ++j)
      out.max_hamming = std::max(out.max_hamming, hamming_distance(out.code.words[i], out.code.words[j]));
  out.log_size = std::log(static_cast<double>(check.size));
  return out;
}

PackingGeometry liu2022_packing_geometry(const Liu2022Code& code, double alpha) {
  if (!(alpha > 0 && alpha <= 1))
    throw InvalidArgument(fmt::format("liu2022_packing_geometry: alpha = {} must lie in (0, 1]", alpha));
  auto one_minus_cos2 = [&](int hamming) {
    const double inner = 1 - alpha * alpha * hamming / (2.0 * code.weight);
    return 1 - inner * inner;
  };
  return {std::sqrt(one_minus_cos2(code.min_hamming)), one_minus_cos2(code.max_hamming)};
}

}  // namespace dpb::lower
