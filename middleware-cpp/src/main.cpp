// Entry point: parse flags, run the server; exceptions are caught only here.
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>

#include "config.hpp"
#include "memory_budget.hpp"
#include "server.hpp"
#include "stats.hpp"

namespace {

void describe_stats() {
    constexpr const char* kKinds[] = {"counter", "mean", "max"};
    std::printf("per-type window metrics (types: get, multiget, set, other)\n");
    for (const mcscope::metric_desc& m : mcscope::kMetrics) {
        std::printf("  %-20s %-8s %-9s %s\n", m.name, kKinds[static_cast<int>(m.kind)], m.unit,
                    m.description);
    }
    std::printf("per-window metrics (windows.jsonl, all types together)\n");
    for (const mcscope::metric_desc& m : mcscope::kWindowFields) {
        std::printf("  %-20s %-8s %-9s %s\n", m.name, kKinds[static_cast<int>(m.kind)], m.unit,
                    m.description);
    }
    std::printf(
        "per-type window histograms (window_histograms.jsonl; log-linear, unit 1 ns, %zu "
        "sub-buckets, %zu buckets + overflow)\n",
        static_cast<std::size_t>(2 * mcscope::log_layout::kHalf), mcscope::log_layout::kCount);
    constexpr const char* kHistDesc[] = {"reply written - first byte parsed",
                                         "dequeue - enqueue", "last server reply - sent"};
    for (std::size_t k = 0; k < mcscope::kHistKinds; ++k) {
        std::printf("  %-20s %-8s %-9s %s\n", mcscope::kHistNames[k], "count", "ns", kHistDesc[k]);
    }
    std::printf(
        "memory bound counters (process-wide; in summary.json \"memory\" beside "
        "max_buffered_bytes, and logged at shutdown as \"memory: name=value\")\n");
    for (const mcscope::memory_counter_desc& m : mcscope::kMemoryCounters) {
        std::printf("  %-20s %-8s %-9s %s\n", m.name, m.kind, m.unit, m.description);
    }
}

}  // namespace

int main(int argc, char** argv) {
    mcscope::config_result parsed = mcscope::parse_args(argc, argv);
    if (parsed.help) {
        std::fputs(mcscope::usage().c_str(), stdout);
        return 0;
    }
    if (parsed.describe_stats) {
        describe_stats();
        return 0;
    }
    if (!parsed.ok) {
        std::fprintf(stderr, "mcscope-middleware: %s\n%s", parsed.error.c_str(),
                     mcscope::usage().c_str());
        return 2;
    }
    std::signal(SIGPIPE, SIG_IGN);  // a vanished client must not kill the process
    try {
        mcscope::server srv(parsed.cfg);
        std::string error;
        if (!srv.init(error)) {
            std::fprintf(stderr, "mcscope-middleware: %s\n", error.c_str());
            return 1;
        }
        return srv.run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcscope-middleware: fatal: %s\n", e.what());
        return 1;
    }
}
