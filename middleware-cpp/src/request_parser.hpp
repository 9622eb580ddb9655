// Resumable parser for memcached text-protocol requests arriving as a fragmented byte stream.
#pragma once

#include <cstddef>
#include <cstdint>

#include "request.hpp"

namespace mcscope {

/// Limits that bound memory per connection and mirror memcached's defaults.
struct parser_limits {
    std::size_t max_line = 8192;           ///< longest command line accepted (bytes, with newline)
    std::size_t max_key = 250;             ///< memcached's KEY_MAX_LENGTH
    std::size_t max_value = 1024 * 1024;   ///< memcached's default item size limit
};

/// good: a request is complete; bad: the stream cannot be resynchronised (close after reply);
/// indeterminate: more bytes are needed.
enum class parse_result { good, bad, indeterminate };

/// Parse outcome: result plus the number of input bytes the caller must drop.
struct parse_outcome {
    parse_result result;
    std::size_t consumed;
};

/// Splits a client byte stream into requests. State survives across calls so a request split over
/// many reads is scanned only once; the caller passes the unconsumed bytes again plus new ones.
class request_parser {
public:
    explicit request_parser(parser_limits limits = {}) : limits_(limits) {}

    /// Parse at most one request from [begin, end). On good, req holds a forwardable request or a
    /// local reply (cmd == local_reply); consumed bytes belong to it (and to any swallowed data).
    /// On indeterminate, consumed bytes (swallowed data) may still be > 0.
    parse_outcome parse(const char* begin, const char* end, request& req);

    /// Forget any partial request (used when a connection is reset).
    void reset();
    /// A set's command line was parsed and its value is not complete yet.
    bool awaiting_value() const { return state_ == state::data; }

private:
    enum class state { line, data, swallow };

    parse_outcome parse_line(const char* begin, const char* end, request& req);
    parse_outcome parse_data(const char* begin, const char* end, request& req);
    parse_outcome finish_line(const char* begin, std::size_t line_len, request& req);
    parse_outcome parse_get(const char* begin, std::size_t line_len, request& req);
    parse_outcome parse_set(const char* begin, std::size_t line_len, request& req);
    parse_outcome parse_delete(const char* begin, std::size_t line_len, request& req);
    parse_outcome local_reply(request& req, const char* text, std::size_t consumed);

    parser_limits limits_;
    state state_ = state::line;
    std::size_t scanned_ = 0;       ///< bytes of the current line already searched for '\n'
    std::size_t line_len_ = 0;      ///< set: length of the command line (with newline)
    std::size_t need_ = 0;          ///< set: total bytes of line + data + "\r\n"
    std::size_t swallow_left_ = 0;  ///< bytes of a rejected value still to discard
    std::uint32_t value_len_ = 0;
    std::uint32_t key_off_ = 0;
    std::uint32_t key_len_ = 0;
    std::uint32_t noreply_off_ = 0;  ///< offset of the " noreply" token, 0 when absent
    bool noreply_ = false;
};

/// Bytes to send to memcached for req: raw, minus a noreply token (the middleware needs the reply
/// to decide the outcome even when the client asked for none).
std::string forward_bytes(const request& req);

}  // namespace mcscope
