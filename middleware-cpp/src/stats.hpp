// Request measurements: metric table, per-window accumulators, histograms, sampled log.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "clock.hpp"
#include "histogram.hpp"
#include "request.hpp"

namespace mcscope {

constexpr std::size_t kMaxServers = 64;  ///< request::server_mask is 64 bits wide
constexpr const char* kTypeNames[kRequestTypeCount] = {"get", "multiget", "set", "other"};

/// How a per-type metric is accumulated and printed.
enum class metric_kind { counter, mean, max };

/// One per-type window metric: JSON name, kind, unit, description (drives output and --describe).
struct metric_desc {
    const char* name;
    metric_kind kind;
    const char* unit;
    const char* description;
};

#define MCSCOPE_METRICS(ACTION)                                                                   \
    ACTION(completed, "completed", counter, "requests", "requests whose reply was written")       \
    ACTION(errors, "errors", counter, "requests", "replies that were ERROR/CLIENT_ERROR/SERVER_ERROR") \
    ACTION(misses, "misses", counter, "keys", "keys requested but not found")                     \
    ACTION(keys, "keys", counter, "keys", "keys requested")                                       \
    ACTION(queue_sum, "queue_us_mean", mean, "us", "dequeue - enqueue")                           \
    ACTION(queue_max, "queue_us_max", max, "us", "largest queue time")                           \
    ACTION(server_sum, "server_us_mean", mean, "us", "last server reply - sent to server(s)")     \
    ACTION(server_max, "server_us_max", max, "us", "largest server time")                        \
    ACTION(total_sum, "total_us_mean", mean, "us", "reply written - first byte parsed")          \
    ACTION(total_max, "total_us_max", max, "us", "largest total time")                           \
    ACTION(processing_sum, "processing_us_mean", mean, "us", "total - queue - server")          \
    ACTION(reply_bytes_sum, "reply_bytes_mean", mean, "bytes", "reply bytes written to the client")

#define MCSCOPE_METRIC_ENUM(id, name, kind, unit, desc) id,
/// Index of each per-type metric in a window slot.
enum class metric : std::size_t { MCSCOPE_METRICS(MCSCOPE_METRIC_ENUM) count };
#undef MCSCOPE_METRIC_ENUM

constexpr std::size_t kMetricCount = static_cast<std::size_t>(metric::count);

#define MCSCOPE_METRIC_DESC(id, name, kind, unit, desc) {name, metric_kind::kind, unit, desc},
constexpr metric_desc kMetrics[kMetricCount] = {MCSCOPE_METRICS(MCSCOPE_METRIC_DESC)};
#undef MCSCOPE_METRIC_DESC

/// Fields of a windows.jsonl line measured over the whole window, not per type (--describe-stats
/// lists them with the per-type metrics: the worker reads both by these names).
constexpr metric_desc kWindowFields[] = {
    {"queue_length_mean", metric_kind::mean, "requests", "work queue length, time-weighted"},
    {"queue_length_max", metric_kind::max, "requests", "largest work queue length"},
};

/// Plain (non-atomic) copy of one window's accumulators.
struct window_values {
    std::array<std::array<double, kMetricCount>, kRequestTypeCount> v{};
    std::array<std::uint64_t, kMaxServers> per_server{};

    /// Adds another writer's values of the same window: counters and sums add, maxima take the
    /// larger (means are sums until output, so they merge exactly).
    void merge(const window_values& other);
};

constexpr std::size_t kHistKinds = 3;  ///< total, queue, server (stats::kHist*)
constexpr const char* kHistNames[kHistKinds] = {"total", "queue", "server"};
/// log_layout buckets of one window, the overflow bucket last.
using log_counts = std::array<std::uint64_t, log_layout::kCount + 1>;

/// One window's log-linear histograms per type and kind ("all" is their sum: readers add them).
struct window_hists {
    std::array<std::array<log_counts, kHistKinds>, kRequestTypeCount> c{};
};

/// One row of requests.csv.
struct sample {
    request_type type = request_type::other;
    std::uint32_t keys = 0;
    std::uint16_t servers = 0;
    std::uint32_t misses = 0;
    request_times t;
};

/// Lifetime totals per type for summary.json.
struct type_totals {
    std::uint64_t completed = 0;
    std::uint64_t errors = 0;
    std::uint64_t misses = 0;
    std::uint64_t keys = 0;

