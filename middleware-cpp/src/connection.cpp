// Client connection: parse complete requests from the stream, keep replies in request order.
#include "connection.hpp"

#include <sys/socket.h>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

#include "connection_manager.hpp"
#include "iov.hpp"
#include "log.hpp"

namespace mcscope {

namespace asio = boost::asio;

namespace {
constexpr std::size_t kClientReadChunk = 16 * 1024;
constexpr std::size_t kMaxOutstanding = 256;  ///< unanswered requests per client before pausing
constexpr std::size_t kMaxWriteBatch = 64;    ///< replies gathered into one write
/// Requests kept per connection for reuse, and the largest buffer a kept one may hold (bounds
/// what an idle connection keeps: at most 4 x 2 x 8 KiB).
constexpr std::size_t kMaxFree = 4;
constexpr std::size_t kMaxFreeBytes = 8 * 1024;
/// A read buffer grown beyond this (for a large value) is freed once it is empty again.
constexpr std::size_t kKeepBuffer = 64 * 1024;
constexpr const char* kBodyTimeoutReply = "SERVER_ERROR value not received in time\r\n";
}  // namespace

connection::connection(asio::ip::tcp::socket socket, connection_manager& manager,
                       net_context& ctx)
    : socket_(std::move(socket)),
      manager_(manager),
      ctx_(ctx),
      acct_(ctx.budget),
      parser_(ctx.limits) {
    buf_mem_.attach(acct_);
}

void connection::start() {
    last_read_ = now_ns();  // the idle clock starts at accept
    ctx_.budget.connection_opened();
    boost::system::error_code ec;
    socket_.set_option(asio::ip::tcp::no_delay(true), ec);
    fd_ = socket_.native_handle();
    do_read();
}

void connection::stop() {
    blocked_.reset();  // it holds a reference to this connection
    std::lock_guard<std::mutex> lock(mu_);
    if (!closed_) {
        ctx_.budget.connection_closed();
    }
    closed_ = true;  // under mu_: no worker sends on fd_ once it is closed (and maybe reused)
    order_.clear();
    deferred_.clear();
    has_deferred_.store(false, std::memory_order_relaxed);
    boost::system::error_code ec;
    socket_.close(ec);
}

bool connection::can_parse() {
    if (closed_ || blocked_) {
        return false;
    }
    std::lock_guard<std::mutex> lock(mu_);
    // Over its share of the memory cap, or with gets waiting for room: not read until its
    // replies drain (TCP backpressure reaches the client); the sweep retries it too.
    bool memory = !deferred_.empty() || acct_.over_share();
    if (memory && !mem_paused_) {
        ctx_.budget.count(memory_counter::paused);
    }
    mem_paused_ = memory;
    if (order_.size() < kMaxOutstanding && !memory) {
        return true;
    }
    wake_net_ = true;  // checked and flagged under mu_: the write that frees a slot resumes us
    return false;
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
    if (buf_.size() - end_ < kClientReadChunk / 4) {
        buf_.resize(buf_.empty() ? kClientReadChunk : buf_.size() * 2);
        buf_mem_.set(buf_.size());
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
    retry_deferred();
    while (start_ < end_ && can_parse()) {
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
        if (!reading_ && buf_.size() > kKeepBuffer) {
            release_buffer();  // a large value's buffer is not kept by an idle client
        }
    }
    do_read();
    maybe_close();  // e.g. an unparseable stream whose error reply was just written
}

void connection::dispatch(request_ptr r) {
    r->seq = next_seq_++;
    r->id = ++ctx_.parsed;
    r->raw_mem.attach(acct_);
    r->raw_mem.set(r->raw.size());
    r->reply_mem.attach(acct_);
    r->reply_mem.set(r->reply.size());  // a local reply; a worker charges the others
    {
        std::lock_guard<std::mutex> lock(mu_);
        order_.push_back(slot{});
        if (!free_.empty()) {  // the next parse target: a written request, buffers kept
            spare_ = std::move(free_.back());
            free_.pop_back();
        }
    }
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
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (write ? inflight_ > 0 : write_inflight_) {
            wake_net_ = true;  // the completion that unblocks us posts resume()
            return false;
        }
        // Counted before the push: a worker may complete the request before try_push returns.
        ++inflight_;
        write_inflight_ = write;
    }
    if (!ctx_.queue.try_push(blocked_, now_ns(), false)) {
        {
            std::lock_guard<std::mutex> lock(mu_);
            --inflight_;
            write_inflight_ = false;  // it was false before (a write needs inflight_ == 0)
        }
        ++ctx_.queue_full_events;
        ctx_.waiting.push_back(weak_from_this());
        return false;
    }
    request_wake();
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
    if (closed_) {
        return;
    }
    retry_deferred();
    if (blocked_ && try_dispatch_blocked()) {
        process();
    }
}

void connection::retry_deferred() {
    if (!has_deferred_.load(std::memory_order_relaxed)) {
        return;  // one set later is followed by a posted resume(), which calls us again
    }
    std::vector<request_ptr> retry;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (closed_ || deferred_.empty()) {
            return;
        }
        // Earliest first: the next reply in line is always admitted once the write before it
        // is done (every later reply waits for it), the ones after it only while their last
        // known sizes fit the room left. During an unfinished write none is exempt: on_written
        // calls us again.
        std::sort(deferred_.begin(), deferred_.end(),
                  [](const request_ptr& a, const request_ptr& b) { return a->seq < b->seq; });
        std::size_t used = ctx_.budget.used();
        std::size_t room = used < ctx_.budget.cap() ? ctx_.budget.cap() - used : 0;
        std::size_t bytes = 0;
        std::size_t take = 0;
        for (; take < deferred_.size(); ++take) {
            const request& r = *deferred_[take];
            if (r.seq != acct_.next_write() && bytes + r.retry_bytes > room) {
                break;
            }
            bytes += r.retry_bytes;
        }
        auto end = deferred_.begin() + static_cast<std::ptrdiff_t>(take);
        retry.assign(std::make_move_iterator(deferred_.begin()), std::make_move_iterator(end));
        deferred_.erase(deferred_.begin(), end);
        has_deferred_.store(!deferred_.empty(), std::memory_order_relaxed);
    }
    bool pushed = false;
    for (std::size_t i = 0; i < retry.size(); ++i) {
        request_ptr& r = retry[i];
        r->deferred = false;
        r->conn = shared_from_this();
        if (ctx_.queue.try_push(r, now_ns(), false)) {
            pushed = true;
            continue;
        }
        // Full queue: the rest waits for space like a refused new request.
        std::lock_guard<std::mutex> lock(mu_);
        for (std::size_t j = i; j < retry.size(); ++j) {
            retry[j]->conn.reset();  // no cycle while it waits here
            deferred_.push_back(std::move(retry[j]));
        }
        has_deferred_.store(true, std::memory_order_relaxed);
        ++ctx_.queue_full_events;
        ctx_.waiting.push_back(weak_from_this());
        break;
    }
    if (pushed) {
        request_wake();
    }
}

