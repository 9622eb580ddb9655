// One client connection, driven only by the network thread: read, parse, enqueue, ordered replies.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "request.hpp"
#include "request_parser.hpp"
#include "stats.hpp"
#include "work_queue.hpp"

namespace mcscope {

class connection_manager;

/// Network-thread state shared by all client connections.
struct net_context {
    work_queue& queue;
    stats& st;
    parser_limits limits;
    std::uint64_t queue_full_events = 0;
    /// Connections holding a request the full queue refused, resumed when a worker frees space.
    std::vector<std::weak_ptr<connection>> waiting;
    /// A worker wake-up is posted for the end of this event-loop round.
    bool wake_pending = false;
};

/// Replies leave in request order: every request takes a slot in order_ when parsed and is sent
/// only when all earlier slots are done. Lives as long as a handler or a worker holds it.
class connection : public std::enable_shared_from_this<connection> {
public:
    connection(boost::asio::ip::tcp::socket socket, connection_manager& manager, net_context& ctx);
    connection(const connection&) = delete;
    connection& operator=(const connection&) = delete;

    void start();
    /// Closes the socket; replies still arriving from workers are dropped.
    void stop();
    /// A worker finished r (posted to the network thread).
    void on_reply(request_ptr r);
    /// The work queue has room again: retry the refused request and resume parsing.
    void on_space();

private:
    /// A reply position: ready once its request came back (or was answered locally).
    struct slot {
        request_ptr req;
        bool ready = false;
    };

    void do_read();
    void process();
    bool can_parse() const;
    void dispatch(request_ptr r);
    bool try_dispatch_blocked();
    void request_wake();
    void complete_local(request_ptr r);
    void do_write();
    void on_written();
    void maybe_close();
    void linger();

    boost::asio::ip::tcp::socket socket_;
    connection_manager& manager_;
    net_context& ctx_;
    request_parser parser_;
    std::vector<char> buf_;
    std::size_t start_ = 0;  ///< first unparsed byte
    std::size_t end_ = 0;    ///< end of received bytes
    mono_ns last_read_ = 0;
    mono_ns pending_arrival_ = 0;  ///< arrival time of the request at start_

    std::deque<slot> order_;
    std::uint64_t base_seq_ = 0;  ///< seq of order_.front()
    std::uint64_t next_seq_ = 0;
    request_ptr spare_;    ///< parse target, reused while a request is incomplete
    request_ptr blocked_;  ///< waiting for queue space or for an earlier write to finish
    std::size_t inflight_ = 0;     ///< requests handed to workers, not yet back
    bool write_inflight_ = false;  ///< the request in flight is a set/delete
    std::vector<request_ptr> writing_;
    std::vector<boost::asio::const_buffer> write_bufs_;
    bool reading_ = false;
    bool eof_ = false;      ///< the client finished sending (or said quit)
    bool closed_ = false;
};

}  // namespace mcscope
