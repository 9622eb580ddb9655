// Fixed-bucket latency histogram: 100 us buckets plus an overflow bucket (the stats contract).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace mcscope {

constexpr double kBucketUs = 100.0;
constexpr std::size_t kBucketCount = 500;

/// Counts values in [i*kBucketUs, (i+1)*kBucketUs); values >= kBucketCount*kBucketUs overflow.
/// Single-writer; read only after the writer has stopped.
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