void connection::complete_local(request_ptr r) {
    flushed f = flushed::done;
    {
        std::lock_guard<std::mutex> lock(mu_);
        std::uint64_t seq = r->seq;  // read before the move (the right side is evaluated first)
        order_[seq - base_seq_] = slot{std::move(r), true};
        f = flush_locked(ctx_.st, true);
    }
    after_flush(f, true);
}

void connection::complete(request_ptr r, stats& st) {
    std::shared_ptr<connection> self = std::move(r->conn);  // break the cycle; keep us alive
    self->finish(std::move(r), st);
}

void connection::finish(request_ptr r, stats& st) {
    flushed f = flushed::done;
    bool wake = false;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (closed_) {
            return;
        }
        if (r->deferred) {
            // Its reply did not fit the memory cap: still in flight (a later set waits for it)
            // until the network thread sends it again (retry_deferred).
            deferred_.push_back(std::move(r));
            has_deferred_.store(true, std::memory_order_relaxed);
            wake = true;
        } else {
            --inflight_;
            if (is_write(*r)) {
                write_inflight_ = false;
            }
            std::uint64_t seq = r->seq;
            order_[seq - base_seq_] = slot{std::move(r), true};
            f = flush_locked(st, false);
            wake = wake_net_;
            wake_net_ = false;
        }
    }
    after_flush(f, false);
    if (wake) {
        asio::post(socket_.get_executor(), [self = shared_from_this()] { self->resume(); });
    }
}

