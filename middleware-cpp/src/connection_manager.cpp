// Connection bookkeeping for stop_all at shutdown.
#include "connection_manager.hpp"

#include "connection.hpp"

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

void connection_manager::stop_all() {
    for (const auto& c : connections_) {
        c->stop();
    }
    connections_.clear();
}

}  // namespace mcscope