    void merge(const type_totals& o) {
        completed += o.completed;
        errors += o.errors;
        misses += o.misses;
        keys += o.keys;
    }
};

/// Accumulators written by exactly one thread: each thread that writes replies to clients (the
/// network thread and every worker) owns one and records the requests it completes; the
/// reporter merges them (stats_shards). No locks and no read-modify-write atomics: values
/// are relaxed atomic loads/stores so the reporter may read a closed window concurrently. A batch
/// counter (odd while recording) tells the reporter when a window can no longer change.
class stats {
public:
    stats(mono_ns t0, mono_ns window_ns, std::size_t sample_every);
    stats(const stats&) = delete;
    stats& operator=(const stats&) = delete;

    /// Writer: bracket a batch of records; now_ns() for "written" must be taken after begin.
    void begin_batch() { batch_.store(batch_.load(std::memory_order_relaxed) + 1); }
    void end_batch() { batch_.store(batch_.load(std::memory_order_relaxed) + 1); }
    /// Writer: account one completed request (r.t.written set). It goes to the sampled log when
    /// r.id is a multiple of sample_every (ids are given in parse order by the network thread,
    /// so the rate is exact across all writer threads without a shared counter).
    void record(const request& r);

    /// Reporter: values of window w once it has ended (waits for an in-progress batch); with
    /// hists, also adds the window's log-linear histograms into it.
    window_values read_window(std::int64_t w, window_hists* hists = nullptr) const;
    /// Reporter: moves pending samples into out.
    void drain_samples(std::vector<sample>& out);

    /// After the writer stopped: lifetime data.
    const type_totals& totals(request_type t) const { return totals_[static_cast<std::size_t>(t)]; }
    const histogram& hist(request_type t, std::size_t which) const {
        return hists_[static_cast<std::size_t>(t)][which];
    }
    std::uint64_t samples_dropped() const { return samples_dropped_.load(); }

    mono_ns t0() const { return t0_; }
    mono_ns window_ns() const { return window_ns_; }

    static constexpr std::size_t kHistTotal = 0;
    static constexpr std::size_t kHistQueue = 1;
    static constexpr std::size_t kHistServer = 2;

private:
    static constexpr std::size_t kSlots = 8;  ///< windows kept for a late reporter
    static constexpr std::size_t kSampleRing = 1 << 14;

    struct slot {
        std::atomic<std::int64_t> window{-1};
        std::array<std::array<std::atomic<double>, kMetricCount>, kRequestTypeCount> v{};
        std::array<std::atomic<std::uint64_t>, kMaxServers> per_server{};
        /// Per-window histograms; 32-bit: one writer completes far fewer than 2^32 per window.
        std::array<std::array<std::array<std::atomic<std::uint32_t>, log_layout::kCount + 1>,
                              kHistKinds>,
                   kRequestTypeCount>
            hist{};
    };

    slot& writer_slot(std::int64_t w);
    void push_sample(const request& r);

    mono_ns t0_;
    mono_ns window_ns_;
    std::size_t sample_every_;
    std::atomic<std::uint64_t> batch_{0};
    std::array<slot, kSlots> slots_;
    std::array<type_totals, kRequestTypeCount> totals_{};
    std::array<std::array<histogram, kHistKinds>, kRequestTypeCount> hists_{};

    std::array<sample, kSampleRing> ring_{};
    std::atomic<std::size_t> ring_head_{0};  ///< written by the writer
    std::atomic<std::size_t> ring_tail_{0};  ///< written by the reporter
    std::atomic<std::uint64_t> samples_dropped_{0};
};

/// The per-thread stats blocks of one process, read together by the reporter.
class stats_shards {
public:
    stats_shards(std::size_t count, mono_ns t0, mono_ns window_ns, std::size_t sample_every);

    std::size_t size() const { return shards_.size(); }
    stats& shard(std::size_t i) { return *shards_[i]; }
    mono_ns t0() const { return shards_.front()->t0(); }
    mono_ns window_ns() const { return shards_.front()->window_ns(); }

    /// Reporter: window w merged over all writers (with hists: its histograms added into it).
    window_values read_window(std::int64_t w, window_hists* hists = nullptr) const;
    /// Reporter: moves pending samples of every writer into out, ordered by written time.
    void drain_samples(std::vector<sample>& out);
    /// After the writers stopped: merged lifetime data.
    type_totals totals(request_type t) const;
    histogram hist(request_type t, std::size_t which) const;
    std::uint64_t samples_dropped() const;

private:
    std::vector<std::unique_ptr<stats>> shards_;
};

}  // namespace mcscope