connection::flushed connection::flush_locked(stats& st, bool on_net) {
    // Write the ready replies at the front of order_ with one non-blocking gathered send.
    while (!writing_ && !closed_) {
        iov_.clear();
        std::size_t total = 0;
        while (!order_.empty() && order_.front().ready && written_.size() < kMaxWriteBatch) {
            if (order_.front().req->close_after && !on_net) {
                break;  // closing needs the network thread
            }
            request_ptr r = std::move(order_.front().req);
            order_.pop_front();
            ++base_seq_;  // next_write moves on once this write is done (recycle_written_locked)
            if (!r->reply.empty()) {
                iov_.push_back(iovec{r->reply.data(), r->reply.size()});
                total += r->reply.size();
            }
            bool last = r->close_after;
            written_.push_back(std::move(r));
            if (last) {
                break;
            }
        }
        if (written_.empty()) {
            bool quit_next = !order_.empty() && order_.front().ready;
            return quit_next ? flushed::net : flushed::done;
        }
        std::size_t sent = 0;
        while (sent < total) {
            msghdr msg{};
            msg.msg_iov = iov_.data();
            msg.msg_iovlen = iov_.size();
            ssize_t n = ::sendmsg(fd_, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                break;
            }
            if (n < 0) {
                written_.clear();
                return flushed::failed;
            }
            sent += static_cast<std::size_t>(n);
            std::size_t done = advance_iov(iov_, static_cast<std::size_t>(n));
            iov_.erase(iov_.begin(), iov_.begin() + static_cast<std::ptrdiff_t>(done));
        }
        if (sent < total) {
            writing_ = true;  // the socket buffer is full: the network thread finishes it
            write_since_ = now_ns();
            written_offset_ = sent;
            return flushed::async;
        }
        st.begin_batch();
        mono_ns now = now_ns();
        bool close = false;
        for (request_ptr& r : written_) {
            r->t.written = now;
            st.record(*r);
            close = close || r->close_after;
        }
        st.end_batch();
        recycle_written_locked();
        if (close) {
            return flushed::close;
        }
    }
    return flushed::done;
}

void connection::recycle_written_locked() {
    writes_ += written_.size();
    for (request_ptr& r : written_) {
        r->raw_mem.release();  // written: what it keeps for reuse is the connection's allowance
        r->reply_mem.release();
        bool small = r->raw.capacity() <= kMaxFreeBytes && r->reply.capacity() <= kMaxFreeBytes;
        if (free_.size() < kMaxFree && small && !r->close_after) {
            free_.push_back(std::move(r));
        }
    }
    written_.clear();
    // Only now, every earlier reply released: at most one reply per client past the cap.
    acct_.set_next_write(base_seq_);
}

void connection::after_flush(flushed f, bool on_net) {
    switch (f) {
        case flushed::done:
            return;
        case flushed::net:
            if (!on_net) {
                asio::post(socket_.get_executor(), [self = shared_from_this()] { self->resume(); });
            }
            return;
        case flushed::async:
            if (on_net) {
                continue_write();
            } else {
                asio::post(socket_.get_executor(),
                           [self = shared_from_this()] { self->continue_write(); });
            }
            return;
        case flushed::failed:
            asio::post(socket_.get_executor(), [self = shared_from_this()] {
                self->manager_.stop(self);
            });
            return;
        case flushed::close:
            linger();  // only the network thread writes a close_after reply
            return;
    }
}

void connection::resume() {
    if (closed_) {
        return;
    }
    if (blocked_) {
        try_dispatch_blocked();
    }
    flushed f = flushed::done;
    {
        std::lock_guard<std::mutex> lock(mu_);
        f = flush_locked(ctx_.st, true);
    }
    after_flush(f, true);
    process();
    maybe_close();
}

void connection::continue_write() {
    std::vector<asio::const_buffer> bufs;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (closed_) {
            return;
        }
        // written_ does not change while writing_ is set, so the buffers stay valid.
        std::size_t skip = written_offset_;
        for (const request_ptr& r : written_) {
            std::size_t len = r->reply.size();
            if (skip >= len) {
                skip -= len;
                continue;
            }
            bufs.emplace_back(r->reply.data() + skip, len - skip);
            skip = 0;
        }
    }
    asio::async_write(socket_, bufs,
                      [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                          if (ec) {
                              self->manager_.stop(self);
                              return;
                          }
                          self->on_written();
                      });
}

