// Server connection I/O: non-blocking asio socket calls plus poll() for deadlines.
#include "server_connection.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>

#include <climits>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/socket_base.hpp>

#include "iov.hpp"
#include "log.hpp"

namespace mcscope {
namespace {

constexpr mono_ns kBackoffMinNs = 10'000'000;     // 10 ms
constexpr mono_ns kBackoffMaxNs = 1'000'000'000;  // 1 s
constexpr std::size_t kServerReadChunk = 16 * 1024;

}  // namespace

namespace asio = boost::asio;
using asio::ip::tcp;

server_connection::server_connection(asio::io_context& ctx, server_address addr,
                                     mono_ns timeout_ns, std::size_t max_reply)
    : socket_(ctx),
      addr_(std::move(addr)),
      timeout_ns_(timeout_ns),
      buf_(kServerReadChunk),
      parser_(max_reply) {
    boost::system::error_code ec;
    tcp::resolver resolver(ctx);
    auto results = resolver.resolve(addr_.host, std::to_string(addr_.port), ec);
    for (const auto& entry : results) {
        endpoints_.push_back(entry.endpoint());
    }
    if (ec || endpoints_.empty()) {
        last_error_ = "cannot resolve " + addr_.str();
    }
}

bool server_connection::wait(short events, mono_ns deadline) {
    pollfd p{socket_.native_handle(), events, 0};
    for (;;) {
        mono_ns left = deadline - now_ns();
        if (left <= 0) {
            return false;
        }
        int ms = static_cast<int>((left + kNsPerMs - 1) / kNsPerMs);
        int n = ::poll(&p, 1, ms);
        if (n > 0) {
            return true;
        }
        if (n < 0 && errno != EINTR) {
            return false;
        }
    }
}

bool server_connection::ensure_connected() {
    if (socket_.is_open()) {
        reused_ = true;
        return true;
    }
    reused_ = false;
    mono_ns now = now_ns();
    if (now < retry_at_ || endpoints_.empty()) {
        return false;
    }
    boost::system::error_code ec;
    for (const tcp::endpoint& ep : endpoints_) {
        socket_.open(ep.protocol(), ec);
        socket_.non_blocking(true, ec);
        socket_.set_option(tcp::no_delay(true), ec);
        socket_.connect(ep, ec);
        if (ec == asio::error::in_progress || ec == asio::error::would_block) {
            int err = 0;
            socklen_t len = sizeof err;
            if (!wait(POLLOUT, now + timeout_ns_)) {
                err = ETIMEDOUT;
            } else {
                ::getsockopt(socket_.native_handle(), SOL_SOCKET, SO_ERROR, &err, &len);
            }
            ec = boost::system::error_code(err, boost::system::system_category());
        }
        if (!ec) {
            // From here on: blocking I/O with kernel timeouts, one syscall per send or receive
            // (polling first would double the syscalls on the hot path).
            timeval tv{static_cast<time_t>(timeout_ns_ / 1'000'000'000),
                       static_cast<suseconds_t>((timeout_ns_ % 1'000'000'000) / 1000)};
            socket_.non_blocking(false, ec);
            ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
            backoff_ns_ = 0;
            LOG_DEBUG("connected to %s", addr_.str().c_str());
            return true;
        }
        socket_.close(ec);
    }
    fail("connect failed");
    return false;
}

bool server_connection::send(std::string_view data, mono_ns deadline) {
    iovec one{const_cast<char*>(data.data()), data.size()};  // sendmsg never writes through it
    return send(std::span<iovec>(&one, 1), deadline);
}

bool server_connection::send(std::span<iovec> iov, mono_ns deadline) {
    len_ = head_ = reply_len_ = 0;  // every earlier reply was read: nothing here is needed
    std::size_t first = 0;          // iov[first..] is still to send
    while (first < iov.size()) {
        msghdr msg{};
        msg.msg_iov = iov.data() + first;
        msg.msg_iovlen = std::min<std::size_t>(iov.size() - first, IOV_MAX);
        ssize_t n = ::sendmsg(socket_.native_handle(), &msg, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            fail(errno == EAGAIN || errno == EWOULDBLOCK ? "send timeout" : "send failed");
            return false;
        }
        first += advance_iov(iov.subspan(first), static_cast<std::size_t>(n));
        if (first < iov.size() && now_ns() > deadline) {
            fail("send timeout");
            return false;
        }
    }
    return true;
}

bool server_connection::read_reply(response_parser::kind k, mono_ns deadline, bool more) {
    parser_.reset(k);
    // Step past the previous reply; what already arrived of later pipelined replies stays.
    head_ += reply_len_;
    reply_len_ = 0;
    if (head_ >= len_) {
        head_ = len_ = 0;
    }
    for (;;) {
        if (len_ > head_) {
            parse_result res = parser_.parse(buf_.data() + head_, buf_.data() + len_);
            if (res == parse_result::good) {
                reply_len_ = parser_.consumed();
                if (head_ + reply_len_ != len_ && !more) {
                    fail("unexpected bytes after reply");  // desynchronised: reconnect later
                }
                return true;
            }
            if (res == parse_result::bad) {
                // The rest of the reply is not read: the stream is out of step either way.
                if (parser_.too_large()) {
                    fail("reply too large", false);
                } else {
                    fail("malformed reply");
                }
                return false;
            }
            if (now_ns() > deadline) {
                fail("reply timeout");  // a server dribbling bytes must not hold the worker
                return false;
            }
        }
        if (buf_.size() - len_ < kServerReadChunk / 2) {
            make_room();
        }
        ssize_t n = ::recv(socket_.native_handle(), buf_.data() + len_, buf_.size() - len_, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            bool timeout = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
            fail(n == 0 ? "connection closed" : timeout ? "reply timeout" : "read failed");
            return false;
        }
        len_ += static_cast<std::size_t>(n);
    }
}

void server_connection::make_room() {
    // Move the partial reply to the front before growing: pipelined replies pass through here.
    if (head_ > 0) {
        std::memmove(buf_.data(), buf_.data() + head_, len_ - head_);
        len_ -= head_;
        head_ = 0;
    }
    if (buf_.size() - len_ < kServerReadChunk / 2) {
        buf_.resize(buf_.size() * 2);
    }
}

void server_connection::fail(const char* why, bool backoff) {
    last_error_ = why;
    boost::system::error_code ec;
    socket_.close(ec);
    if (!backoff || (reused_ && received() == 0)) {
        // A reused socket that failed before any reply byte was most likely left stale by a
        // server restart: allow one immediate reconnect instead of backing off.
        reused_ = false;
        retry_at_ = 0;
        return;
    }
    backoff_ns_ = backoff_ns_ == 0 ? kBackoffMinNs : std::min(backoff_ns_ * 2, kBackoffMaxNs);
    retry_at_ = now_ns() + backoff_ns_;
    LOG_DEBUG("server %s: %s", addr_.str().c_str(), why);
}

std::string server_connection::error_line() const {
    return "SERVER_ERROR " + addr_.str() + " " + last_error_ + "\r\n";
}

}  // namespace mcscope
