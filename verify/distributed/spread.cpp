#include "verify/distributed/spread.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>

#include "verify/distributed/ranks.hpp"

namespace dpb::verify::ranks {
namespace {

// CBOR keeps every double's bits, NaN included.
std::string to_bytes(const nlohmann::json& j) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(j);
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

std::vector<std::vector<double>> spread(std::size_t count, const std::function<std::vector<double>(std::size_t)>& job) {
  std::vector<std::vector<double>> values(count);
  const auto ranks = static_cast<std::size_t>(size()), me = static_cast<std::size_t>(rank());
  // This rank's jobs run on its OpenMP threads; each writes only its own slot.
  const auto local = static_cast<std::int64_t>(count > me ? (count - me + ranks - 1) / ranks : 0);
  // An exception must not leave an OpenMP region (it terminates the program): the lowest failing job's is
  // kept and thrown after the loop, as a serial loop would have thrown it, whatever the threads.
  std::exception_ptr failure;
  std::size_t failed_job = count;
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t j = 0; j < local; ++j) {
    const std::size_t i = me + static_cast<std::size_t>(j) * ranks;
    try {
      values[i] = job(i);
    } catch (...) {
#pragma omp critical(dpb_spread_failure)
      if (i < failed_job) {
        failed_job = i;
        failure = std::current_exception();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  nlohmann::json mine = nlohmann::json::object();  // job index -> values
  if (ranks > 1)
    for (std::size_t i = me; i < count; i += ranks) mine[std::to_string(i)] = values[i];
  if (ranks == 1) return values;
  std::string all;
  if (is_root()) {
    for (std::size_t from = 1; from < ranks; ++from) {
      const nlohmann::json theirs = nlohmann::json::from_cbor(*receive(true));
      for (const auto& [index, v] : theirs.items()) values[std::stoul(index)] = v.get<std::vector<double>>();
    }
    all = to_bytes(values);
  } else {
    send_to_root(to_bytes(mine));
    finish_sends();
  }
  broadcast(all);
  return nlohmann::json::from_cbor(all).get<std::vector<std::vector<double>>>();
}

}  // namespace dpb::verify::ranks
