// One client connection: the network thread reads, parses and enqueues; replies leave in request
// order, written by whichever thread completes the request that is next in line.
#pragma once

#include <sys/uio.h>

#include <boost/asio/ip/tcp.hpp>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "memory_budget.hpp"
#include "request.hpp"
#include "request_parser.hpp"
#include "stats.hpp"
#include "work_queue.hpp"

namespace mcscope {

class connection_manager;

/// Network-thread state shared by all client connections.
struct net_context {
    work_queue& queue;
    stats& st;  ///< the network thread's stats shard (local replies, writes it finishes)
    memory_budget& budget;  ///< bytes buffered for all clients (--max-buffered-bytes)
    parser_limits limits;
    std::uint64_t queue_full_events = 0;
    std::uint64_t parsed = 0;  ///< requests parsed so far (their ids)
    /// Connections holding a request the full queue refused, resumed when a worker frees space.
    std::vector<std::weak_ptr<connection>> waiting;
    /// A worker wake-up is posted for the end of this event-loop round.
    bool wake_pending = false;
};

/// Replies leave in request order: every request takes a slot in order_ when parsed and is sent
/// only when all earlier slots are done. A worker that completes the next slot writes the reply
/// itself with one non-blocking send (no hand-off back to the network thread, which would cost a
/// wake-up per batch); the network thread takes over only what cannot finish at once (a full
/// socket buffer, a close) or when it is waiting on the completion (paused reads, a blocked
/// write, end of input). mu_ guards exactly the state both sides touch (see "shared" below).
/// Lives as long as a handler or a worker holds it.
class connection : public std::enable_shared_from_this<connection> {
public:
    connection(boost::asio::ip::tcp::socket socket, connection_manager& manager, net_context& ctx);
    connection(const connection&) = delete;
    connection& operator=(const connection&) = delete;

    void start();
    /// Closes the socket; replies still arriving from workers are dropped. Network thread.
    void stop();
    /// A worker finished r (r->conn points here); st is that worker's stats shard. Any thread.
    static void complete(request_ptr r, stats& st);
    /// The work queue has room again: retry the refused request and resume parsing.
    void on_space();
    /// Client timeouts in ns; 0 disables a rule.
    struct timeouts {
        mono_ns idle = 0;    ///< sent nothing and awaited no reply
        mono_ns write = 0;   ///< a write of its replies has not finished (it does not read)
        mono_ns body = 0;    ///< a set's value incomplete since its command line arrived
        mono_ns memory = 0;  ///< held more than its share of the memory cap
    };
    /// Network thread, from the periodic sweep: true when the client should be closed (idle,
    /// write or memory timeout). A body timeout is answered here (SERVER_ERROR, then close once
    /// earlier replies are out); a client paused for memory is retried.
    bool sweep(mono_ns now, const timeouts& t);

private:
    /// A reply position: ready once its request came back (or was answered locally).
    struct slot {
        request_ptr req;
        bool ready = false;
    };
    /// What flush_locked leaves for the network thread.
    enum class flushed { done, net, async, failed, close };

    void do_read();
    void process();
    bool can_parse();
    void dispatch(request_ptr r);
    bool try_dispatch_blocked();
    void request_wake();
    void complete_local(request_ptr r);
    void finish(request_ptr r, stats& st);
    flushed flush_locked(stats& st, bool on_net);
    void after_flush(flushed f, bool on_net);
    void resume();
    void retry_deferred();
    void body_timeout(mono_ns now);
    void release_buffer();
    void continue_write();
    void on_written();
    void maybe_close();
    void linger();
    /// Under mu_: moves the requests of a completed write into free_ (or frees them).
    void recycle_written_locked();

    boost::asio::ip::tcp::socket socket_;
    connection_manager& manager_;
    net_context& ctx_;
    int fd_ = -1;  ///< socket_'s descriptor, for workers' sends (valid while !closed_)
    /// This client's buffered bytes. Declared before every member holding a request or buffer:
    /// they are released into it when destroyed.
    memory_account acct_;

    // Network thread only.
    request_parser parser_;
    std::vector<char> buf_;
    memory_charge buf_mem_;  ///< buf_'s size
    std::size_t start_ = 0;  ///< first unparsed byte
    std::size_t end_ = 0;    ///< end of received bytes
    mono_ns last_read_ = 0;
    mono_ns busy_seen_ = 0;  ///< last sweep that found requests or a write outstanding
    mono_ns pending_arrival_ = 0;  ///< arrival time of the request at start_
    std::uint64_t next_seq_ = 0;
    request_ptr spare_;    ///< parse target, reused while a request is incomplete
    request_ptr blocked_;  ///< waiting for queue space or for an earlier write to finish
    bool reading_ = false;
    bool eof_ = false;  ///< the client finished sending (or said quit)
    bool lingering_ = false;  ///< the last reply is out; draining input until the client closes
    bool mem_paused_ = false;   ///< not read because it holds more than its share of the cap
    mono_ns mem_since_ = 0;     ///< since when it is paused or has deferred gets (0: it is not)
    std::uint64_t writes_seen_ = 0;  ///< writes_ at the last sweep

    // Shared: guarded by mu_ (closed_ is written by the network thread under mu_).
    std::mutex mu_;
    std::deque<slot> order_;
    std::uint64_t base_seq_ = 0;   ///< seq of order_.front()
    std::size_t inflight_ = 0;     ///< requests handed to workers, not yet back
    bool write_inflight_ = false;  ///< the request in flight is a set/delete
    bool writing_ = false;         ///< the network thread owns an unfinished write
    mono_ns write_since_ = 0;      ///< when writing_ was set
    std::vector<request_ptr> written_;  ///< the replies of the write in progress
    std::size_t written_offset_ = 0;    ///< bytes of them already sent
    std::vector<iovec> iov_;
    /// Written requests kept for the parser to reuse (request::reset keeps their buffers), so
    /// a request costs no allocation: a closed-loop client cycles through two of them.
    std::vector<request_ptr> free_;
    /// Gets whose reply a worker dropped for the memory cap (still counted in inflight_, so
    /// a later set waits for them); sent again by the network thread once the client drained.
    std::vector<request_ptr> deferred_;
    /// !deferred_.empty(), written under mu_; read without it so parsing pays no extra lock.
    std::atomic<bool> has_deferred_{false};
    std::uint64_t writes_ = 0;  ///< replies written so far (progress, for the memory timeout)
    bool wake_net_ = false;  ///< the network thread waits for a completion: post resume()
    bool closed_ = false;
};

}  // namespace mcscope
