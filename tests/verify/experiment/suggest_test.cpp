#include "verify/experiment/suggest.hpp"

#include <catch2/catch.hpp>

using namespace dpb::verify;

TEST_CASE("edit distance and the nearest-name suggestion", "[experiment]") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("same", "same") == 0);
  const std::vector<std::string> ids = {"liu2022.dp_pca", "liu2022.private_oja", "cai2024.gaussian_mechanism"};
  CHECK(suggestion("liu2022.dp_pac", ids) == " (did you mean 'liu2022.dp_pca'?)");
  CHECK(suggestion("cai2024.gaussian_mechanism_pca", ids) == " (did you mean 'cai2024.gaussian_mechanism'?)");
  // Nothing close: the known names instead of a misleading guess.
  CHECK(suggestion("xyz", ids) == " (known: liu2022.dp_pca, liu2022.private_oja, cai2024.gaussian_mechanism)");
  CHECK(suggestion("x", {}).empty());
}
