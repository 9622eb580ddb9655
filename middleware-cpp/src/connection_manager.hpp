// Owns the set of live client connections so shutdown can stop them all.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <unordered_set>

namespace mcscope {

class connection;

/// Network-thread only. A connection removes itself when it closes.
class connection_manager {
public:
    connection_manager() = default;
    connection_manager(const connection_manager&) = delete;
    connection_manager& operator=(const connection_manager&) = delete;

    void start(const std::shared_ptr<connection>& c);
    void stop(const std::shared_ptr<connection>& c);
    void stop_all();
    /// Stops every connection for which expired(connection) is true (the timeout sweep);
    /// expired may close connections itself.
    void stop_if(const std::function<bool(connection&)>& expired);
    std::size_t size() const { return connections_.size(); }
    /// Called after a connection closed (the server resumes accepting if it paused).
    void set_on_close(std::function<void()> cb) { on_close_ = std::move(cb); }

private:
    std::unordered_set<std::shared_ptr<connection>> connections_;
    std::function<void()> on_close_;
};

}  // namespace mcscope
