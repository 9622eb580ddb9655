// Latency histograms of the stats contract: fixed 100 us buckets (whole run, histograms.json)
// and the log-linear layout of the per-window histograms (window_histograms.jsonl).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

namespace mcscope {

constexpr double kBucketUs = 100.0;
constexpr std::size_t kBucketCount = 500;

/// Counts values in [i*kBucketUs, (i+1)*kBucketUs); values >= kBucketCount*kBucketUs overflow.
/// Single-writer; read only after the writer has stopped.
/// HdrHistogram's log-linear layout over integer nanoseconds with 64 sub-buckets: below 64 ns
/// one bucket per ns; above, each power of two [2^k, 2^(k+1)) is cut into 32 equal buckets, so
/// a bucket is at most 1/32 (3.1 %) of its lower edge wide. Values >= 2^36 ns (68.7 s) go to
/// the overflow bucket, index kCount. Pure integer arithmetic: one bit_width and a shift.
struct log_layout {
    static constexpr unsigned kSubBits = 6;                         ///< 64 sub-buckets
    static constexpr std::uint64_t kHalf = 1u << (kSubBits - 1);    ///< buckets per power of 2
    static constexpr unsigned kMaxShift = 30;                       ///< widest bucket 2^30 ns
    static constexpr std::size_t kCount = (kMaxShift + 2) * kHalf;  ///< 1024 finite buckets
    static constexpr std::uint64_t kLimitNs = std::uint64_t{1} << (kMaxShift + kSubBits);

    /// Bucket of a value in ns; kCount for the overflow bucket.
    static constexpr std::size_t index(std::uint64_t ns) {
        if (ns >= kLimitNs) {
            return kCount;
        }
        // HdrHistogram's trick: or-ing in 2*kHalf-1 makes the shift 0 below 64 ns, no branch.
        auto shift = static_cast<unsigned>(std::bit_width(ns | (2 * kHalf - 1))) - kSubBits;
        return static_cast<std::size_t>(shift * kHalf + (ns >> shift));
    }
    /// Smallest value of bucket i (i < kCount).
    static constexpr std::uint64_t lower_ns(std::size_t i) {
        if (i < 2 * kHalf) {
            return i;
        }
        auto shift = static_cast<unsigned>(i / kHalf - 1);
        return (i - shift * kHalf) << shift;
    }
    /// One past the largest value of bucket i (i < kCount).
    static constexpr std::uint64_t upper_ns(std::size_t i) {
        return i < 2 * kHalf ? i + 1 : lower_ns(i) + (std::uint64_t{1} << (i / kHalf - 1));
    }
};

class histogram {
public:
    void add(double us) {
        auto i = us <= 0.0 ? std::size_t{0} : static_cast<std::size_t>(us / kBucketUs);
        if (i >= kBucketCount) {
            ++overflow_;
        } else {
            ++counts_[i];
        }
    }
    std::uint64_t count(std::size_t i) const { return counts_[i]; }
    std::uint64_t overflow() const { return overflow_; }
    /// Adds other's counts (merging the writer threads' histograms at the end).
    void merge(const histogram& other) {
        for (std::size_t i = 0; i < kBucketCount; ++i) {
            counts_[i] += other.counts_[i];
        }
        overflow_ += other.overflow_;
    }
    std::uint64_t total() const;
    /// {"counts": [...], "overflow": n}
    std::string to_json() const;

private:
    std::array<std::uint64_t, kBucketCount> counts_{};
    std::uint64_t overflow_ = 0;
};

}  // namespace mcscope
