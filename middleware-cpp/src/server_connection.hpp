// A worker's connection to one memcached server: blocking I/O with deadlines, reconnect backoff.
#pragma once

#include <sys/uio.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "clock.hpp"
#include "response_parser.hpp"
#include "server_pool.hpp"

namespace mcscope {

/// Owned by one worker thread; never shared. Sockets are non-blocking and waited on with poll()
/// so a hung or dead server costs at most the timeout, and a worker is never stuck.
class server_connection {
public:
    /// max_reply: the cap on one reply (--max-reply-bytes); a larger one fails the request.
    server_connection(boost::asio::io_context& ctx, server_address addr, mono_ns timeout_ns,
                      std::size_t max_reply = response_parser::kDefaultMaxReply);
    server_connection(const server_connection&) = delete;
    server_connection& operator=(const server_connection&) = delete;

    /// Connects if needed. False while in reconnect backoff or when connecting fails.
    bool ensure_connected();
    /// True when the socket was opened before the current request (it may have gone stale).
    bool reused() const { return reused_; }
    /// Writes all of data before the deadline. data may hold several pipelined requests; it is
    /// only sent when every earlier reply has been read.
    bool send(std::string_view data, mono_ns deadline);
    /// The same for pipelined requests sent straight from their own buffers (one gathered
    /// send, no copy into a staging string). Consumes iov.
    bool send(std::span<iovec> iov, mono_ns deadline);
    /// Reads one complete reply of kind k; reply() and parser() describe it afterwards. more:
    /// further replies were requested (pipelining), so bytes after this reply are kept for the
    /// next call instead of meaning the stream is out of step.
    bool read_reply(response_parser::kind k, mono_ns deadline, bool more = false);
    std::string_view reply() const { return std::string_view(buf_.data() + head_, reply_len_); }
    const response_parser& parser() const { return parser_; }
    /// Bytes of the current reply received so far (0: the server never answered).
    std::size_t received() const { return len_ - head_; }

    /// Drops the connection and schedules a reconnect with exponential backoff (none when the
    /// server did nothing wrong, e.g. a reply over the cap).
    void fail(const char* why, bool backoff = true);
    /// "SERVER_ERROR ...\r\n" describing the last failure.
    std::string error_line() const;

private:
    bool wait(short events, mono_ns deadline);
    void make_room();

    boost::asio::ip::tcp::socket socket_;
    server_address addr_;
    std::vector<boost::asio::ip::tcp::endpoint> endpoints_;
    mono_ns timeout_ns_;
    mono_ns retry_at_ = 0;
    mono_ns backoff_ns_ = 0;
    bool reused_ = false;
    std::string last_error_ = "not connected";
    std::vector<char> buf_;
    std::size_t head_ = 0;       ///< start of the current reply in buf_
    std::size_t len_ = 0;        ///< end of received bytes (the current reply, then later ones)
    std::size_t reply_len_ = 0;  ///< length of the current reply, once complete
    response_parser parser_;
};

}  // namespace mcscope
