// Connection bookkeeping for stop_all at shutdown.
#include "connection_manager.hpp"

#include "connection.hpp"

#include <vector>

namespace mcscope {

void connection_manager::start(const std::shared_ptr<connection>& c) {
    connections_.insert(c);
    c->start();
}

void connection_manager::stop(const std::shared_ptr<connection>& c) {
    if (connections_.erase(c) > 0) {
        c->stop();
        if (on_close_) {
            on_close_();
        }
    }
}

void connection_manager::stop_if(const std::function<bool(connection&)>& expired) {
    // A snapshot: expired() may resume a connection, which may close it (stop() erases).
    std::vector<std::shared_ptr<connection>> all(connections_.begin(), connections_.end());
    for (const auto& c : all) {
        if (expired(*c)) {
            stop(c);
        }
    }
}

void connection_manager::stop_all() {
    for (const auto& c : connections_) {
        c->stop();
    }
    connections_.clear();
}

}  // namespace mcscope
