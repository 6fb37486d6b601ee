#pragma once
// Where a benchmark's numbers come from, for its JSON (docs/performance.md: every table gives
// the device, the date and the command). Every benchmark in perf/ writes the one object
// provenance_json() builds, as the first member of its JSON:
//   commit, commit_source  the commit it was built from, and how that was found (below)
//   build_type             CMAKE_BUILD_TYPE
//   host_compiler          the C++ compiler of this translation unit
//   date_utc               when the run started, ISO 8601 in UTC
//   command                its command line, as a shell would take it back
//   host, cpu              the host's name and its CPU's model (/proc/cpuinfo)
//   omp_threads            omp_get_max_threads()
//   cuda_module_loading    the environment's CUDA_MODULE_LOADING
//   device                 null for a CPU run; for a GPU run the object device_json()
//                          (perf/cuda_event_timing.hpp) gives: name, compute capability,
//                          driver and runtime versions, ... No CUDA in this header.
// The commit, first found of (perf/README.md):
//   1. POLYDG_COMMIT in the environment at run time;
//   2. POLYDG_COMMIT in the environment at build time;
//   3. `git rev-parse HEAD` of the source tree at build time ("-dirty" where tracked files
//      differ from it);
//   4. "unknown".
// The environment wins over git because the GPU machine's source tree is a copy that can hold
// a git checkout of an older base commit: there git names the wrong commit, so the scripts
// that build or run there pass POLYDG_COMMIT. cmake/PolydgBenchCommit.cmake does 2 to 4.
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

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

/// The commit the numbers are of, and where it came from: POLYDG_COMMIT at run time where it is
/// set and not empty, else what the build found (cmake/PolydgBenchCommit.cmake).
struct Commit {
  std::string hash, source;
};
inline Commit build_commit() {
  const char* given = std::getenv("POLYDG_COMMIT");
  if (given && *given) return {given, "POLYDG_COMMIT at run time"};
  return {POLYDG_BENCH_COMMIT, POLYDG_BENCH_COMMIT_SOURCE};
}

/// The JSON member "provenance": {...} (no comma before it), the same in every benchmark.
/// started: utc_now() when the run began; device: a JSON value describing the device the
/// numbers are of besides the CPU (device_json() for a GPU; "null" for none).
inline std::string provenance_json(int argc, char** argv, const std::string& started,
                                   const std::string& device = "null") {
#ifdef _OPENMP
  const int threads = omp_get_max_threads();
#else
  const int threads = 1;
#endif
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
