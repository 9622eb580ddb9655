// Stats accumulation; all hot-path writes are single-writer relaxed stores (plain moves on x86).
#include "stats.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <thread>

namespace mcscope {
namespace {

/// Single-writer add: no lock prefix, only the writer ever stores this value.
template <typename T>
void add_to(std::atomic<T>& a, T v) {
    a.store(a.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
}

void max_to(std::atomic<double>& a, double v) {
    if (v > a.load(std::memory_order_relaxed)) {
        a.store(v, std::memory_order_relaxed);
    }
}

mono_ns ns_between(mono_ns from, mono_ns to) { return from == 0 || to < from ? 0 : to - from; }

double us_of(mono_ns ns) { return static_cast<double>(ns) / kNsPerUs; }

void bump(std::atomic<std::uint32_t>& c) {
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

std::size_t idx(metric m) { return static_cast<std::size_t>(m); }

}  // namespace

stats::stats(mono_ns t0, mono_ns window_ns, std::size_t sample_every)
    : t0_(t0), window_ns_(window_ns), sample_every_(std::max<std::size_t>(sample_every, 1)) {}

stats::slot& stats::writer_slot(std::int64_t w) {
    slot& s = slots_[static_cast<std::size_t>(w) % kSlots];
    if (s.window.load(std::memory_order_relaxed) != w) {
        for (auto& type : s.v) {
            for (auto& m : type) {
                m.store(0.0, std::memory_order_relaxed);
            }
        }
        for (auto& c : s.per_server) {
            c.store(0, std::memory_order_relaxed);
        }
        for (auto& type : s.hist) {
            for (auto& kind : type) {
                for (auto& c : kind) {
                    c.store(0, std::memory_order_relaxed);
                }
            }
        }
        s.window.store(w, std::memory_order_release);
    }
    return s;
}

void stats::record(const request& r) {
    auto type = static_cast<std::size_t>(r.type);
    mono_ns queue_ns = ns_between(r.t.enqueue, r.t.dequeue);
    mono_ns server_ns = ns_between(r.t.sent, r.t.replied);
    mono_ns total_ns = ns_between(r.t.arrival, r.t.written);
    double queue = us_of(queue_ns);
    double server = us_of(server_ns);
    double total = us_of(total_ns);
    double processing = std::max(0.0, total - queue - server);
    auto keys = static_cast<double>(r.keys.size());

    slot& s = writer_slot((r.t.written - t0_) / window_ns_);
    auto& v = s.v[type];
    add_to(v[idx(metric::completed)], 1.0);
    add_to(v[idx(metric::errors)], r.error ? 1.0 : 0.0);
    add_to(v[idx(metric::misses)], static_cast<double>(r.misses));
    add_to(v[idx(metric::keys)], keys);
    add_to(v[idx(metric::queue_sum)], queue);
    max_to(v[idx(metric::queue_max)], queue);
    add_to(v[idx(metric::server_sum)], server);
    max_to(v[idx(metric::server_max)], server);
    add_to(v[idx(metric::total_sum)], total);
    max_to(v[idx(metric::total_max)], total);
    add_to(v[idx(metric::processing_sum)], processing);
    add_to(v[idx(metric::reply_bytes_sum)], static_cast<double>(r.reply.size()));
    for (std::uint64_t mask = r.server_mask; mask != 0; mask &= mask - 1) {
        add_to(s.per_server[static_cast<std::size_t>(std::countr_zero(mask))], std::uint64_t{1});
    }
    auto& h = s.hist[type];
    bump(h[kHistTotal][log_layout::index(static_cast<std::uint64_t>(total_ns))]);
    bump(h[kHistQueue][log_layout::index(static_cast<std::uint64_t>(queue_ns))]);
    bump(h[kHistServer][log_layout::index(static_cast<std::uint64_t>(server_ns))]);

    type_totals& tot = totals_[type];
    ++tot.completed;
    tot.errors += r.error ? 1 : 0;
    tot.misses += r.misses;
    tot.keys += r.keys.size();
    hists_[type][kHistTotal].add(total);
    hists_[type][kHistQueue].add(queue);
    hists_[type][kHistServer].add(server);
    if (r.id % sample_every_ == 0) {
        push_sample(r);
    }
}

void stats::push_sample(const request& r) {
    std::size_t head = ring_head_.load(std::memory_order_relaxed);
    if (head - ring_tail_.load(std::memory_order_acquire) >= kSampleRing) {
        add_to(samples_dropped_, std::uint64_t{1});  // reporter fell behind; counted, not hidden
        return;
    }
    ring_[head % kSampleRing] = sample{r.type, static_cast<std::uint32_t>(r.keys.size()),
                                       r.servers, r.misses, r.t};
    ring_head_.store(head + 1, std::memory_order_release);
}

void stats::drain_samples(std::vector<sample>& out) {
    std::size_t tail = ring_tail_.load(std::memory_order_relaxed);
    std::size_t head = ring_head_.load(std::memory_order_acquire);
    for (; tail != head; ++tail) {
        out.push_back(ring_[tail % kSampleRing]);
    }
    ring_tail_.store(tail, std::memory_order_release);
}

window_values stats::read_window(std::int64_t w, window_hists* hists) const {
    // A batch in progress may still record into w; wait until that batch has ended. Any batch
    // that begins later takes its "written" time after now, so it lands in a later window.
    std::uint64_t b = batch_.load();
    while ((b & 1) != 0 && batch_.load() == b) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    window_values out;
    const slot& s = slots_[static_cast<std::size_t>(w) % kSlots];
    if (s.window.load(std::memory_order_acquire) != w) {
        return out;  // no request completed in w
    }
    for (std::size_t t = 0; t < kRequestTypeCount; ++t) {
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            out.v[t][m] = s.v[t][m].load(std::memory_order_relaxed);
        }
    }
    for (std::size_t i = 0; i < kMaxServers; ++i) {
        out.per_server[i] = s.per_server[i].load(std::memory_order_relaxed);
    }
    if (hists != nullptr) {
        for (std::size_t t = 0; t < kRequestTypeCount; ++t) {
            for (std::size_t k = 0; k < kHistKinds; ++k) {
                for (std::size_t i = 0; i <= log_layout::kCount; ++i) {
                    hists->c[t][k][i] += s.hist[t][k][i].load(std::memory_order_relaxed);
                }
            }
        }
    }
    return out;
}

void window_values::merge(const window_values& other) {
    for (std::size_t t = 0; t < kRequestTypeCount; ++t) {
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            double& into = v[t][m];
            double from = other.v[t][m];
            into = kMetrics[m].kind == metric_kind::max ? std::max(into, from) : into + from;
        }
    }
    for (std::size_t i = 0; i < kMaxServers; ++i) {
        per_server[i] += other.per_server[i];
    }
}

stats_shards::stats_shards(std::size_t count, mono_ns t0, mono_ns window_ns,
                           std::size_t sample_every) {
    for (std::size_t i = 0; i < std::max<std::size_t>(count, 1); ++i) {
        shards_.push_back(std::make_unique<stats>(t0, window_ns, sample_every));
    }
}

window_values stats_shards::read_window(std::int64_t w, window_hists* hists) const {
    window_values out;
    for (const auto& s : shards_) {
        out.merge(s->read_window(w, hists));
    }
    return out;
}

void stats_shards::drain_samples(std::vector<sample>& out) {
    std::size_t from = out.size();
    for (auto& s : shards_) {
        s->drain_samples(out);
    }
    std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(from), out.end(),
                     [](const sample& a, const sample& b) { return a.t.written < b.t.written; });
}

type_totals stats_shards::totals(request_type t) const {
    type_totals out;
    for (const auto& s : shards_) {
        out.merge(s->totals(t));
    }
    return out;
}

histogram stats_shards::hist(request_type t, std::size_t which) const {
    histogram out;
    for (const auto& s : shards_) {
        out.merge(s->hist(t, which));
    }
    return out;
}

std::uint64_t stats_shards::samples_dropped() const {
    std::uint64_t n = 0;
    for (const auto& s : shards_) {
        n += s->samples_dropped();
    }
    return n;
}

}  // namespace mcscope
