// Reporter thread: closes each window and writes the stats files of the format contract.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "config.hpp"
#include "memory_budget.hpp"
#include "stats.hpp"
#include "work_queue.hpp"

namespace mcscope {

/// Writes windows.jsonl, window_histograms.jsonl and requests.csv while running,
/// histograms.json and summary.json at finish(). Owns the only thread that reads the stats block concurrently with its writer.
class stats_writer {
public:
    stats_writer(const config& cfg, stats_shards& st, work_queue& queue, double started_unix);
    stats_writer(const stats_writer&) = delete;
    stats_writer& operator=(const stats_writer&) = delete;
    ~stats_writer();

    /// Creates the directory and files and starts the reporter; false with error set on failure.
    bool start(std::string& error);
    /// Call after the network thread and workers stopped: writes the remaining windows (the last
    /// one partial, ending at stop), histograms.json and summary.json.
    /// summary.json's "memory" block reports the cap and the memory counters of `budget`.
    void finish(mono_ns stop, std::uint64_t queue_full_events, const memory_budget& budget);

    /// One windows.jsonl line (exposed for tests).
    static std::string window_json(std::int64_t w, double start_us, double end_us,
                                   const queue_window& q, const window_values& v,
                                   std::size_t servers);
    /// window_histograms.jsonl: its first line (the layout), then one line per window.
    static std::string hist_layout_json();
    static std::string window_hists_json(std::int64_t w, const window_hists& h);

private:
    void run();
    void write_window(std::int64_t w, mono_ns end);
    void write_samples();
    void write_histograms();
    void write_summary(std::uint64_t queue_full_events, const memory_budget& budget);

    const config& cfg_;
    stats_shards& stats_;
    work_queue& queue_;
    double started_unix_;
    std::ofstream windows_;
    std::ofstream samples_;
    std::ofstream window_hists_;
    std::unique_ptr<window_hists> hist_buf_ = std::make_unique<window_hists>();
    std::int64_t next_window_ = 0;
    std::vector<sample> sample_buf_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace mcscope
