// Stats: window attribution by written time, means/max, per-server counts, histograms, samples.
#include "stats.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "stats_writer.hpp"

namespace mcscope {
namespace {

constexpr mono_ns kUs = 1000;
constexpr mono_ns kWindow = 1'000'000 * kUs;  // 1 s

request make(request_type type, std::size_t keys, mono_ns arrival, mono_ns queue_us,
             mono_ns server_us, mono_ns total_us) {
    static std::uint64_t next_id = 0;
    request r;
    r.id = ++next_id;  // as the network thread numbers requests in parse order
    r.type = type;
    r.keys.resize(keys);
    r.t.arrival = arrival;
    r.t.enqueue = arrival + 5 * kUs;
    r.t.dequeue = r.t.enqueue + queue_us * kUs;
    r.t.sent = r.t.dequeue + 1 * kUs;
    r.t.replied = r.t.sent + server_us * kUs;
    r.t.written = arrival + total_us * kUs;
    return r;
}

double get(const window_values& v, request_type t, metric m) {
    return v.v[static_cast<std::size_t>(t)][static_cast<std::size_t>(m)];
}

TEST(Stats, WindowsAttributeByWrittenTime) {
    mono_ns t0 = 1'000'000'000;
    stats st(t0, kWindow, 2);
    request a = make(request_type::get, 1, t0 + 100 * kUs, 50, 200, 300);
    a.server_mask = 0b10;
    request b = make(request_type::get, 1, t0 + 200 * kUs, 150, 400, 700);
    b.server_mask = 0b10;
    b.misses = 1;
    a.reply = "END\r\n";  // a miss: 5 bytes
    b.reply = std::string(40, 'v');
    request c = make(request_type::multiget, 9, t0 + kWindow - 10 * kUs, 0, 20, 100);
    c.server_mask = 0b111;
    c.error = true;
    a.id = 1;  // parse order; with sample_every 2 only b is sampled
    b.id = 2;
    c.id = 3;
    st.begin_batch();
    st.record(a);
    st.record(b);
    st.record(c);  // written in window 1
    st.end_batch();

    window_values w0 = st.read_window(0);
    EXPECT_EQ(get(w0, request_type::get, metric::completed), 2.0);
    EXPECT_EQ(get(w0, request_type::get, metric::misses), 1.0);
    EXPECT_EQ(get(w0, request_type::get, metric::keys), 2.0);
    EXPECT_DOUBLE_EQ(get(w0, request_type::get, metric::queue_sum), 200.0);
    EXPECT_DOUBLE_EQ(get(w0, request_type::get, metric::queue_max), 150.0);
    EXPECT_DOUBLE_EQ(get(w0, request_type::get, metric::server_sum), 600.0);
    EXPECT_DOUBLE_EQ(get(w0, request_type::get, metric::total_max), 700.0);
    // processing = total - queue - server: (300-50-200) + (700-150-400)
    EXPECT_DOUBLE_EQ(get(w0, request_type::get, metric::processing_sum), 200.0);
    EXPECT_DOUBLE_EQ(get(w0, request_type::get, metric::reply_bytes_sum), 45.0);
    EXPECT_EQ(w0.per_server[1], 2u);
    EXPECT_EQ(get(w0, request_type::multiget, metric::completed), 0.0);

    window_values w1 = st.read_window(1);
    EXPECT_EQ(get(w1, request_type::multiget, metric::completed), 1.0);
    EXPECT_EQ(get(w1, request_type::multiget, metric::keys), 9.0);
    EXPECT_EQ(get(w1, request_type::multiget, metric::errors), 1.0);
    EXPECT_EQ(w1.per_server[0] + w1.per_server[1] + w1.per_server[2], 3u);

    window_values w2 = st.read_window(2);  // nothing completed: zeros
    EXPECT_EQ(get(w2, request_type::get, metric::completed), 0.0);

    EXPECT_EQ(st.totals(request_type::get).completed, 2u);
    EXPECT_EQ(st.totals(request_type::multiget).keys, 9u);
    const histogram& h = st.hist(request_type::get, stats::kHistTotal);
    EXPECT_EQ(h.count(3), 1u);  // 300 us
    EXPECT_EQ(h.count(7), 1u);  // 700 us
    EXPECT_EQ(h.total(), 2u);

    std::vector<sample> samples;
    st.drain_samples(samples);
    ASSERT_EQ(samples.size(), 1u);  // every 2nd request
    EXPECT_EQ(samples[0].t.written, b.t.written);
}

TEST(Stats, ShardsMergeAsOneWriter) {
    // Two writer threads' blocks read together equal one block that recorded everything.
    mono_ns t0 = 1'000'000'000;
    stats_shards shards(2, t0, kWindow, 1);
    stats single(t0, kWindow, 1);
    std::vector<request> reqs;  // requests are move-only (they own memory charges)
    reqs.push_back(make(request_type::get, 1, t0 + 100 * kUs, 50, 200, 300));
    reqs.push_back(make(request_type::get, 1, t0 + 300 * kUs, 400, 100, 900));
    reqs.push_back(make(request_type::set, 1, t0 + 500 * kUs, 10, 20, 40));
    reqs.push_back(make(request_type::multiget, 9, t0 + 20 * kUs, 0, 900, 2'000));
    reqs[0].server_mask = 0b01;
    reqs[1].server_mask = 0b10;
    reqs[2].server_mask = 0b11;
    reqs[3].misses = 2;
    for (std::size_t i = 0; i < reqs.size(); ++i) {
        stats& s = shards.shard(i % 2);
        s.begin_batch();
        s.record(reqs[i]);
        s.end_batch();
        single.begin_batch();
        single.record(reqs[i]);
        single.end_batch();
    }
    window_values merged = shards.read_window(0);
    window_values one = single.read_window(0);
    for (std::size_t t = 0; t < kRequestTypeCount; ++t) {
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            EXPECT_DOUBLE_EQ(merged.v[t][m], one.v[t][m]) << kTypeNames[t] << " " << kMetrics[m].name;
        }
    }
    EXPECT_DOUBLE_EQ(get(merged, request_type::get, metric::total_max), 900.0);
    EXPECT_EQ(merged.per_server[0], 2u);
    EXPECT_EQ(merged.per_server[1], 2u);
    EXPECT_EQ(shards.totals(request_type::get).completed, 2u);
    EXPECT_EQ(shards.totals(request_type::multiget).misses, 2u);
    EXPECT_EQ(shards.hist(request_type::get, stats::kHistTotal).total(), 2u);
    EXPECT_EQ(shards.hist(request_type::get, stats::kHistTotal).count(9), 1u);  // 900 us

    std::vector<sample> samples;
    shards.drain_samples(samples);
    ASSERT_EQ(samples.size(), 4u);  // sample_every 1: all, ordered by written time
    for (std::size_t i = 1; i < samples.size(); ++i) {
        EXPECT_LE(samples[i - 1].t.written, samples[i].t.written);
    }
}

TEST(Stats, HistogramBucketsAndOverflow) {
    histogram h;
    h.add(0.0);
    h.add(99.9);
    h.add(100.0);
    h.add(49'999.0);
    h.add(50'000.0);
    EXPECT_EQ(h.count(0), 2u);
    EXPECT_EQ(h.count(1), 1u);
    EXPECT_EQ(h.count(kBucketCount - 1), 1u);
    EXPECT_EQ(h.overflow(), 1u);
    EXPECT_EQ(h.to_json().rfind("], \"overflow\": 1}"), h.to_json().size() - 17);
}

TEST(LogLayout, BucketsAreContiguousAndAtMost1in32Wide) {
    // Every bucket starts where the previous one ends; above 64 ns a bucket's width is at most
    // 1/32 of its lower edge (the relative resolution the percentiles rely on).
    EXPECT_EQ(log_layout::kCount, 1024u);
    EXPECT_EQ(log_layout::lower_ns(0), 0u);
    for (std::size_t i = 1; i < log_layout::kCount; ++i) {
        ASSERT_EQ(log_layout::lower_ns(i), log_layout::upper_ns(i - 1)) << i;
        std::uint64_t width = log_layout::upper_ns(i) - log_layout::lower_ns(i);
        if (log_layout::lower_ns(i) >= 64) {
            ASSERT_LE(width * 32, log_layout::lower_ns(i)) << i;
        } else {
            ASSERT_EQ(width, 1u) << i;
        }
    }
    EXPECT_EQ(log_layout::upper_ns(log_layout::kCount - 1), log_layout::kLimitNs);
}

TEST(LogLayout, IndexPutsEachValueInsideItsBucket) {
    // Both edges of every bucket, and values around every power of two.
    for (std::size_t i = 0; i < log_layout::kCount; ++i) {
        ASSERT_EQ(log_layout::index(log_layout::lower_ns(i)), i);
        ASSERT_EQ(log_layout::index(log_layout::upper_ns(i) - 1), i);
    }
    for (unsigned k = 0; k < 40; ++k) {
        for (std::uint64_t v : {(std::uint64_t{1} << k) - 1, std::uint64_t{1} << k,
                                (std::uint64_t{1} << k) + 1}) {
            std::size_t i = log_layout::index(v);
            if (v >= log_layout::kLimitNs) {
                ASSERT_EQ(i, log_layout::kCount) << v;
            } else {
                ASSERT_LE(log_layout::lower_ns(i), v);
                ASSERT_LT(v, log_layout::upper_ns(i));
            }
        }
    }
    EXPECT_EQ(log_layout::index(25'100), log_layout::index(25'500));  // 25.1 and 25.5 us: 1 bucket
    EXPECT_NE(log_layout::index(25'000), log_layout::index(26'000));  // 4 % apart: 2 buckets
}

TEST(Stats, WindowHistogramsPerWindowTypeAndKind) {
    // Each request lands in its written-time window's log-linear buckets; shards add up.
    mono_ns t0 = 1'000'000'000;
    stats_shards shards(2, t0, kWindow, 1);
    std::vector<request> reqs;
    reqs.push_back(make(request_type::get, 1, t0 + 100 * kUs, 25, 200, 300));
    reqs.push_back(make(request_type::get, 1, t0 + 300 * kUs, 26, 200, 310));
    reqs.push_back(make(request_type::set, 1, t0 + kWindow + 10 * kUs, 10, 20, 40));
    for (std::size_t i = 0; i < reqs.size(); ++i) {
        stats& s = shards.shard(i % 2);
        s.begin_batch();
        s.record(reqs[i]);
        s.end_batch();
    }
    auto w0 = std::make_unique<window_hists>();
    shards.read_window(0, w0.get());
    const auto& get_h = w0->c[static_cast<std::size_t>(request_type::get)];
    EXPECT_EQ(get_h[stats::kHistQueue][log_layout::index(25'000)], 1u);
    EXPECT_EQ(get_h[stats::kHistQueue][log_layout::index(26'000)], 1u);
    EXPECT_EQ(get_h[stats::kHistServer][log_layout::index(200'000)], 2u);
    EXPECT_EQ(get_h[stats::kHistTotal][log_layout::index(300'000)], 1u);
    std::uint64_t set_in_w0 = 0;
    for (std::uint64_t c : w0->c[static_cast<std::size_t>(request_type::set)][stats::kHistTotal]) {
        set_in_w0 += c;
    }
    EXPECT_EQ(set_in_w0, 0u);
    auto w1 = std::make_unique<window_hists>();
    shards.read_window(1, w1.get());
    const auto& set_h = w1->c[static_cast<std::size_t>(request_type::set)];
    EXPECT_EQ(set_h[stats::kHistTotal][log_layout::index(40'000)], 1u);

    std::string line = stats_writer::window_hists_json(1, *w1);
    std::string expect = "\"set\": {\"total\": {\"from\": " +
                         std::to_string(log_layout::index(40'000)) + ", \"counts\": [1]}";
    EXPECT_NE(line.find(expect), std::string::npos) << line;
    EXPECT_NE(line.find("\"get\": {\"total\": {\"from\": 0, \"counts\": []}"), std::string::npos)
        << line;
}

TEST(Stats, WindowJsonHasEveryContractField) {
    window_values v;
    v.v[0][static_cast<std::size_t>(metric::completed)] = 4;
    v.v[0][static_cast<std::size_t>(metric::queue_sum)] = 10;
    v.per_server[0] = 3;
    v.per_server[1] = 1;
    std::string line = stats_writer::window_json(7, 7e6, 8e6, queue_window{1.25, 3}, v, 2);
    for (const char* field :
         {"\"window\": 7", "\"start_us\": 7000000.000", "\"end_us\": 8000000.000",
          "\"queue_length_mean\": 1.250", "\"queue_length_max\": 3",
          "\"requests_per_server\": [3, 1]", "\"get\": {\"completed\": 4",
          "\"queue_us_mean\": 2.500", "\"multiget\": {", "\"set\": {", "\"other\": {",
          "\"processing_us_mean\"", "\"reply_bytes_mean\": 0.000"}) {
        EXPECT_NE(line.find(field), std::string::npos) << field << " in " << line;
    }
    for (const metric_desc& d : kWindowFields) {  // the per-window fields --describe-stats lists
        EXPECT_NE(line.find("\"" + std::string(d.name) + "\": "), std::string::npos) << d.name;
    }
    for (const metric_desc& d : kMetrics) {
        EXPECT_NE(line.find("\"" + std::string(d.name) + "\": "), std::string::npos) << d.name;
    }
}

}  // namespace
}  // namespace mcscope
