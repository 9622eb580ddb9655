// Request execution per command: routing, pipelined fan-out, merge and replication outcome.
#include "worker.hpp"

#include "clock.hpp"
#include "reply_merge.hpp"
#include "request_parser.hpp"

namespace mcscope {

namespace {
constexpr std::string_view kStored = "STORED\r\n";
constexpr std::string_view kDeleted = "DELETED\r\n";
constexpr std::string_view kVersion = "version\r\n";
}  // namespace

worker::worker(const config& cfg, server_pool& pool, work_queue& queue, reply_sink sink)
    : cfg_(cfg), pool_(pool), queue_(queue), sink_(std::move(sink)) {
    for (const server_address& a : cfg_.servers) {
        conns_.push_back(std::make_unique<server_connection>(
            io_, a, static_cast<mono_ns>(cfg_.server_timeout_ms) * kNsPerMs,
            cfg_.max_reply_bytes));
    }
    out_.resize(conns_.size());
    state_.resize(conns_.size());
}

void worker::run() {
    std::vector<request_ptr> batch;
    bool spare = false;
    while (queue_.pop_batch(batch, kMaxBatch, kMaxBatchBytes, spare)) {
        handle_batch(batch);
        // Only client writes are left: requests arriving now wait for us instead of waking a
        // sleeping worker (a wake-up and a context switch per small batch at -t 8..64).
        queue_.serving_done();
        spare = true;
        sink_(batch);
        batch.clear();
    }
}

void worker::plan(job& j) {
    request& r = *j.r;
    j.redo = false;
    if (defer_early(r)) {
        j.legs.clear();  // nothing sent; the connection sends it again later
        return;
    }
    switch (r.cmd) {
        case command::get:
            j.kind = response_parser::kind::retrieval;
            if (r.type == request_type::multiget && pool_.sharded()) {
                keys_.clear();
                for (std::size_t i = 0; i < r.keys.size(); ++i) {
                    keys_.push_back(r.key(i));
                }
                shard_plan plan = pool_.plan_multiget(keys_, rr_);
                j.shard_of_key = std::move(plan.shard_of_key);
                j.legs.resize(plan.servers.size());
                for (std::size_t s = 0; s < plan.servers.size(); ++s) {
                    j.legs[s].server = plan.servers[s];
                    j.legs[s].own = "get";
                }
                for (std::size_t i = 0; i < keys_.size(); ++i) {
                    std::string& d = j.legs[j.shard_of_key[i]].own;
                    d += ' ';
                    d += keys_[i];
                }
                for (leg& l : j.legs) {
                    l.own += "\r\n";
                    l.data = l.own;  // legs is not resized from here on: the view stays valid
                }
            } else {
                j.legs.resize(1);
                j.legs[0].server = pool_.route_get(r.key(0), rr_);
                j.legs[0].data = r.raw;
            }
            break;
        case command::set:
        case command::del: {
            j.kind = response_parser::kind::line;
            std::size_t n = pool_.replication();
            j.legs.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                leg& l = j.legs[i];
                l.server = cfg_.replication_given ? pool_.replica(r.key(0), i) : i;
                if (r.noreply_offset == 0) {
                    l.data = r.raw;  // forwarded as received: no copy
                } else {
                    l.own = forward_bytes(r);  // memcached must answer: strip noreply
                    l.data = l.own;
                }
            }
            break;
        }
        case command::version:
            j.kind = response_parser::kind::line;
            j.legs.resize(1);
            j.legs[0].server = pool_.route_get("", rr_);
            j.legs[0].data = kVersion;
            break;
        default:
            j.legs.clear();  // quit and local replies never reach a worker
            break;
    }
    for (leg& l : j.legs) {
        l.ok = false;
        l.reused = false;
    }
}

void worker::handle(request& r) {
    job& j = single_;
    j.r = &r;
    plan(j);
    if (j.legs.empty()) {
        return;
    }
    fan_out(r, j.legs, j.kind);
    finish(j);
}

void worker::handle_batch(std::vector<request_ptr>& batch) {
    if (batch.size() == 1) {
        handle(*batch[0]);
        return;
    }
    if (jobs_.size() < batch.size()) {
        jobs_.resize(batch.size());
    }
    for (std::size_t s = 0; s < conns_.size(); ++s) {
        out_[s].clear();
        state_[s] = server_state{};
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
        job& j = jobs_[i];
        j.r = batch[i].get();
        plan(j);
        for (const leg& l : j.legs) {
            pool_.begin(l.server);  // now, so the next request's least-loaded choice sees it
            j.r->server_mask |= std::uint64_t{1} << l.server;
            // The bytes stay in the request (or leg) until the batch is done: sent by reference.
            out_[l.server].push_back(iovec{const_cast<char*>(l.data.data()), l.data.size()});
            ++state_[l.server].left;
        }
    }
    mono_ns deadline = now_ns() + static_cast<mono_ns>(cfg_.server_timeout_ms) * kNsPerMs;
    send_batch(batch.size(), deadline);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        read_job(jobs_[i], deadline);
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
        if (jobs_[i].redo) {
            handle(*batch[i]);  // reconnects at once and retries, as a lone request would
        }
    }
}

void worker::send_batch(std::size_t n, mono_ns deadline) {
    for (std::size_t s = 0; s < conns_.size(); ++s) {
        server_state& st = state_[s];
        if (st.left == 0) {
            continue;
        }
        server_connection& c = *conns_[s];
        st.ok = c.ensure_connected();
        st.reused = st.ok && c.reused();
        st.ok = st.ok && c.send(out_[s], deadline);
        st.stale = !st.ok && st.reused;
    }
    mono_ns sent = now_ns();
    for (std::size_t i = 0; i < n; ++i) {
        jobs_[i].r->t.sent = sent;
        jobs_[i].r->servers = static_cast<std::uint16_t>(jobs_[i].legs.size());
    }
}

