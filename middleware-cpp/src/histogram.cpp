// Histogram serialisation for histograms.json.
#include "histogram.hpp"

namespace mcscope {

std::uint64_t histogram::total() const {
    std::uint64_t sum = overflow_;
    for (std::uint64_t c : counts_) {
        sum += c;
    }
    return sum;
}

std::string histogram::to_json() const {
    std::string out = "{\"counts\": [";
    for (std::size_t i = 0; i < kBucketCount; ++i) {
        if (i > 0) {
            out += ", ";
        }
        out += std::to_string(counts_[i]);
    }
    out += "], \"overflow\": " + std::to_string(overflow_) + "}";
    return out;
}

}  // namespace mcscope
