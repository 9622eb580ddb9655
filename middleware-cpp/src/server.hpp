// The middleware process: acceptor and signals on the network thread, worker threads, reporter.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "config.hpp"
#include "connection.hpp"
#include "connection_manager.hpp"
#include "memory_budget.hpp"
#include "server_pool.hpp"
#include "stats.hpp"
#include "stats_writer.hpp"
#include "work_queue.hpp"
#include "worker.hpp"

namespace mcscope {

/// Wires everything together. run() drives the network thread on the caller's thread.
class server {
public:
    explicit server(const config& cfg);
    server(const server&) = delete;
    server& operator=(const server&) = delete;
    ~server();

    /// Binds the listener and starts workers and the reporter; false with error on failure.
    bool init(std::string& error);
    /// Serves until SIGINT/SIGTERM, then shuts down cleanly and flushes stats. Returns exit code.
    int run();

private:
    void do_accept();
    void do_await_stop();
    void sweep_timeouts();
    void resume_waiters();
    void shutdown();

    config cfg_;
    /// Before everything that holds requests or connections: they release into it when destroyed.
    memory_budget budget_;
    boost::asio::io_context io_;
    boost::asio::signal_set signals_;
    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::steady_timer accept_timer_;
    boost::asio::steady_timer sweep_timer_;  ///< client idle and write timeouts
    bool accept_paused_ = false;
    connection_manager manager_;
    mono_ns t0_;
    double started_unix_;
    work_queue queue_;
    stats_shards stats_;  ///< one per reply-writing thread: the network thread and each worker
    net_context ctx_;
    server_pool pool_;
    std::vector<std::unique_ptr<worker>> workers_;
    std::vector<std::thread> threads_;
    std::unique_ptr<stats_writer> writer_;
};

}  // namespace mcscope
