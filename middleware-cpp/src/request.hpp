// One client request as it travels net thread -> work queue -> worker -> net thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "clock.hpp"
#include "memory_budget.hpp"

namespace mcscope {

class connection;

/// Statistics class of a request (the contract's "types").
enum class request_type : std::uint8_t { get = 0, multiget = 1, set = 2, other = 3 };
constexpr std::size_t kRequestTypeCount = 4;

/// What the request asks for; local_reply means the net thread answers it (errors).
enum class command : std::uint8_t { get, set, del, version, quit, local_reply };

/// A key as an (offset, length) slice of request::raw, so keys are never copied.
struct key_ref {
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
};

/// Per-request timestamps (monotonic ns); 0 means "did not happen".
struct request_times {
    mono_ns arrival = 0;
    mono_ns enqueue = 0;
    mono_ns dequeue = 0;
    mono_ns sent = 0;
    mono_ns replied = 0;
    mono_ns written = 0;
};

/// A parsed request, its reply, and its measurements.
struct request {
    command cmd = command::local_reply;
    request_type type = request_type::other;
    bool noreply = false;
    std::string raw;            ///< exact request bytes (command line + data block)
    std::vector<key_ref> keys;  ///< keys, in request order, as slices of raw
    std::uint32_t line_length = 0;  ///< length of the command line including its newline
    std::uint32_t value_length = 0;  ///< announced data length of a set
    std::uint32_t noreply_offset = 0;  ///< offset of the space before "noreply" in raw, 0 if absent

    std::string reply;       ///< bytes to write back to the client (may be empty for noreply)
    std::uint32_t misses = 0;   ///< keys not found
    std::uint16_t servers = 0;  ///< memcached servers touched
    std::uint64_t server_mask = 0;  ///< bit s set when server s was sent a request
    bool error = false;         ///< reply is ERROR / CLIENT_ERROR / SERVER_ERROR
    bool close_after = false;   ///< close the client connection after this reply

    std::uint64_t seq = 0;  ///< position in the client connection's reply order
    std::uint64_t id = 0;   ///< parse order in the process (1, 2, ...): picks every Nth sample
    std::shared_ptr<connection> conn;
    request_times t;
    /// raw and reply as charged to the client's memory account. Declared after conn so they are
    /// released before a last reference to the connection (which owns the account) goes.
    memory_charge raw_mem;
    memory_charge reply_mem;
    /// A worker dropped this get's reply (retry_bytes long) because the memory cap was reached;
    /// the connection sends it again once its client drained its buffered replies.
    bool deferred = false;
    std::size_t retry_bytes = 0;

    /// Back to a fresh request, keeping the capacity of raw, keys and reply: a connection
    /// reuses written requests, so a request costs no allocation once its buffers fit.
    void reset() {
        std::string raw_buf = std::move(raw);
        std::vector<key_ref> key_buf = std::move(keys);
        std::string reply_buf = std::move(reply);
        *this = request{};
        raw_buf.clear();
        key_buf.clear();
        reply_buf.clear();
        raw = std::move(raw_buf);
        keys = std::move(key_buf);
        reply = std::move(reply_buf);
    }

    /// Key i as a view into raw.
    std::string_view key(std::size_t i) const {
        return std::string_view(raw).substr(keys[i].offset, keys[i].length);
    }
};

using request_ptr = std::unique_ptr<request>;

/// True when a reply line is one of memcached's error lines.
inline bool is_error_reply(std::string_view reply) {
    return reply.starts_with("ERROR") || reply.starts_with("CLIENT_ERROR") ||
           reply.starts_with("SERVER_ERROR");
}

}  // namespace mcscope
