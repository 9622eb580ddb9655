// Command-line configuration of the middleware and its validation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "server_pool.hpp"

namespace mcscope {

/// Everything the flags control (see usage()).
struct config {
    std::string listen_ip = "127.0.0.1";
    std::uint16_t port = 11212;
    std::size_t workers = 8;
    bool sharded = false;
    std::vector<server_address> servers;
    std::size_t replication = 0;     ///< replicas per set/delete; all servers when -r is absent
    bool replication_given = false;  ///< -r given: gets route by key hash
    std::string stats_dir;           ///< empty: no stats files
    std::uint32_t window_ms = 1000;
    std::size_t sample_every = 100;
    std::size_t queue_capacity = 1024;
    std::uint32_t server_timeout_ms = 2000;  ///< a server reply slower than this is a failure
    std::size_t max_connections = 16384;     ///< further clients wait in the listen backlog
    std::size_t max_reply_bytes = std::size_t{16} << 20;  ///< one server reply; SERVER_ERROR beyond
    std::uint32_t client_idle_timeout_ms = 600'000;  ///< close a client silent this long (0: never)
    std::uint32_t client_write_timeout_ms = 30'000;  ///< close a client not reading its replies
    /// Bytes buffered for all clients at most (requests, replies, read buffers; the exact bound
    /// past it is memory_account's); 0: the default, default_buffer_cap().
    std::size_t max_buffered_bytes = 0;
    std::uint32_t client_body_timeout_ms = 5'000;  ///< a set's value must arrive within this
    /// close a client that holds more than its share of the cap this long (0: never)
    std::uint32_t client_memory_timeout_ms = 5'000;
};

/// Result of parsing argv: either a config, a help/describe request, or an error message.
struct config_result {
    bool ok = false;
    bool help = false;
    bool describe_stats = false;
    std::string error;
    config cfg;
};

/// Parses "-l ip -p port -t workers -s true|false -m host:port... [-r R] [--stats-dir DIR]
/// [--window-ms N] [--sample-every N] [--queue-capacity N] [--server-timeout-ms N]
/// [--max-connections N] [--max-reply-bytes N] [--client-idle-timeout-ms N]
/// [--client-write-timeout-ms N] [--max-buffered-bytes N] [--client-body-timeout-ms N]
/// [--client-memory-timeout-ms N]". max_buffered_bytes is resolved (never 0) in a good result.
config_result parse_args(int argc, const char* const* argv);

/// Help text for --help and flag errors.
std::string usage();

}  // namespace mcscope
