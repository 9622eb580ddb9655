// Routing implementation; hashing is FNV-1a so placement is stable across runs and platforms.
#include "server_pool.hpp"

#include <algorithm>
#include <cassert>

namespace mcscope {
namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ULL;
constexpr std::uint64_t kFnvPrime = 1099511628211ULL;

std::uint64_t fnv1a(std::string_view key) {
    std::uint64_t h = kFnvOffset;
    for (unsigned char c : key) {
        h ^= c;
        h *= kFnvPrime;
    }
    return h;
}

}  // namespace

server_pool::server_pool(std::vector<server_address> servers, std::size_t replication,
                         bool hash_routing, bool sharded)
    : servers_(std::move(servers)),
      replication_(replication),
      hash_routing_(hash_routing),
      sharded_(sharded),
      inflight_(new std::atomic<std::int64_t>[servers_.size()]) {
    assert(!servers_.empty() && replication_ >= 1 && replication_ <= servers_.size());
    for (std::size_t i = 0; i < servers_.size(); ++i) {
        inflight_[i].store(0);
    }
}

std::size_t server_pool::primary(std::string_view key) const {
    return static_cast<std::size_t>(fnv1a(key) % servers_.size());
}

std::size_t server_pool::replica(std::string_view key, std::size_t i) const {
    return (primary(key) + i) % servers_.size();
}

std::size_t server_pool::least_loaded(std::size_t& rr) const {
    // Scan from a rotating start so ties spread round-robin instead of piling on server 0.
    std::size_t n = servers_.size();
    std::size_t start = rr++ % n;
    std::size_t best = start;
    std::int64_t best_load = inflight_[start].load(std::memory_order_relaxed);
    for (std::size_t k = 1; k < n; ++k) {
        std::size_t s = (start + k) % n;
        std::int64_t load = inflight_[s].load(std::memory_order_relaxed);
        if (load < best_load) {
            best = s;
            best_load = load;
        }
    }
    return best;
}

std::size_t server_pool::route_get(std::string_view first_key, std::size_t& rr) {
    return hash_routing_ ? primary(first_key) : least_loaded(rr);
}

std::vector<std::uint16_t> even_chunks(std::size_t n, std::size_t servers) {
    std::vector<std::uint16_t> chunk(n);
    std::size_t m = std::min(n, servers);
    std::size_t base = m == 0 ? 0 : n / m;
    std::size_t extra = m == 0 ? 0 : n % m;
    std::size_t key = 0;
    for (std::size_t c = 0; c < m; ++c) {
        std::size_t len = base + (c < extra ? 1 : 0);
        for (std::size_t j = 0; j < len; ++j) {
            chunk[key++] = static_cast<std::uint16_t>(c);
        }
    }
    return chunk;
}

shard_plan server_pool::plan_multiget(const std::vector<std::string_view>& keys,
                                      std::size_t& rr) {
    shard_plan plan;
    plan.shard_of_key.resize(keys.size());
    if (hash_routing_) {
        for (std::size_t i = 0; i < keys.size(); ++i) {
            auto s = static_cast<std::uint16_t>(primary(keys[i]));
            auto it = std::find(plan.servers.begin(), plan.servers.end(), s);
            if (it == plan.servers.end()) {
                plan.servers.push_back(s);
                it = plan.servers.end() - 1;
            }
            plan.shard_of_key[i] = static_cast<std::uint16_t>(it - plan.servers.begin());
        }
        return plan;
    }
    plan.shard_of_key = even_chunks(keys.size(), servers_.size());
    std::size_t start = least_loaded(rr);
    std::size_t m = std::min(keys.size(), servers_.size());
    for (std::size_t c = 0; c < m; ++c) {
        plan.servers.push_back(static_cast<std::uint16_t>((start + c) % servers_.size()));
    }
    return plan;
}

}  // namespace mcscope
