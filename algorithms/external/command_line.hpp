#pragma once
// Splits the `command` parameter of external.command into argv, by simple shell-like quoting rules; the
// words are then executed directly (posix_spawnp), never through a shell (docs/external.md "command"):
//   - unquoted whitespace (space, tab, newline) separates words;
//   - '...' keeps everything inside literally (no escapes);
//   - "..." keeps everything inside, except that \" and \\ stand for " and \;
//   - outside quotes, a backslash makes the next character literal;
//   - quotes join with their neighbours: a'b c'd is the one word "ab cd"; '' is an empty word.
// No variables, globs, pipes or redirections: $, *, |, > are ordinary characters.
#include <string>
#include <vector>

namespace dpb::alg::external {

// Throws dpb::InvalidArgument on an unterminated quote, a trailing backslash or no word at all.
std::vector<std::string> split_command(const std::string& command);

}  // namespace dpb::alg::external
