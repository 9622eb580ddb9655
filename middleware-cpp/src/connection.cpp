// Client connection: parse complete requests from the stream, keep replies in request order.
#include "connection.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cstring>

#include "connection_manager.hpp"
#include "log.hpp"

namespace mcscope {

namespace asio = boost::asio;

namespace {
constexpr std::size_t kReadChunk = 16 * 1024;
constexpr std::size_t kMaxOutstanding = 256;  ///< unanswered requests per client before pausing
constexpr std::size_t kMaxWriteBatch = 64;    ///< replies gathered into one write
}  // namespace

connection::connection(asio::ip::tcp::socket socket, connection_manager& manager,
                       net_context& ctx)
    : socket_(std::move(socket)), manager_(manager), ctx_(ctx), parser_(ctx.limits) {}

void connection::start() {
    boost::system::error_code ec;
    socket_.set_option(asio::ip::tcp::no_delay(true), ec);
    do_read();
}

void connection::stop() {
    closed_ = true;
    blocked_.reset();  // it holds a reference to this connection
    order_.clear();
    boost::system::error_code ec;
    socket_.close(ec);
}

bool connection::can_parse() const {
    return !closed_ && !blocked_ && order_.size() < kMaxOutstanding;
}

void connection::do_read() {
    if (reading_ || eof_ || !can_parse()) {
        return;
    }
    // Compact, then make room: a request larger than the buffer (big value) grows it.
    if (start_ > 0) {
        std::memmove(buf_.data(), buf_.data() + start_, end_ - start_);
        end_ -= start_;
        start_ = 0;
    }
    if (buf_.size() - end_ < kReadChunk / 4) {
        buf_.resize(buf_.empty() ? kReadChunk : buf_.size() * 2);
    }
    reading_ = true;
    socket_.async_read_some(
        asio::buffer(buf_.data() + end_, buf_.size() - end_),
        [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
            self->reading_ = false;
            if (ec == asio::error::operation_aborted || self->closed_) {
                return;
            }
            if (ec) {
                // EOF or reset: answer what was already received, then close.
                self->eof_ = true;
                self->process();
                self->maybe_close();
                return;
            }
            self->last_read_ = now_ns();
            if (self->start_ == self->end_) {
                self->pending_arrival_ = self->last_read_;
            }
            self->end_ += n;
            self->process();
        });
}

void connection::process() {
    while (can_parse() && start_ < end_) {
        if (!spare_) {
            spare_ = std::make_unique<request>();
        }
        parse_outcome out = parser_.parse(buf_.data() + start_, buf_.data() + end_, *spare_);
        start_ += out.consumed;
        if (out.result == parse_result::indeterminate) {
            if (out.consumed > 0) {
                pending_arrival_ = last_read_;
            }
            break;
        }
        request_ptr r = std::move(spare_);
        r->t.arrival = pending_arrival_;
        pending_arrival_ = last_read_;
        if (out.result == parse_result::bad) {
            LOG_WARN("client sent an unparseable stream; closing");
            eof_ = true;
            start_ = end_;
        }
        dispatch(std::move(r));
    }
    if (start_ == end_) {
        start_ = end_ = 0;
    }
    do_read();
}

void connection::dispatch(request_ptr r) {
    r->seq = next_seq_++;
    order_.push_back(slot{});
    if (r->cmd == command::quit) {
        r->close_after = true;
        eof_ = true;
        start_ = end_;  // memcached ignores anything after quit
    }
    if (r->cmd == command::local_reply || r->cmd == command::quit) {
        complete_local(std::move(r));
        return;
    }
    r->conn = shared_from_this();
    blocked_ = std::move(r);
    try_dispatch_blocked();
}

namespace {
bool is_write(const request& r) { return r.cmd == command::set || r.cmd == command::del; }
}  // namespace

bool connection::try_dispatch_blocked() {
    // Per-client execution order: a write waits for everything before it, and nothing passes
    // an unfinished write, so a pipelined "set; get" reads its own write. Reads run in parallel.
    bool write = is_write(*blocked_);
    if (write ? inflight_ > 0 : write_inflight_) {
        return false;
    }
    if (!ctx_.queue.try_push(blocked_, now_ns(), false)) {
        ++ctx_.queue_full_events;
        ctx_.waiting.push_back(weak_from_this());
        return false;
    }
    request_wake();
    blocked_.reset();
    ++inflight_;
    write_inflight_ = write;
    return true;
}

void connection::request_wake() {
    // Wake a worker once per round of the event loop, after every ready client was parsed: one
    // futex wake-up then carries all requests that arrived together, across connections.
    if (ctx_.wake_pending) {
        return;
    }
    ctx_.wake_pending = true;
    net_context& ctx = ctx_;
    asio::post(socket_.get_executor(), [&ctx] {
        ctx.wake_pending = false;
        ctx.queue.wake();
    });
}

void connection::on_space() {
    if (closed_ || !blocked_) {
        return;
    }
    if (try_dispatch_blocked()) {
        process();
    }
}

void connection::complete_local(request_ptr r) {
    std::uint64_t seq = r->seq;
    order_[seq - base_seq_] = slot{std::move(r), true};
    do_write();
}

void connection::on_reply(request_ptr r) {
    if (closed_) {
        return;
    }
    r->conn.reset();  // break the cycle: the connection owns its slots
    --inflight_;
    if (is_write(*r)) {
        write_inflight_ = false;
    }
    complete_local(std::move(r));
    if (blocked_ && try_dispatch_blocked()) {
        process();
    }
}

void connection::do_write() {
    if (!writing_.empty() || closed_) {
        return;
    }
    write_bufs_.clear();
    while (!order_.empty() && order_.front().ready && writing_.size() < kMaxWriteBatch) {
        request_ptr r = std::move(order_.front().req);
        order_.pop_front();
        ++base_seq_;
        bool last = r->close_after;
        if (!r->reply.empty()) {
            write_bufs_.push_back(asio::buffer(r->reply));
        }
        writing_.push_back(std::move(r));
        if (last) {
            break;
        }
    }
    if (writing_.empty()) {
        maybe_close();
        return;
    }
    asio::async_write(socket_, write_bufs_,
                      [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                          if (ec) {
                              self->writing_.clear();
                              self->manager_.stop(self);
                              return;
                          }
                          self->on_written();
                      });
}

void connection::on_written() {
    bool close = false;
    ctx_.st.begin_batch();
    mono_ns now = now_ns();
    for (request_ptr& r : writing_) {
        r->t.written = now;
        ctx_.st.record(*r);
        close = close || r->close_after;
    }
    ctx_.st.end_batch();
    writing_.clear();
    if (close) {
        linger();
        return;
    }
    do_write();
    process();  // outstanding replies drained: parsing may resume
}

void connection::linger() {
    // Closing with unread input makes the kernel send RST, which can destroy the last reply in
    // flight. Send FIN instead and discard input until the client closes its side.
    boost::system::error_code ec;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ec);
    if (buf_.size() < kReadChunk) {
        buf_.resize(kReadChunk);
    }
    socket_.async_read_some(asio::buffer(buf_),
                            [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                                if (ec == asio::error::operation_aborted || self->closed_) {
                                    return;
                                }
                                if (ec) {
                                    self->manager_.stop(self);
                                    return;
                                }
                                self->linger();
                            });
}

void connection::maybe_close() {
    if (eof_ && !closed_ && order_.empty() && writing_.empty() && !blocked_ && !reading_) {
        manager_.stop(shared_from_this());
    }
}

}  // namespace mcscope
