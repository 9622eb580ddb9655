// Server addresses and routing: key hashing, replica sets, least-loaded choice, shard plans.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcscope {

/// host:port of one memcached server.
struct server_address {
    std::string host;
    std::uint16_t port = 0;
    std::string str() const { return host + ":" + std::to_string(port); }
};

/// Which server gets which keys of a multi-get.
struct shard_plan {
    std::vector<std::uint16_t> shard_of_key;  ///< index into servers for each key
    std::vector<std::uint16_t> servers;       ///< distinct servers used, in first-use order
};

/// Routing decisions shared by all workers. Thread-safe: only the in-flight counters mutate.
class server_pool {
public:
    /// replication: replicas per set/delete (R); hash_routing: gets go to the key's primary
    /// (true when -r was given); sharded: multi-gets are split across servers.
    server_pool(std::vector<server_address> servers, std::size_t replication, bool hash_routing,
                bool sharded);
    server_pool(const server_pool&) = delete;
    server_pool& operator=(const server_pool&) = delete;

    std::size_t size() const { return servers_.size(); }
    const server_address& address(std::size_t i) const { return servers_[i]; }
    std::size_t replication() const { return replication_; }

    /// Primary server of a key: FNV-1a hash modulo the server count.
    std::size_t primary(std::string_view key) const;
    /// The i-th replica of a key (i < replication()): primary, primary+1, ... modulo size.
    std::size_t replica(std::string_view key, std::size_t i) const;
    /// Server for a single get or an unsharded multi-get (first key decides under hashing).
    std::size_t route_get(std::string_view first_key, std::size_t& rr);
    /// Shard plan for a sharded multi-get: keys by primary under hashing, otherwise contiguous
    /// chunks of near-equal size over consecutive servers starting at the least-loaded one.
    shard_plan plan_multiget(const std::vector<std::string_view>& keys, std::size_t& rr);

    /// In-flight accounting for least-loaded routing.
    void begin(std::size_t s) { inflight_[s].fetch_add(1, std::memory_order_relaxed); }
    void end(std::size_t s) { inflight_[s].fetch_sub(1, std::memory_order_relaxed); }

    bool sharded() const { return sharded_; }

private:
    std::size_t least_loaded(std::size_t& rr) const;

    std::vector<server_address> servers_;
    std::size_t replication_;
    bool hash_routing_;
    bool sharded_;
    std::unique_ptr<std::atomic<std::int64_t>[]> inflight_;
};

/// Splits n keys into m = min(n, servers) contiguous chunks whose sizes differ by at most one;
/// returns the chunk index of each key.
std::vector<std::uint16_t> even_chunks(std::size_t n, std::size_t servers);

}  // namespace mcscope
