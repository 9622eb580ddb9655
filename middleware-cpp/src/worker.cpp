// Request execution per command: routing, fan-out, merge and replication outcome.
#include "worker.hpp"

#include "reply_merge.hpp"
#include "request_parser.hpp"

namespace mcscope {

namespace {
constexpr mono_ns kNsPerMs = 1'000'000;
}

worker::worker(const config& cfg, server_pool& pool, work_queue& queue, reply_sink sink)
    : cfg_(cfg), pool_(pool), queue_(queue), sink_(std::move(sink)) {
    for (const server_address& a : cfg_.servers) {
        conns_.push_back(std::make_unique<server_connection>(
            io_, a, static_cast<mono_ns>(cfg_.server_timeout_ms) * kNsPerMs));
    }
}

void worker::run() {
    while (request_ptr r = queue_.pop()) {
        handle(*r);
        sink_(std::move(r));
    }
}

void worker::handle(request& r) {
    switch (r.cmd) {
        case command::get:
            if (r.type == request_type::multiget && pool_.sharded()) {
                do_sharded_multiget(r);
            } else {
                do_get(r);
            }
            break;
        case command::set:
            do_replicated(r, "STORED\r\n");
            break;
        case command::del:
            do_replicated(r, "DELETED\r\n");
            break;
        case command::version:
            do_version(r);
            break;
        default:
            break;  // quit and local replies never reach a worker
    }
}

bool worker::exchange(leg& l, response_parser::kind k, mono_ns deadline) {
    server_connection& c = *conns_[l.server];
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!c.ensure_connected()) {
            return false;
        }
        bool reused = c.reused();
        if (c.send(l.data, deadline) && c.read_reply(k, deadline)) {
            return true;
        }
        if (!reused) {
            return false;
        }
    }
    return false;
}

void worker::fan_out(request& r, std::vector<leg>& legs, response_parser::kind k) {
    mono_ns deadline = now_ns() + static_cast<mono_ns>(cfg_.server_timeout_ms) * kNsPerMs;
    for (leg& l : legs) {
        pool_.begin(l.server);
        r.server_mask |= std::uint64_t{1} << l.server;
        server_connection& c = *conns_[l.server];
        l.ok = c.ensure_connected();
        l.reused = l.ok && c.reused();
        l.ok = l.ok && c.send(l.data, deadline);
    }
    r.servers = static_cast<std::uint16_t>(legs.size());
    r.t.sent = now_ns();
    for (leg& l : legs) {
        server_connection& c = *conns_[l.server];
        if (l.ok) {
            l.ok = c.read_reply(k, deadline);
        }
        if (!l.ok && (l.reused || c.reused())) {
            l.ok = exchange(l, k, deadline);
        }
        pool_.end(l.server);
    }
    r.t.replied = now_ns();
}

void worker::set_reply(request& r, std::string reply) {
    r.error = is_error_reply(reply);
    r.reply = r.noreply ? std::string() : std::move(reply);
}

void worker::do_get(request& r) {
    legs_.assign(1, leg{});
    legs_[0].server = pool_.route_get(r.key(0), rr_);
    legs_[0].data = r.raw;
    fan_out(r, legs_, response_parser::kind::retrieval);
    server_connection& c = *conns_[legs_[0].server];
    if (!legs_[0].ok) {
        set_reply(r, c.error_line());
        return;
    }
    std::size_t found = c.parser().values().size();
    r.misses = c.parser().error_line() || found >= r.keys.size()
                   ? 0
                   : static_cast<std::uint32_t>(r.keys.size() - found);
    set_reply(r, std::string(c.reply()));
}

void worker::do_sharded_multiget(request& r) {
    keys_.clear();
    for (std::size_t i = 0; i < r.keys.size(); ++i) {
        keys_.push_back(r.key(i));
    }
    shard_plan plan = pool_.plan_multiget(keys_, rr_);
    legs_.assign(plan.servers.size(), leg{});
    for (std::size_t s = 0; s < plan.servers.size(); ++s) {
        legs_[s].server = plan.servers[s];
        legs_[s].data = "get";
    }
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        std::string& d = legs_[plan.shard_of_key[i]].data;
        d += ' ';
        d += keys_[i];
    }
    for (leg& l : legs_) {
        l.data += "\r\n";
    }
    fan_out(r, legs_, response_parser::kind::retrieval);
    std::vector<shard_reply> shards;
    for (const leg& l : legs_) {
        const server_connection& c = *conns_[l.server];
        if (!l.ok) {
            set_reply(r, c.error_line());
            return;
        }
        if (c.parser().error_line()) {
            set_reply(r, std::string(c.reply()));
            return;
        }
        shards.push_back(shard_reply{c.reply(), &c.parser().values()});
    }
    std::string out;
    r.misses = merge_multiget(keys_, plan.shard_of_key, shards, out);
    set_reply(r, std::move(out));
}

void worker::do_replicated(request& r, std::string_view success) {
    std::size_t n = pool_.replication();
    legs_.assign(n, leg{});
    std::string data = forward_bytes(r);
    for (std::size_t i = 0; i < n; ++i) {
        legs_[i].server = cfg_.replication_given ? pool_.replica(r.key(0), i) : i;
        legs_[i].data = data;
    }
    fan_out(r, legs_, response_parser::kind::line);
    std::vector<std::string> lines;
    lines.reserve(n);
    for (const leg& l : legs_) {
        const server_connection& c = *conns_[l.server];
        lines.push_back(l.ok ? std::string(c.reply()) : c.error_line());
    }
    std::vector<std::string_view> views(lines.begin(), lines.end());
    set_reply(r, std::string(replicated_outcome(views, success)));
}

void worker::do_version(request& r) {
    legs_.assign(1, leg{});
    legs_[0].server = pool_.route_get("", rr_);
    legs_[0].data = "version\r\n";
    fan_out(r, legs_, response_parser::kind::line);
    const server_connection& c = *conns_[legs_[0].server];
    set_reply(r, legs_[0].ok ? std::string(c.reply()) : c.error_line());
}

}  // namespace mcscope
