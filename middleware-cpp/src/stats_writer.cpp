// Stats file output; JSON is written by hand (flat, numeric) to keep dependencies at Boost only.
#include "stats_writer.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "clock.hpp"
#include "log.hpp"

namespace mcscope {
namespace {

std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out + "\"";
}

std::string type_json(const std::array<double, kMetricCount>& v) {
    double completed = v[static_cast<std::size_t>(metric::completed)];
    std::string out = "{";
    for (std::size_t m = 0; m < kMetricCount; ++m) {
        const metric_desc& d = kMetrics[m];
        out += m == 0 ? "\"" : ", \"";
        out += d.name;
        out += "\": ";
        if (d.kind == metric_kind::counter) {
            out += std::to_string(static_cast<std::uint64_t>(v[m]));
        } else if (d.kind == metric_kind::mean) {
            out += num(completed > 0 ? v[m] / completed : 0.0);
        } else {
            out += num(v[m]);
        }
    }
    return out + "}";
}

}  // namespace

stats_writer::stats_writer(const config& cfg, stats_shards& st, work_queue& queue,
                           double started_unix)
    : cfg_(cfg), stats_(st), queue_(queue), started_unix_(started_unix) {}

stats_writer::~stats_writer() {
    if (thread_.joinable()) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
}

bool stats_writer::start(std::string& error) {
    std::error_code ec;
    std::filesystem::create_directories(cfg_.stats_dir, ec);
    std::filesystem::path dir(cfg_.stats_dir);
    windows_.open(dir / "windows.jsonl", std::ios::trunc);
    samples_.open(dir / "requests.csv", std::ios::trunc);
    window_hists_.open(dir / "window_histograms.jsonl", std::ios::trunc);
    if (ec || !windows_ || !samples_ || !window_hists_) {
        error = "cannot write stats files in '" + cfg_.stats_dir + "'";
        return false;
    }
    samples_ << "type,keys,arrival_us,enqueue_us,dequeue_us,sent_us,replied_us,written_us,"
                "servers,misses\n";
    samples_.flush();
    window_hists_ << hist_layout_json() << '\n';
    window_hists_.flush();
    thread_ = std::thread([this] { run(); });
    return true;
}

void stats_writer::run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        auto due = std::chrono::steady_clock::time_point(
            std::chrono::nanoseconds(stats_.t0() + (next_window_ + 1) * stats_.window_ns()));
        if (wake_.wait_until(lock, due, [this] { return stopping_; })) {
            return;
        }
        write_window(next_window_, stats_.t0() + (next_window_ + 1) * stats_.window_ns());
        ++next_window_;
        write_samples();
    }
}

std::string stats_writer::window_json(std::int64_t w, double start_us, double end_us,
                                      const queue_window& q, const window_values& v,
                                      std::size_t servers) {
    std::string out = "{\"window\": " + std::to_string(w) + ", \"start_us\": " + num(start_us) +
                      ", \"end_us\": " + num(end_us) + ", \"queue_length_mean\": " + num(q.mean) +
                      ", \"queue_length_max\": " + std::to_string(q.max) +
                      ", \"requests_per_server\": [";
    for (std::size_t s = 0; s < servers; ++s) {
        out += (s == 0 ? "" : ", ") + std::to_string(v.per_server[s]);
    }
    out += "], \"types\": {";
    for (std::size_t t = 0; t < kRequestTypeCount; ++t) {
        out += (t == 0 ? "\"" : ", \"") + std::string(kTypeNames[t]) + "\": " + type_json(v.v[t]);
    }
    return out + "}}";
}

std::string stats_writer::hist_layout_json() {
    return "{\"layout\": \"log_linear\", \"unit_ns\": 1, \"sub_buckets\": " +
           std::to_string(2 * log_layout::kHalf) +
           ", \"bucket_count\": " + std::to_string(log_layout::kCount) + "}";
}

std::string stats_writer::window_hists_json(std::int64_t w, const window_hists& h) {
    // Sparse enough per window: only the range from the first to the last non-empty bucket,
    // as {"from": i, "counts": [...]}; the overflow bucket is index bucket_count.
    std::string out = "{\"window\": " + std::to_string(w) + ", \"types\": {";
    for (std::size_t t = 0; t < kRequestTypeCount; ++t) {
        out += (t == 0 ? "\"" : ", \"") + std::string(kTypeNames[t]) + "\": {";
        for (std::size_t k = 0; k < kHistKinds; ++k) {
            const log_counts& c = h.c[t][k];
            std::size_t from = 0;
            std::size_t to = c.size();
            while (from < to && c[from] == 0) {
                ++from;
            }
            while (to > from && c[to - 1] == 0) {
                --to;
            }
            out += (k == 0 ? "\"" : ", \"") + std::string(kHistNames[k]) +
                   "\": {\"from\": " + std::to_string(from == to ? 0 : from) + ", \"counts\": [";
            for (std::size_t i = from; i < to; ++i) {
                out += (i == from ? "" : ",") + std::to_string(c[i]);
            }
            out += "]}";
        }
        out += "}";
    }
    return out + "}}";
}