void worker::read_job(job& j, mono_ns deadline) {
    for (leg& l : j.legs) {
        server_state& st = state_[l.server];
        server_connection& c = *conns_[l.server];
        --st.left;
        if (st.ok) {
            l.ok = c.read_reply(j.kind, deadline, st.left > 0);
            if (!l.ok) {
                st.ok = false;
                st.stale = st.reused && st.first && c.received() == 0;
            }
            st.first = false;
        }
        j.redo = j.redo || (!l.ok && st.stale);
        pool_.end(l.server);
    }
    j.r->t.replied = now_ns();
    if (!j.redo && !j.r->deferred) {
        finish(j);  // now, while each connection's buffer still holds this request's reply
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
        // Only a connection that failed before any reply byte may be stale: retry it once.
        if (!l.ok && (l.reused || c.reused()) && c.received() == 0) {
            l.ok = exchange(l, k, deadline);
        }
        pool_.end(l.server);
    }
    r.t.replied = now_ns();
}

bool worker::admit(request& r, std::size_t n) {
    // Only a get is sent again: it has no effect, and the client's later writes wait for it.
    memory_account* acct = r.reply_mem.account();
    if (r.cmd != command::get || acct == nullptr) {
        return true;
    }
    bool front = r.seq == acct->next_write();  // admitted whatever the cap: proves no room
    if (r.reply_mem.try_set_reply(n, r.seq)) {
        if (!front && acct->refused_bytes() != 0) {
            acct->note_refused(0);  // replies fit again: fetch the client's gets again
        }
        return true;  // charged (the caller sets the exact size once the reply is built)
    }
    acct->note_refused(n);
    defer(r, n);
    return false;
}

bool worker::defer_early(request& r) {
    memory_account* acct = r.reply_mem.account();
    if (r.cmd != command::get || acct == nullptr) {
        return false;
    }
    std::size_t expect = acct->refused_bytes();
    if (expect == 0 || acct->admits_reply(expect, r.seq)) {
        return false;
    }
    defer(r, expect);  // its client's last reply did not fit and still would not: no fetch
    return true;
}

void worker::defer(request& r, std::size_t n) {
    r.deferred = true;
    r.retry_bytes = n;
    r.reply.clear();
    r.reply_mem.set(0);
    r.reply_mem.account()->budget().count(memory_counter::deferred);
}

void worker::set_reply(request& r, std::string_view reply) {
    if (!admit(r, reply.size())) {
        return;
    }
    r.error = is_error_reply(reply);
    if (r.noreply) {
        r.reply.clear();
    } else {
        r.reply.assign(reply);  // into the reused request's buffer: no allocation once it fits
    }
    r.reply_mem.set(r.reply.size());
}

void worker::finish(job& j) {
    request& r = *j.r;
    if (r.cmd == command::get && r.type == request_type::multiget && pool_.sharded()) {
        finish_sharded(j);
        return;
    }
    if (r.cmd == command::set || r.cmd == command::del) {
        // Views of each replica's reply line; failures' lines live in errors_, reserved first
        // so that no push moves a string a view points into.
        views_.clear();
        errors_.clear();
        errors_.reserve(j.legs.size());
        for (const leg& l : j.legs) {
            const server_connection& c = *conns_[l.server];
            if (l.ok) {
                views_.push_back(c.reply());
            } else {
                errors_.push_back(c.error_line());
                views_.push_back(errors_.back());
            }
        }
        set_reply(r, replicated_outcome(views_, r.cmd == command::set ? kStored : kDeleted));
        return;
    }
    const server_connection& c = *conns_[j.legs[0].server];
    if (!j.legs[0].ok) {
        set_reply(r, c.error_line());
        return;
    }
    if (r.cmd == command::get) {
        std::size_t found = c.parser().values().size();
        r.misses = c.parser().error_line() || found >= r.keys.size()
                       ? 0
                       : static_cast<std::uint32_t>(r.keys.size() - found);
    }
    set_reply(r, c.reply());
}

void worker::finish_sharded(job& j) {
    request& r = *j.r;
    keys_.clear();
    for (std::size_t i = 0; i < r.keys.size(); ++i) {
        keys_.push_back(r.key(i));
    }
    // A shard that failed (down, timed out, or an error line) contributes no values: its keys
    // are answered as misses and the request counts as an error. Only when every shard failed
    // does the client get the first failure itself.
    static const std::vector<value_block> kNoValues;
    std::vector<shard_reply> shards;
    std::string first_failure;
    std::size_t failed = 0;
    std::size_t bytes = 0;
    for (const leg& l : j.legs) {
        const server_connection& c = *conns_[l.server];
        if (!l.ok || c.parser().error_line()) {
            if (failed++ == 0) {
                first_failure = l.ok ? std::string(c.reply()) : c.error_line();
            }
            shards.push_back(shard_reply{std::string_view(), &kNoValues});
            continue;
        }
        bytes += c.reply().size();
        shards.push_back(shard_reply{c.reply(), &c.parser().values()});
    }
    if (failed == j.legs.size()) {
        set_reply(r, first_failure);
        return;
    }
    if (bytes > cfg_.max_reply_bytes) {  // each shard is within the cap; the merge must be too
        set_reply(r, "SERVER_ERROR reply too large\r\n");
        return;
    }
    if (!admit(r, bytes)) {
        return;
    }
    r.reply.clear();
    r.reply.reserve(bytes);
    r.misses = merge_multiget(keys_, j.shard_of_key, shards, r.reply);  // gets have no noreply
    r.error = failed > 0;
    r.reply_mem.set(r.reply.size());
}

}  // namespace mcscope
