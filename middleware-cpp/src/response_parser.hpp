// Resumable parser for memcached replies read by a worker from its server connection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "request_parser.hpp"

namespace mcscope {

/// One "VALUE key flags bytes\r\n<data>\r\n" block as offsets into the reply buffer.
struct value_block {
    std::uint32_t offset = 0;  ///< start of the VALUE line
    std::uint32_t length = 0;  ///< whole block including the data's trailing "\r\n"
    std::uint32_t key_offset = 0;
    std::uint32_t key_length = 0;
};

/// Parses one reply from the start of a buffer that grows across reads; the scan resumes where the
/// previous call stopped, so a 4096 B value split over many reads is not rescanned.
class response_parser {
public:
    /// retrieval: VALUE blocks then END (get); line: a single reply line (set/delete/version).
    enum class kind { retrieval, line };
    /// Largest reply line (a VALUE header, END, an error line) before it is a protocol error.
    static constexpr std::size_t kMaxReplyLine = 4096;
    /// Default and bounds of the cap on one whole reply (--max-reply-bytes); block offsets are
    /// 32-bit, so the cap stays well below 4 GiB.
    static constexpr std::size_t kDefaultMaxReply = std::size_t{16} << 20;
    static constexpr std::size_t kMinMaxReply = 1024;
    static constexpr std::size_t kMaxMaxReply = std::size_t{1} << 30;

    explicit response_parser(std::size_t max_reply = kDefaultMaxReply) : max_reply_(max_reply) {}

    /// Start a new reply of the given kind.
    void reset(kind k);

    /// Parse [begin, end), which always starts at the reply's first byte. good: the reply is
    /// complete (consumed() bytes); bad: the server broke the protocol, or the reply exceeds
    /// the cap (too_large()); either way the connection is out of step and must be dropped.
    /// Never reads past end, never loops, and no length arithmetic can wrap.
    parse_result parse(const char* begin, const char* end);

    std::size_t consumed() const { return pos_; }
    const std::vector<value_block>& values() const { return values_; }
    /// True when the reply is an ERROR / CLIENT_ERROR / SERVER_ERROR line.
    bool error_line() const { return error_line_; }
    /// After bad: the reply announced more than the cap (not a malformed one).
    bool too_large() const { return too_large_; }
    std::size_t max_reply() const { return max_reply_; }

private:
    std::size_t max_reply_;

    kind kind_ = kind::line;
    std::size_t pos_ = 0;      ///< bytes of complete blocks parsed so far
    std::size_t scanned_ = 0;  ///< bytes after pos_ already searched for '\n'
    bool error_line_ = false;
    bool too_large_ = false;
    std::vector<value_block> values_;
};

}  // namespace mcscope