void stats_writer::write_window(std::int64_t w, mono_ns end) {
    mono_ns start = stats_.t0() + w * stats_.window_ns();
    queue_window q = queue_.close_window(w, end);
    *hist_buf_ = window_hists{};
    window_values v = stats_.read_window(w, hist_buf_.get());
    windows_ << window_json(w, static_cast<double>(start - stats_.t0()) / kNsPerUs,
                            static_cast<double>(end - stats_.t0()) / kNsPerUs, q, v,
                            cfg_.servers.size())
             << '\n';
    windows_.flush();
    window_hists_ << window_hists_json(w, *hist_buf_) << '\n';
    window_hists_.flush();
}

void stats_writer::write_samples() {
    sample_buf_.clear();
    stats_.drain_samples(sample_buf_);
    auto us = [this](mono_ns t) {
        return t == 0 ? std::string("") : num(static_cast<double>(t - stats_.t0()) / kNsPerUs);
    };
    for (const sample& s : sample_buf_) {
        samples_ << kTypeNames[static_cast<std::size_t>(s.type)] << ',' << s.keys << ','
                 << us(s.t.arrival) << ',' << us(s.t.enqueue) << ',' << us(s.t.dequeue) << ','
                 << us(s.t.sent) << ',' << us(s.t.replied) << ',' << us(s.t.written) << ','
                 << s.servers << ',' << s.misses << '\n';
    }
    samples_.flush();
}

void stats_writer::finish(mono_ns stop, std::uint64_t queue_full_events,
                          const memory_budget& budget) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    }
    // Full windows that ended before stop, then the partial window containing stop.
    while (stats_.t0() + (next_window_ + 1) * stats_.window_ns() <= stop) {
        write_window(next_window_, stats_.t0() + (next_window_ + 1) * stats_.window_ns());
        ++next_window_;
    }
    if (stats_.t0() + next_window_ * stats_.window_ns() < stop) {
        write_window(next_window_, stop);
        ++next_window_;
    }
    write_samples();
    write_histograms();
    write_summary(queue_full_events, budget);
    if (stats_.samples_dropped() > 0) {
        LOG_WARN("%llu samples dropped (reporter too slow)",
                 static_cast<unsigned long long>(stats_.samples_dropped()));
    }
}

void stats_writer::write_histograms() {
    std::ofstream out(std::filesystem::path(cfg_.stats_dir) / "histograms.json", std::ios::trunc);
    out << "{\"bucket_us\": " << static_cast<int>(kBucketUs) << ", \"bucket_count\": "
        << kBucketCount << ", \"types\": {";
    for (std::size_t t = 0; t < kRequestTypeCount; ++t) {
        out << (t == 0 ? "\"" : ", \"") << kTypeNames[t] << "\": {";
        for (std::size_t h = 0; h < kHistKinds; ++h) {
            out << (h == 0 ? "\"" : ", \"") << kHistNames[h] << "\": "
                << stats_.hist(static_cast<request_type>(t), h).to_json();
        }
        out << "}";
    }
    out << "}}\n";
}

void stats_writer::write_summary(std::uint64_t queue_full_events, const memory_budget& budget) {
    std::ofstream out(std::filesystem::path(cfg_.stats_dir) / "summary.json", std::ios::trunc);
    out << "{\"format_version\": 2, \"started_unix\": " << num(started_unix_)
        << ", \"stopped_unix\": " << num(unix_now()) << ", \"config\": {\"listen\": "
        << quoted(cfg_.listen_ip + ":" + std::to_string(cfg_.port))
        << ", \"workers\": " << cfg_.workers << ", \"sharded\": "
        << (cfg_.sharded ? "true" : "false") << ", \"replication\": " << cfg_.replication
        << ", \"servers\": [";
    for (std::size_t s = 0; s < cfg_.servers.size(); ++s) {
        out << (s == 0 ? "" : ", ") << quoted(cfg_.servers[s].str());
    }
    out << "], \"window_ms\": " << cfg_.window_ms << ", \"sample_every\": " << cfg_.sample_every
        << ", \"queue_capacity\": " << cfg_.queue_capacity << "}, \"windows\": " << next_window_
        << ", \"clean_shutdown\": true, \"totals\": {";
    for (std::size_t t = 0; t < kRequestTypeCount; ++t) {
        type_totals tt = stats_.totals(static_cast<request_type>(t));
        out << (t == 0 ? "\"" : ", \"") << kTypeNames[t] << "\": {\"completed\": " << tt.completed
            << ", \"errors\": " << tt.errors << ", \"misses\": " << tt.misses
            << ", \"keys\": " << tt.keys << "}";
    }
    // samples_dropped stays out of the file: the contract's readers parse it strictly. A
    // non-zero count is logged at shutdown instead.
    // The memory bound: its cap and counters (kMemoryCounters), so a run can say it hit the cap.
    out << "}, \"queue_full_events\": " << queue_full_events
        << ", \"memory\": {\"max_buffered_bytes\": " << budget.cap();
    for (std::size_t i = 0; i < kMemoryCounterCount; ++i) {
        out << ", \"" << kMemoryCounters[i].name
            << "\": " << budget.counter(static_cast<memory_counter>(i));
    }
    out << "}}\n";
}

}  // namespace mcscope
