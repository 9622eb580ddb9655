// libFuzzer target: the client request parser on arbitrary bytes, split like a connection's reads.
// Also compiled into the unit tests (as mcscope_fuzz_requests) to replay fuzz/corpus/request.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "request_parser.hpp"

namespace {

void check(bool ok) {
    if (!ok) {
        std::abort();  // an invariant broke: libFuzzer records the input
    }
}

/// Feeds data in chunks whose sizes come from the first bytes, like a connection's reads.
void fuzz_requests(const std::uint8_t* data, std::size_t size) {
    mcscope::parser_limits limits;
    limits.max_line = 512;  // small limits reach the overflow paths with short inputs
    limits.max_value = 4096;
    mcscope::request_parser parser(limits);
    std::string buf;
    std::size_t pos = 0;
    std::size_t step = size > 0 ? 1 + data[0] % 64 : 1;
    while (pos < size) {
        std::size_t n = std::min(step, size - pos);
        buf.append(reinterpret_cast<const char*>(data) + pos, n);
        pos += n;
        for (;;) {
            mcscope::request req;
            mcscope::parse_outcome out = parser.parse(buf.data(), buf.data() + buf.size(), req);
            check(out.consumed <= buf.size());
            buf.erase(0, out.consumed);
            if (out.result == mcscope::parse_result::indeterminate) {
                break;
            }
            for (std::size_t i = 0; i < req.keys.size(); ++i) {
                check(req.keys[i].offset + req.keys[i].length <= req.raw.size());
                check(req.keys[i].length > 0 && req.keys[i].length <= limits.max_key);
            }
            check(req.cmd != mcscope::command::local_reply || !req.reply.empty());
            if (req.cmd == mcscope::command::set) {
                check(req.raw.size() == req.line_length + req.value_length + 2);
                check(mcscope::forward_bytes(req).size() <= req.raw.size());
            }
            if (out.result == mcscope::parse_result::bad) {
                return;
            }
        }
        check(buf.size() <= limits.max_line + limits.max_value + 2);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_requests(data, size);
    return 0;
}