void connection::on_written() {
    bool close = false;
    flushed f = flushed::done;
    {
        std::lock_guard<std::mutex> lock(mu_);
        ctx_.st.begin_batch();
        mono_ns now = now_ns();
        for (request_ptr& r : written_) {
            r->t.written = now;
            ctx_.st.record(*r);
            close = close || r->close_after;
        }
        ctx_.st.end_batch();
        recycle_written_locked();
        writing_ = false;
        if (!close) {
            f = flush_locked(ctx_.st, true);
        }
    }
    if (close) {
        linger();
        return;
    }
    after_flush(f, true);
    process();  // outstanding replies drained: parsing may resume
    maybe_close();
}

void connection::linger() {
    // Closing with unread input makes the kernel send RST, which can destroy the last reply in
    // flight. Send FIN instead and discard input until the client closes its side (or the
    // idle timeout closes it).
    lingering_ = true;
    last_read_ = now_ns();
    boost::system::error_code ec;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ec);
    if (buf_.size() != kClientReadChunk) {
        std::vector<char>(kClientReadChunk).swap(buf_);  // a large value's buffer is not kept
        buf_mem_.set(buf_.size());
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

void connection::release_buffer() {
    std::vector<char>().swap(buf_);
    buf_mem_.set(0);
}

void connection::body_timeout(mono_ns now) {
    LOG_WARN("client did not send a set's value within the body timeout; closing");
    ctx_.budget.count(memory_counter::closed_body);
    boost::system::error_code ec;
    socket_.cancel(ec);  // the pending read finishes at once (aborted): the buffer can go
    parser_.reset();
    start_ = end_ = 0;
    eof_ = true;
    release_buffer();
    auto r = std::make_unique<request>();  // local reply: after earlier replies, then close
    r->reply = kBodyTimeoutReply;
    r->error = true;
    r->close_after = true;
    r->t.arrival = now;
    dispatch(std::move(r));
}

bool connection::sweep(mono_ns now, const timeouts& t) {
    if (closed_ || lingering_) {
        return closed_ ? false : t.idle > 0 && now - last_read_ > t.idle;
    }
    if (t.body > 0 && !eof_ && parser_.awaiting_value() && now - pending_arrival_ > t.body) {
        body_timeout(now);
        return false;
    }
    bool deferred = false;
    {
        std::lock_guard<std::mutex> lock(mu_);
        deferred = !deferred_.empty();
    }
    if (deferred || (mem_paused_ && !acct_.over_share())) {
        resume();  // another client drained or left: the cap may have room again
        if (closed_ || lingering_) {
            return false;
        }
    }
    // Stalled: gets wait for room it does not make (it does not read its replies), or it is
    // not read because it holds more than its share.
    bool stalled = mem_paused_ && acct_.over_share();
    bool progressed = false;  // replies were written since the last sweep
    {
        std::lock_guard<std::mutex> lock(mu_);
        stalled = stalled || !deferred_.empty();
        progressed = writes_ != writes_seen_;
        writes_seen_ = writes_;
    }
    if (!stalled || progressed) {
        mem_since_ = 0;
    } else if (mem_since_ == 0) {
        mem_since_ = now;
    } else if (t.memory > 0 && now - mem_since_ > t.memory) {
        LOG_WARN("client waited for room under the memory cap too long (it does not read); "
                 "closing");
        ctx_.budget.count(memory_counter::closed_memory);
        return true;
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (writing_) {
        return t.write > 0 && now - write_since_ > t.write;
    }
    if (!order_.empty() || blocked_) {
        busy_seen_ = now;  // waiting for the middleware is not idling
        return false;
    }
    return t.idle > 0 && now - std::max(last_read_, busy_seen_) > t.idle;
}

void connection::maybe_close() {
    if (!eof_ || closed_ || blocked_ || reading_ || lingering_) {
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (!order_.empty() || writing_) {
            wake_net_ = true;  // the last completion or write brings us back here
            return;
        }
    }
    manager_.stop(shared_from_this());
}

}  // namespace mcscope
