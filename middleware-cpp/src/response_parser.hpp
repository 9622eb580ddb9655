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

    /// Start a new reply of the given kind.
    void reset(kind k);

    /// Parse [begin, end), which always starts at the reply's first byte. good: the reply is
    /// complete (consumed() bytes); bad: the server broke the protocol (drop the connection).
    parse_result parse(const char* begin, const char* end);

    std::size_t consumed() const { return pos_; }
    const std::vector<value_block>& values() const { return values_; }
    /// True when the reply is an ERROR / CLIENT_ERROR / SERVER_ERROR line.
    bool error_line() const { return error_line_; }

private:
    static constexpr std::size_t kMaxReplyLine = 4096;

    kind kind_ = kind::line;
    std::size_t pos_ = 0;      ///< bytes of complete blocks parsed so far
    std::size_t scanned_ = 0;  ///< bytes after pos_ already searched for '\n'
    bool error_line_ = false;
    std::vector<value_block> values_;
};

}  // namespace mcscope
