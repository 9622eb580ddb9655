// Flag parsing: every bad value gets a message naming the flag; no exceptions escape.
#include "config.hpp"

#include <charconv>
#include <limits>
#include <string_view>

#include "memory_budget.hpp"
#include "response_parser.hpp"
#include "stats.hpp"

namespace mcscope {
namespace {

template <typename Int>
bool to_int(std::string_view s, Int& out, Int lo, Int hi) {
    Int v{};
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty() || v < lo || v > hi) {
        return false;
    }
    out = v;
    return true;
}

bool parse_server(std::string_view s, server_address& out) {
    std::size_t colon = s.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
        return false;
    }
    out.host = std::string(s.substr(0, colon));
    return to_int<std::uint16_t>(s.substr(colon + 1), out.port, 1, 65535);
}

config_result fail(std::string msg) {
    config_result r;
    r.error = std::move(msg);
    return r;
}

/// Applies one numeric flag; returns an error message or "".
std::string numeric_flag(std::string_view flag, std::string_view value, config& c) {
    constexpr std::size_t kMaxWorkers = 1024;
    constexpr std::size_t kMaxQueue = 1 << 24;
    constexpr std::uint32_t kMaxMs = 3600 * 1000;
    constexpr std::uint32_t kMaxClientMs = 24 * 3600 * 1000;
    constexpr std::size_t kMaxConnections = 1 << 20;
    constexpr std::size_t kMinBuffered = std::size_t{1} << 20;
    bool ok = false;
    if (flag == "-p") {
        ok = to_int<std::uint16_t>(value, c.port, 1, 65535);
    } else if (flag == "-t") {
        ok = to_int<std::size_t>(value, c.workers, 1, kMaxWorkers);
    } else if (flag == "-r") {
        ok = to_int<std::size_t>(value, c.replication, 1, kMaxServers);
        c.replication_given = true;
    } else if (flag == "--window-ms") {
        ok = to_int<std::uint32_t>(value, c.window_ms, 1, kMaxMs);
    } else if (flag == "--sample-every") {
        ok = to_int<std::size_t>(value, c.sample_every, 1, std::numeric_limits<std::uint32_t>::max());
    } else if (flag == "--queue-capacity") {
        ok = to_int<std::size_t>(value, c.queue_capacity, 1, kMaxQueue);
    } else if (flag == "--server-timeout-ms") {
        ok = to_int<std::uint32_t>(value, c.server_timeout_ms, 1, kMaxMs);
    } else if (flag == "--max-connections") {
        ok = to_int<std::size_t>(value, c.max_connections, 1, kMaxConnections);
    } else if (flag == "--max-reply-bytes") {
        ok = to_int<std::size_t>(value, c.max_reply_bytes, response_parser::kMinMaxReply,
                                 response_parser::kMaxMaxReply);
    } else if (flag == "--client-idle-timeout-ms") {
        ok = to_int<std::uint32_t>(value, c.client_idle_timeout_ms, 0, kMaxClientMs);
    } else if (flag == "--client-write-timeout-ms") {
        ok = to_int<std::uint32_t>(value, c.client_write_timeout_ms, 0, kMaxClientMs);
    } else if (flag == "--max-buffered-bytes") {
        ok = to_int<std::size_t>(value, c.max_buffered_bytes, kMinBuffered,
                                 std::numeric_limits<std::size_t>::max() / 2);
    } else if (flag == "--client-body-timeout-ms") {
        ok = to_int<std::uint32_t>(value, c.client_body_timeout_ms, 0, kMaxClientMs);
    } else if (flag == "--client-memory-timeout-ms") {
        ok = to_int<std::uint32_t>(value, c.client_memory_timeout_ms, 0, kMaxClientMs);
    } else {
        return "unknown flag " + std::string(flag);
    }
    return ok ? "" : "bad value for " + std::string(flag) + ": '" + std::string(value) + "'";
}

}  // namespace

