// Worker thread: takes batches of requests off the queue, talks to memcached, hands replies back.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <cstdint>
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

/// Receives a batch of finished requests (moved out of the vector) on the worker's thread; the
/// server's sink writes each reply to its client when it is next in order.
using reply_sink = std::function<void(std::vector<request_ptr>&)>;

/// One worker: owns one connection to every server (created lazily, never shared).
class worker {
public:
    /// Most requests taken off the queue at once, and most request bytes in one batch (so the
    /// pipelined requests always fit in the socket buffers: a blocking send cannot deadlock).
    static constexpr std::size_t kMaxBatch = 16;
    static constexpr std::size_t kMaxBatchBytes = 32 * 1024;

    worker(const config& cfg, server_pool& pool, work_queue& queue, reply_sink sink);
    worker(const worker&) = delete;
    worker& operator=(const worker&) = delete;

    /// Thread body: serve batches until the queue is stopped.
    void run();
    /// Serve one request on its own (fills reply, misses, servers, times); exposed for tests.
    void handle(request& r);
    /// Serve a batch: all requests are sent first (one write per server connection, pipelined),
    /// then the replies are read in order. Each request keeps its own timestamps.
    void handle_batch(std::vector<request_ptr>& batch);

private:
    /// One server's part of a fan-out: what to send and how its reply went.
    struct leg {
        std::size_t server = 0;
        std::string_view data;  ///< the request's own bytes, own, or a literal
        std::string own;        ///< bytes built for this leg (shard keys, noreply stripped)
        bool ok = false;
        bool reused = false;
    };
    /// A request with its legs: planned, sent, then finished from the replies.
    struct job {
        request* r = nullptr;
        std::vector<leg> legs;
        response_parser::kind kind = response_parser::kind::line;
        std::vector<std::uint16_t> shard_of_key;  ///< sharded multi-get only
        bool redo = false;  ///< a stale connection failed it: serve it again on its own
    };
    /// A server connection's state during a batch.
    struct server_state {
        std::size_t left = 0;  ///< replies still to read
        bool ok = true;
        bool reused = false;
        bool first = true;  ///< no reply read yet in this batch
        bool stale = false;  ///< failed as a stale connection: its requests are retried alone
    };

    void plan(job& j);
    void finish(job& j);
    void finish_sharded(job& j);
    /// Sends every leg, then reads every reply (servers work in parallel); retries a leg once
    /// on a fresh connection when a reused one turns out stale.
    void fan_out(request& r, std::vector<leg>& legs, response_parser::kind k);
    bool exchange(leg& l, response_parser::kind k, mono_ns deadline);
    void send_batch(std::size_t n, mono_ns deadline);
    void read_job(job& j, mono_ns deadline);
    /// False (and r deferred) when a get's reply of n bytes does not fit the memory cap.
    bool admit(request& r, std::size_t n);
    /// True (and r deferred) when r's client's last refused reply still would not fit.
    bool defer_early(request& r);
    void defer(request& r, std::size_t n);
    /// r's reply becomes reply (charged to its client) unless admit refuses it.
    void set_reply(request& r, std::string_view reply);

    const config& cfg_;
    server_pool& pool_;
    work_queue& queue_;
    reply_sink sink_;
    boost::asio::io_context io_;  ///< only for constructing sockets; no async work runs here
    std::vector<std::unique_ptr<server_connection>> conns_;
    std::size_t rr_ = 0;  ///< round-robin cursor for least-loaded ties
    std::vector<job> jobs_;  ///< reused across batches (no allocation per request)
    job single_;             ///< a request served on its own (kept apart from jobs_)
    std::vector<std::vector<iovec>> out_;  ///< pipelined legs per server (views), reused
    std::vector<server_state> state_;
    std::vector<std::string_view> keys_;
    std::vector<std::string_view> views_;  ///< replica reply lines of a set/delete, reused
    std::vector<std::string> errors_;      ///< failed replicas' error lines, reused
};

}  // namespace mcscope
