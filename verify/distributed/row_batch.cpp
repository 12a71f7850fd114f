#include "verify/distributed/row_batch.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace dpb::verify {

std::string encode(const RowBatch& batch) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : batch.rows)
    rows.push_back({{"cell", row.cell}, {"cell_params", row.cell_params}, {"algorithm", row.algorithm},
                    {"trial", row.trial}, {"metrics", row.metrics}, {"error", row.error}, {"seconds", row.seconds},
                    {"diagnostics", row.diagnostics}});
  const nlohmann::json message = {{"rows", rows}, {"last", batch.last}, {"interrupted", batch.interrupted}};
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(message);
  return std::string(bytes.begin(), bytes.end());
}

RowBatch decode_row_batch(const std::string& bytes) {
  try {
    const nlohmann::json message = nlohmann::json::from_cbor(bytes);
    RowBatch batch;
    batch.last = message.at("last").get<bool>();
    batch.interrupted = message.at("interrupted").get<bool>();
    for (const auto& r : message.at("rows")) {
      TrialRow row;
      row.cell = r.at("cell").get<std::size_t>();
      row.cell_params = r.at("cell_params").get<std::map<std::string, double>>();
      row.algorithm = r.at("algorithm").get<std::string>();
      row.trial = r.at("trial").get<std::size_t>();
      row.metrics = r.at("metrics").get<std::map<std::string, double>>();
      row.error = r.at("error").get<std::string>();
      row.seconds = r.at("seconds").get<double>();
      row.diagnostics = r.at("diagnostics").get<std::map<std::string, double>>();
      batch.rows.push_back(std::move(row));
    }
    return batch;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("a message between MPI ranks is not a batch of rows: ") + e.what());
  }
}

}  // namespace dpb::verify
