// libFuzzer target: the server reply parser on arbitrary bytes that arrive a little at a time,
// replies parsed back to back as a pipelined connection does. Also compiled into the unit tests
// (as mcscope_fuzz_replies) to replay fuzz/corpus/response.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "response_parser.hpp"

namespace {

void check(bool ok) {
    if (!ok) {
        std::abort();  // an invariant broke: libFuzzer records the input
    }
}

constexpr std::size_t kCap = 4096;  // a small cap reaches the too-large paths with short inputs

/// Parses one reply after another from data; each reply sees a buffer that grows by a step
/// taken from the input, and must end (good or bad) or wait for more, never loop or overrun.
void fuzz_replies(const std::uint8_t* data, std::size_t size) {
    const char* base = reinterpret_cast<const char*>(data);
    std::size_t step = size > 0 ? 1 + data[0] % 97 : 1;
    mcscope::response_parser p(kCap);
    std::size_t start = 0;
    for (int reply = 0; start < size; ++reply) {
        p.reset(reply % 3 == 2 ? mcscope::response_parser::kind::line
                               : mcscope::response_parser::kind::retrieval);
        mcscope::parse_result r = mcscope::parse_result::indeterminate;
        std::size_t end = start;
        while (r == mcscope::parse_result::indeterminate && end < size) {
            end = std::min(size, end + step);
            r = p.parse(base + start, base + end);
        }
        std::size_t avail = end - start;
        if (r != mcscope::parse_result::good) {
            check(p.consumed() <= avail && p.consumed() <= kCap);
            return;  // bad: the connection is dropped; indeterminate: the input ran out
        }
        check(p.consumed() > 0 && p.consumed() <= avail);
        std::size_t blocks = 0;
        for (const mcscope::value_block& v : p.values()) {
            check(v.offset + v.length <= p.consumed());
            check(v.key_offset >= v.offset && v.key_offset + v.key_length <= v.offset + v.length);
            check(v.length >= 2 && base[start + v.offset + v.length - 1] == '\n');
            blocks += v.length;
        }
        check(blocks <= kCap && !(p.too_large()));
        start += p.consumed();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_replies(data, size);
    return 0;
}
