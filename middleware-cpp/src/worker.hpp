// Worker thread: takes requests off the queue, talks to memcached, hands replies back.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"
#include "request.hpp"
#include "server_connection.hpp"
#include "server_pool.hpp"
#include "work_queue.hpp"

namespace mcscope {

/// Receives finished requests; the server posts them to the network thread.
using reply_sink = std::function<void(request_ptr)>;

/// One worker: owns one connection to every server (created lazily, never shared).
class worker {
public:
    worker(const config& cfg, server_pool& pool, work_queue& queue, reply_sink sink);
    worker(const worker&) = delete;
    worker& operator=(const worker&) = delete;

    /// Thread body: serve requests until the queue is stopped.
    void run();
    /// Serve one request (fills reply, misses, servers, times); exposed for tests.
    void handle(request& r);

private:
    /// One server's part of a fan-out: what to send and how its reply went.
    struct leg {
        std::size_t server = 0;
        std::string data;
        bool ok = false;
        bool reused = false;
    };

    void do_get(request& r);
    void do_sharded_multiget(request& r);
    void do_replicated(request& r, std::string_view success);
    void do_version(request& r);
    /// Sends every leg, then reads every reply (servers work in parallel); retries a leg once
    /// on a fresh connection when a reused one turns out stale.
    void fan_out(request& r, std::vector<leg>& legs, response_parser::kind k);
    bool exchange(leg& l, response_parser::kind k, mono_ns deadline);
    void set_reply(request& r, std::string reply);

    const config& cfg_;
    server_pool& pool_;
    work_queue& queue_;
    reply_sink sink_;
    boost::asio::io_context io_;  ///< only for constructing sockets; no async work runs here
    std::vector<std::unique_ptr<server_connection>> conns_;
    std::size_t rr_ = 0;  ///< round-robin cursor for least-loaded ties
    std::vector<leg> legs_;
    std::vector<std::string_view> keys_;
};

}  // namespace mcscope
