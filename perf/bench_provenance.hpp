#pragma once
// Where a benchmark's numbers come from, for its JSON (docs/performance.md: every table gives
// the device, the date and the command): the commit it was built from, the build type, the
// date it started (UTC), its command line, the host and its CPU. The device's own description
// (a GPU's name, compute capability, driver) is the caller's: no CUDA here.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <string_view>

#include "bench_commit.hpp"  // generated at build time (cmake/PolydgBenchCommit.cmake)

namespace polydg::bench {

/// `text` as a JSON string, quotes included.
inline std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

/// The command line as a shell would take it back: words with characters other than letters,
/// digits and -_./,=:+ in single quotes.
inline std::string command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    const std::string_view word = argv[i];
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_./,=:+") == std::string_view::npos;
    if (i) line += ' ';
    if (plain) {
      line += word;
      continue;
    }
    line += '\'';
    for (const char c : word) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

/// Now, UTC, as 2026-11-28T14:03:12Z.
inline std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

/// The host's name, or "unknown".
inline std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

/// The CPU's model name from /proc/cpuinfo, or "unknown".
inline std::string cpu_model() {
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
  return "unknown";
}

/// The commit the benchmark was built from; where the build had none (no git checkout there,
/// no POLYDG_COMMIT then), POLYDG_COMMIT at run time. source: where it came from.
struct Commit {
  std::string hash, source;
};
inline Commit build_commit() {
  const std::string_view built = POLYDG_BENCH_COMMIT;
  const char* given = std::getenv("POLYDG_COMMIT");
  if (built == "unknown" && given && *given) return {given, "POLYDG_COMMIT at run time"};
  return {std::string(built), POLYDG_BENCH_COMMIT_SOURCE};
}

/// The JSON member "provenance": {...} (no comma before it). started: utc_now() when the run
/// began; threads: the OpenMP threads; device: a JSON value describing the device the numbers
/// are of besides the CPU ("null" for none).
inline std::string provenance_json(int argc, char** argv, const std::string& started, int threads,
                                   const std::string& device) {
  const Commit commit = build_commit();
  const char* module_loading = std::getenv("CUDA_MODULE_LOADING");
  std::string json = "\"provenance\": {\"commit\": " + json_string(commit.hash) +
                     ", \"commit_source\": " + json_string(commit.source) +
                     ", \"build_type\": " + json_string(POLYDG_BENCH_BUILD_TYPE);
#if defined(__clang__)
  json += ", \"host_compiler\": " + json_string("clang " __VERSION__);
#elif defined(__GNUC__)
  json += ", \"host_compiler\": " + json_string("gcc " __VERSION__);
#endif
  json += ", \"date_utc\": " + json_string(started) +
          ", \"command\": " + json_string(command_line(argc, argv)) +
          ", \"host\": " + json_string(host_name()) + ", \"cpu\": " + json_string(cpu_model()) +
          ", \"omp_threads\": " + std::to_string(threads) + ", \"cuda_module_loading\": " +
          json_string(module_loading ? module_loading : "unset (CUDA's default: lazy since 12.2)") +
          ", \"device\": " + device + "}";
  return json;
}

}  // namespace polydg::bench
