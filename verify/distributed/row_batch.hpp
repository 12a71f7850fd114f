#pragma once
// Finished rows on their way from a rank to rank 0 (verify/distributed/ranks.hpp), as bytes. CBOR
// carries every double bit for bit (NaN and infinities included), so rank 0 stores exactly the rows
// a single process would have computed.
#include <string>
#include <vector>

#include "verify/store/results.hpp"

namespace dpb::verify {

struct RowBatch {
  std::vector<TrialRow> rows;
  bool last = false;         // the sender has finished its share (or stopped)
  bool interrupted = false;  // with `last`: the sender stopped on Ctrl-C and left tasks undone
};

std::string encode(const RowBatch& batch);
// Throws std::runtime_error on bytes that encode() did not write.
RowBatch decode_row_batch(const std::string& bytes);

}  // namespace dpb::verify
