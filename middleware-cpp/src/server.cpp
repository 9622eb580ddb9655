// Server wiring and lifecycle: accept loop with backoff, clean shutdown on SIGINT/SIGTERM.
#include "server.hpp"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <chrono>
#include <csignal>

#include "clock.hpp"
#include "log.hpp"

namespace mcscope {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {
constexpr auto kAcceptRetry = std::chrono::milliseconds(100);
}  // namespace

server::server(const config& cfg)
    : cfg_(cfg),
      budget_(cfg_.max_buffered_bytes),
      signals_(io_, SIGINT, SIGTERM),
      acceptor_(io_),
      accept_timer_(io_),
      sweep_timer_(io_),
      t0_(now_ns()),
      started_unix_(unix_now()),
      queue_(cfg_.queue_capacity, t0_, static_cast<mono_ns>(cfg_.window_ms) * kNsPerMs),
      stats_(cfg_.workers + 1, t0_, static_cast<mono_ns>(cfg_.window_ms) * kNsPerMs,
             cfg_.sample_every),
      ctx_{queue_, stats_.shard(0), budget_, parser_limits{}, 0, 0, {}, false},
      pool_(cfg_.servers, cfg_.replication, cfg_.replication_given, cfg_.sharded) {}

server::~server() {
    queue_.stop();
    for (std::thread& t : threads_) {
        if (t.joinable()) {
            t.join();
        }
    }
}

bool server::init(std::string& error) {
    boost::system::error_code ec;
    tcp::endpoint ep(asio::ip::make_address(cfg_.listen_ip, ec), cfg_.port);
    if (ec) {
        error = "bad listen address '" + cfg_.listen_ip + "'";
        return false;
    }
    acceptor_.open(ep.protocol(), ec);
    acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
    acceptor_.bind(ep, ec);
    if (!ec) {
        acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    }
    if (ec) {
        error = "cannot listen on " + cfg_.listen_ip + ":" + std::to_string(cfg_.port) + ": " +
                ec.message();
        return false;
    }
    if (!cfg_.stats_dir.empty()) {
        writer_ = std::make_unique<stats_writer>(cfg_, stats_, queue_, started_unix_);
        if (!writer_->start(error)) {
            return false;
        }
    }
    queue_.set_on_space([this] { asio::post(io_, [this] { resume_waiters(); }); });
    manager_.set_on_close([this] {
        if (accept_paused_) {
            accept_paused_ = false;
            do_accept();
        }
    });
    // Workers write the replies they complete themselves (connection::complete), each into its
    // own stats shard: shard 0 is the network thread's, shard i + 1 worker i's.
    for (std::size_t i = 0; i < cfg_.workers; ++i) {
        reply_sink sink = [st = &stats_.shard(i + 1)](std::vector<request_ptr>& done) {
            for (request_ptr& r : done) {
                connection::complete(std::move(r), *st);
            }
        };
        workers_.push_back(std::make_unique<worker>(cfg_, pool_, queue_, std::move(sink)));
    }
    for (auto& w : workers_) {
        threads_.emplace_back([w = w.get()] { w->run(); });
    }
    do_accept();
    do_await_stop();
    sweep_timeouts();
    return true;
}

int server::run() {
    LOG_INFO("listening on %s:%u with %zu workers, %zu servers, %zu bytes buffered at most",
             cfg_.listen_ip.c_str(), static_cast<unsigned>(cfg_.port), cfg_.workers,
             cfg_.servers.size(), budget_.cap());
    io_.run();
    for (std::thread& t : threads_) {
        t.join();
    }
    threads_.clear();
    if (writer_) {
        writer_->finish(now_ns(), ctx_.queue_full_events, budget_);
    }
    // Read by the tests (at most one wake-up per request) and the benchmark.
    LOG_INFO("worker wake-ups: %llu for %llu requests dequeued",
             static_cast<unsigned long long>(queue_.wakeups()),
             static_cast<unsigned long long>(queue_.dequeued()));
    // The memory bound's counters (kMemoryCounters), read by the tests: "memory: name=value ...".
    std::string line;
    for (std::size_t i = 0; i < kMemoryCounterCount; ++i) {
        line += " " + std::string(kMemoryCounters[i].name) + "=" +
                std::to_string(budget_.counter(static_cast<memory_counter>(i)));
    }
    LOG_INFO("memory:%s", line.c_str());
    LOG_INFO("stopped cleanly");
    return 0;
}

void server::do_accept() {
    if (manager_.size() >= cfg_.max_connections) {
        accept_paused_ = true;  // resumed by the connection manager when a client leaves
        return;
    }
    acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
        if (!acceptor_.is_open()) {
            return;
        }
        if (ec) {
            // Typically EMFILE: back off instead of spinning on the ready listener.
            LOG_WARN("accept failed: %s", ec.message().c_str());
            accept_timer_.expires_after(kAcceptRetry);
            accept_timer_.async_wait([this](boost::system::error_code) { do_accept(); });
            return;
        }
        manager_.start(std::make_shared<connection>(std::move(socket), manager_, ctx_));
        do_accept();
    });
}

void server::resume_waiters() {
    std::vector<std::weak_ptr<connection>> waiting;
    waiting.swap(ctx_.waiting);
    for (auto& w : waiting) {
        if (auto c = w.lock()) {
            c->on_space();
        }
    }
}

void server::sweep_timeouts() {
    // One timer for all clients, not one re-armed per read: no cost on the request path. A
    // client is closed at most a quarter of its timeout late.
    // It also retries clients paused for memory once the cap has room, so it always runs.
    connection::timeouts t{static_cast<mono_ns>(cfg_.client_idle_timeout_ms) * kNsPerMs,
                           static_cast<mono_ns>(cfg_.client_write_timeout_ms) * kNsPerMs,
                           static_cast<mono_ns>(cfg_.client_body_timeout_ms) * kNsPerMs,
                           static_cast<mono_ns>(cfg_.client_memory_timeout_ms) * kNsPerMs};
    constexpr mono_ns kMinPeriod = 10 * kNsPerMs;
    constexpr mono_ns kMaxPeriod = 1000 * kNsPerMs;
    mono_ns period = kMaxPeriod;
    for (mono_ns timeout : {t.idle, t.write, t.body, t.memory}) {
        if (timeout > 0) {
            period = std::min(period, std::max(timeout / 4, kMinPeriod));
        }
    }
    sweep_timer_.expires_after(std::chrono::nanoseconds(period));
    sweep_timer_.async_wait([this, t](boost::system::error_code ec) {
        if (ec || !acceptor_.is_open()) {
            return;
        }
        mono_ns now = now_ns();
        manager_.stop_if([&](connection& c) { return c.sweep(now, t); });
        sweep_timeouts();
    });
}

void server::do_await_stop() {
    signals_.async_wait([this](boost::system::error_code ec, int) {
        if (!ec) {
            shutdown();
        }
    });
}

void server::shutdown() {
    boost::system::error_code ec;
    acceptor_.close(ec);
    accept_timer_.cancel();
    sweep_timer_.cancel();
    manager_.stop_all();
    queue_.stop();
    io_.stop();
}

}  // namespace mcscope
