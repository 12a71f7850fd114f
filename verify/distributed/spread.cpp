#include "verify/distributed/spread.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>

#include "core/errors.hpp"
#include "verify/distributed/ranks.hpp"

namespace dpb::verify::ranks {
namespace {

// CBOR keeps every double's bits, NaN included.
std::string to_bytes(const nlohmann::json& j) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(j);
  return std::string(bytes.begin(), bytes.end());
}

std::string message_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "a job failed with an unknown exception";
  }
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
  if (ranks == 1) {
    if (failure) std::rethrow_exception(failure);
    return values;
  }
  // Every rank learns whether a job failed anywhere, so none waits on a rank that left the exchange: rank r
  // sends its values or its failure; rank 0 answers every rank with all values or the first failure's message.
  nlohmann::json mine = nlohmann::json::object();  // job index -> values, or "error" -> message
  if (failure)
    mine["error"] = message_of(failure);
  else
    for (std::size_t i = me; i < count; i += ranks) mine[std::to_string(i)] = values[i];
  std::string all;
  if (is_root()) {
    nlohmann::json error = failure ? mine["error"] : nlohmann::json();
    for (std::size_t from = 1; from < ranks; ++from) {
      const nlohmann::json theirs = nlohmann::json::from_cbor(*receive(true));
      if (theirs.contains("error")) {
        if (error.is_null()) error = theirs["error"];
        continue;
      }
      for (const auto& [index, v] : theirs.items()) values[std::stoul(index)] = v.get<std::vector<double>>();
    }
    all = to_bytes(error.is_null() ? nlohmann::json(values) : nlohmann::json{{"error", error}});
  } else {
    send_to_root(to_bytes(mine));
    finish_sends();
  }
  broadcast(all);
  const nlohmann::json result = nlohmann::json::from_cbor(all);
  if (result.is_object()) {
    if (failure) std::rethrow_exception(failure);  // this rank's own, with its type
    throw InvalidArgument(result["error"].get<std::string>());
  }
  return result.get<std::vector<std::vector<double>>>();
}

}  // namespace dpb::verify::ranks
