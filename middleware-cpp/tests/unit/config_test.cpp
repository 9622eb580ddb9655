// Flag parsing: the report's command lines, defaults, and clear errors on bad flags.
#include "config.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "memory_budget.hpp"

namespace mcscope {
namespace {

config_result parse(std::vector<std::string> args) {
    std::vector<const char*> argv = {"mcscope-middleware"};
    for (const std::string& a : args) {
        argv.push_back(a.c_str());
    }
    return parse_args(static_cast<int>(argv.size()), argv.data());
}

TEST(Config, ReportCommandLine) {
    auto r = parse({"-l", "10.0.0.4", "-p", "11212", "-t", "64", "-s", "true", "-m",
                    "10.0.0.5:11211", "10.0.0.6:11211", "10.0.0.7:11211", "-r", "2",
                    "--stats-dir", "/tmp/x", "--window-ms", "500", "--sample-every", "5",
                    "--queue-capacity", "64"});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.cfg.listen_ip, "10.0.0.4");
    EXPECT_EQ(r.cfg.port, 11212);
    EXPECT_EQ(r.cfg.workers, 64u);
    EXPECT_TRUE(r.cfg.sharded);
    ASSERT_EQ(r.cfg.servers.size(), 3u);
    EXPECT_EQ(r.cfg.servers[2].str(), "10.0.0.7:11211");
    EXPECT_EQ(r.cfg.replication, 2u);
    EXPECT_TRUE(r.cfg.replication_given);
    EXPECT_EQ(r.cfg.stats_dir, "/tmp/x");
    EXPECT_EQ(r.cfg.window_ms, 500u);
    EXPECT_EQ(r.cfg.sample_every, 5u);
    EXPECT_EQ(r.cfg.queue_capacity, 64u);
}

TEST(Config, ReplicationDefaultsToAllServers) {
    auto r = parse({"-m", "h:1", "h:2"});
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.cfg.replication, 2u);
    EXPECT_FALSE(r.cfg.replication_given);
    EXPECT_FALSE(r.cfg.sharded);
}

TEST(Config, BadFlagsHaveClearMessages) {
    EXPECT_EQ(parse({}).error, "at least one memcached server is required (-m host:port)");
    EXPECT_EQ(parse({"-m", "h:1", "-t", "zero"}).error, "bad value for -t: 'zero'");
    EXPECT_EQ(parse({"-m", "h:1", "-t", "0"}).error, "bad value for -t: '0'");
    EXPECT_EQ(parse({"-m", "h:1", "-p", "70000"}).error, "bad value for -p: '70000'");
    EXPECT_EQ(parse({"-m", "h:1", "-s", "yes"}).error,
              "bad value for -s: 'yes' (use true or false)");
    EXPECT_EQ(parse({"-m", "nohost"}).error, "bad server for -m: 'nohost' (use host:port)");
    EXPECT_EQ(parse({"-m", "h:1", "-r", "2"}).error,
              "-r 2 exceeds the number of servers (1)");
    EXPECT_EQ(parse({"-m", "h:1", "--bogus", "1"}).error, "unknown flag --bogus");
    EXPECT_EQ(parse({"-m", "h:1", "-p"}).error, "missing value after -p");
}

TEST(Config, LimitFlags) {
    auto d = parse({"-m", "h:1"});
    ASSERT_TRUE(d.ok);
    EXPECT_EQ(d.cfg.max_connections, 16384u);
    EXPECT_EQ(d.cfg.max_reply_bytes, 16u << 20);
    EXPECT_EQ(d.cfg.client_idle_timeout_ms, 600'000u);
    EXPECT_EQ(d.cfg.client_write_timeout_ms, 30'000u);
    auto r = parse({"-m", "h:1", "--max-connections", "10", "--max-reply-bytes", "2048",
                    "--client-idle-timeout-ms", "0", "--client-write-timeout-ms", "250"});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.cfg.max_connections, 10u);
    EXPECT_EQ(r.cfg.max_reply_bytes, 2048u);
    EXPECT_EQ(r.cfg.client_idle_timeout_ms, 0u);
    EXPECT_EQ(r.cfg.client_write_timeout_ms, 250u);
    EXPECT_EQ(parse({"-m", "h:1", "--max-connections", "0"}).error,
              "bad value for --max-connections: '0'");
    EXPECT_EQ(parse({"-m", "h:1", "--max-reply-bytes", "1023"}).error,
              "bad value for --max-reply-bytes: '1023'");  // below the 1 KiB minimum
    EXPECT_EQ(parse({"-m", "h:1", "--max-reply-bytes", "2147483648"}).error,
              "bad value for --max-reply-bytes: '2147483648'");  // above 1 GiB
    EXPECT_EQ(parse({"-m", "h:1", "--client-idle-timeout-ms", "-1"}).error,
              "bad value for --client-idle-timeout-ms: '-1'");
}

TEST(Config, MemoryFlags) {
    auto d = parse({"-m", "h:1"});
    ASSERT_TRUE(d.ok);
    EXPECT_EQ(d.cfg.max_buffered_bytes, default_buffer_cap());  // resolved, never 0
    EXPECT_GE(d.cfg.max_buffered_bytes, kMinDefaultCap);
    EXPECT_EQ(d.cfg.client_body_timeout_ms, 5'000u);
    EXPECT_EQ(d.cfg.client_memory_timeout_ms, 5'000u);
    auto r = parse({"-m", "h:1", "--max-buffered-bytes", "1048576", "--client-body-timeout-ms",
                    "0", "--client-memory-timeout-ms", "250"});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.cfg.max_buffered_bytes, 1u << 20);
    EXPECT_EQ(r.cfg.client_body_timeout_ms, 0u);
    EXPECT_EQ(r.cfg.client_memory_timeout_ms, 250u);
    EXPECT_EQ(parse({"-m", "h:1", "--max-buffered-bytes", "1048575"}).error,
              "bad value for --max-buffered-bytes: '1048575'");  // below the 1 MiB minimum
    EXPECT_EQ(parse({"-m", "h:1", "--client-body-timeout-ms", "x"}).error,
              "bad value for --client-body-timeout-ms: 'x'");
}

TEST(Config, HelpAndDescribe) {
    EXPECT_TRUE(parse({"--help"}).help);
    EXPECT_TRUE(parse({"--describe-stats"}).describe_stats);
    EXPECT_NE(usage().find("--stats-dir"), std::string::npos);
}

}  // namespace
}  // namespace mcscope
