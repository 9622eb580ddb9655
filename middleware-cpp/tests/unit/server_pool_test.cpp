// Key distribution, replica sets and shard splitting.
#include "server_pool.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

namespace mcscope {
namespace {

std::vector<server_address> servers(std::size_t n) {
    std::vector<server_address> out;
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back(server_address{"127.0.0.1", static_cast<std::uint16_t>(11211 + i)});
    }
    return out;
}

TEST(ServerPool, PrimaryIsStableAndSpreadsKeys) {
    server_pool pool(servers(3), 1, true, false);
    std::map<std::size_t, int> count;
    for (int i = 0; i < 3000; ++i) {
        std::string key = "key:" + std::to_string(i);
        std::size_t p = pool.primary(key);
        ASSERT_LT(p, 3u);
        EXPECT_EQ(p, pool.primary(key));
        ++count[p];
    }
    for (auto& [server, n] : count) {
        EXPECT_GT(n, 800) << server;  // FNV-1a spreads sequential keys roughly evenly
    }
}

TEST(ServerPool, ReplicasStartAtPrimaryAndWrap) {
    server_pool pool(servers(5), 3, true, false);
    for (int i = 0; i < 50; ++i) {
        std::string key = "k" + std::to_string(i);
        std::size_t p = pool.primary(key);
        std::set<std::size_t> distinct;
        for (std::size_t r = 0; r < 3; ++r) {
            EXPECT_EQ(pool.replica(key, r), (p + r) % 5);
            distinct.insert(pool.replica(key, r));
        }
        EXPECT_EQ(distinct.size(), 3u);
    }
}

TEST(ServerPool, EvenChunksDifferByAtMostOne) {
    for (std::size_t n = 1; n <= 20; ++n) {
        for (std::size_t s = 1; s <= 7; ++s) {
            auto chunk = even_chunks(n, s);
            std::map<std::uint16_t, std::size_t> sizes;
            for (std::size_t i = 0; i < n; ++i) {
                ++sizes[chunk[i]];
                if (i > 0) {
                    EXPECT_GE(chunk[i], chunk[i - 1]);  // contiguous, in key order
                }
            }
            EXPECT_EQ(sizes.size(), std::min(n, s));
            std::size_t lo = n, hi = 0;
            for (auto& [c, len] : sizes) {
                lo = std::min(lo, len);
                hi = std::max(hi, len);
            }
            EXPECT_LE(hi - lo, 1u) << n << " keys on " << s;
        }
    }
}

TEST(ServerPool, ShardPlanNineKeysThreeServers) {
    server_pool pool(servers(3), 3, false, true);
    std::vector<std::string> names = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
    std::vector<std::string_view> keys(names.begin(), names.end());
    std::size_t rr = 0;
    shard_plan plan = pool.plan_multiget(keys, rr);
    ASSERT_EQ(plan.servers.size(), 3u);
    EXPECT_EQ(std::set<std::uint16_t>(plan.servers.begin(), plan.servers.end()).size(), 3u);
    EXPECT_EQ(plan.shard_of_key, (std::vector<std::uint16_t>{0, 0, 0, 1, 1, 1, 2, 2, 2}));
}

TEST(ServerPool, ShardPlanUnderHashingFollowsPrimaries) {
    server_pool pool(servers(3), 1, true, true);
    std::vector<std::string> names;
    for (int i = 0; i < 9; ++i) {
        names.push_back("key:" + std::to_string(i));
    }
    std::vector<std::string_view> keys(names.begin(), names.end());
    std::size_t rr = 0;
    shard_plan plan = pool.plan_multiget(keys, rr);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        EXPECT_EQ(plan.servers[plan.shard_of_key[i]], pool.primary(keys[i]));
    }
}

TEST(ServerPool, LeastLoadedAvoidsBusyServer) {
    server_pool pool(servers(3), 3, false, false);
    pool.begin(0);
    pool.begin(1);
    std::size_t rr = 0;
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(pool.route_get("k", rr), 2u);
    }
    pool.end(0);
    pool.end(1);
    std::set<std::size_t> used;
    for (int i = 0; i < 3; ++i) {
        used.insert(pool.route_get("k", rr));
    }
    EXPECT_EQ(used.size(), 3u);  // ties rotate round-robin
}

}  // namespace
}  // namespace mcscope