std::string usage() {
    return "usage: mcscope-middleware -l IP -p PORT -t WORKERS -s true|false -m HOST:PORT...\n"
           "                          [-r R] [--stats-dir DIR] [--window-ms 1000]\n"
           "                          [--sample-every 100] [--queue-capacity 1024]\n"
           "                          [--server-timeout-ms 2000] [--max-connections 16384]\n"
           "                          [--max-reply-bytes 16777216] [--client-idle-timeout-ms 600000]\n"
           "                          [--client-write-timeout-ms 30000]\n"
           "                          [--max-buffered-bytes N] [--client-body-timeout-ms 5000]\n"
           "                          [--client-memory-timeout-ms 5000]\n"
           "                          [--describe-stats] [--help]\n"
           "  -l IP                 listen address (default 127.0.0.1)\n"
           "  -p PORT               listen port (default 11212)\n"
           "  -t N                  worker threads (default 8)\n"
           "  -s true|false         shard multi-gets across servers (default false)\n"
           "  -m HOST:PORT...       memcached servers (one or more, at most 64)\n"
           "  -r R                  replicate sets/deletes to R servers from the key's primary;\n"
           "                        also routes gets by key hash (default: sets to all servers,\n"
           "                        gets to the least-loaded server)\n"
           "  --stats-dir DIR       write windows.jsonl, window_histograms.jsonl,\n"
           "                        histograms.json, requests.csv, summary.json into DIR\n"
           "  --window-ms N         stats window length in ms (default 1000)\n"
           "  --sample-every N      log every Nth request to requests.csv (default 100)\n"
           "  --queue-capacity N    work queue bound; when full, clients stop being read\n"
           "  --server-timeout-ms N memcached reply timeout before SERVER_ERROR (default 2000)\n"
           "  --max-connections N   clients served at once; more wait in the listen backlog\n"
           "                        (default 16384)\n"
           "  --max-reply-bytes N   largest server reply (all VALUE blocks of one get); a larger\n"
           "                        one is answered SERVER_ERROR (default 16777216 = 16 MiB)\n"
           "  --client-idle-timeout-ms N  close a client that sent nothing and awaits no reply\n"
           "                        for N ms (default 600000; 0: never)\n"
           "  --client-write-timeout-ms N close a client whose replies could not be written\n"
           "                        for N ms because it does not read (default 30000; 0: never)\n"
           "  --max-buffered-bytes N  bytes buffered for all clients at most (requests, replies,\n"
           "                        read buffers; at least 1 MiB); a client over its share\n"
           "                        (N / clients) is not read until it drains; past N by at\n"
           "                        most one reply and the read bytes per client (default:\n"
           "                        a sixteenth of physical memory, 64 MiB .. 1 GiB)\n"
           "  --client-body-timeout-ms N  a set's value must arrive within N ms of its command\n"
           "                        line, else SERVER_ERROR and close (default 5000; 0: never)\n"
           "  --client-memory-timeout-ms N close a client that holds more than its share of\n"
           "                        --max-buffered-bytes for N ms (default 5000; 0: never)\n"
           "  --describe-stats      print the per-type window metrics and exit\n";
}

config_result parse_args(int argc, const char* const* argv) {
    config_result r;
    config& c = r.cfg;
    for (int i = 1; i < argc; ++i) {
        std::string_view flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            r.help = true;
            return r;
        }
        if (flag == "--describe-stats") {
            r.describe_stats = true;
            return r;
        }
        if (i + 1 >= argc) {
            return fail("missing value after " + std::string(flag));
        }
        std::string_view value = argv[++i];
        if (flag == "-l") {
            c.listen_ip = std::string(value);
        } else if (flag == "-s") {
            if (value != "true" && value != "false") {
                return fail("bad value for -s: '" + std::string(value) + "' (use true or false)");
            }
            c.sharded = value == "true";
        } else if (flag == "--stats-dir") {
            c.stats_dir = std::string(value);
        } else if (flag == "-m") {
            // -m takes every following argument up to the next flag.
            for (--i; i + 1 < argc && argv[i + 1][0] != '-'; ++i) {
                server_address a;
                if (!parse_server(argv[i + 1], a)) {
                    return fail("bad server for -m: '" + std::string(argv[i + 1]) +
                                "' (use host:port)");
                }
                c.servers.push_back(a);
            }
        } else if (std::string err = numeric_flag(flag, value, c); !err.empty()) {
            return fail(err);
        }
    }
    if (c.servers.empty()) {
        return fail("at least one memcached server is required (-m host:port)");
    }
    if (c.servers.size() > kMaxServers) {
        return fail("too many servers for -m (at most " + std::to_string(kMaxServers) + ")");
    }
    if (c.replication_given && c.replication > c.servers.size()) {
        return fail("-r " + std::to_string(c.replication) + " exceeds the number of servers (" +
                    std::to_string(c.servers.size()) + ")");
    }
    if (!c.replication_given) {
        c.replication = c.servers.size();
    }
    if (c.max_buffered_bytes == 0) {
        c.max_buffered_bytes = default_buffer_cap();
    }
    r.ok = true;
    return r;
}

}  // namespace mcscope
