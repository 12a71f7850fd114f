#include "algorithms/external/command_line.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::alg::external {
namespace {

bool is_separator(char c) { return c == ' ' || c == '\t' || c == '\n'; }

[[noreturn]] void reject(const std::string& command, const std::string& problem) {
  throw InvalidArgument(
      fmt::format("external.command: parameter 'command' [{}]: {} (words are split at "
                  "whitespace; quote with '...' or \"...\", escape with \\)",
                  command, problem));
}

}  // namespace

std::vector<std::string> split_command(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;  // a quoted empty string is still a word
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (is_separator(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\') {
      if (++i == command.size()) reject(command, "it ends with a backslash");
      word += command[i];
    } else if (c == '\'') {
      const std::size_t close = command.find('\'', i + 1);
      if (close == std::string::npos) reject(command, "a single quote is not closed");
      word.append(command, i + 1, close - i - 1);
      i = close;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i == command.size()) reject(command, "a double quote is not closed");
        if (command[i] == '"') break;
        if (command[i] == '\\' && i + 1 < command.size() && (command[i + 1] == '"' || command[i + 1] == '\\'))
          ++i;
        word += command[i];
      }
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) reject(command, "no program is named");
  return words;
}

}  // namespace dpb::alg::external
