// Multi-get merge order and misses; replication outcome rule.
#include "reply_merge.hpp"

#include <gtest/gtest.h>

#include <string>

namespace mcscope {
namespace {

/// A parsed shard reply kept alive for the merge.
struct shard {
    std::string bytes;
    response_parser p;
    explicit shard(std::string b) : bytes(std::move(b)) {
        p.reset(response_parser::kind::retrieval);
        EXPECT_EQ(p.parse(bytes.data(), bytes.data() + bytes.size()), parse_result::good);
    }
    shard_reply view() const { return shard_reply{bytes, &p.values()}; }
};

std::string value(const std::string& k, const std::string& v) {
    return "VALUE " + k + " 0 " + std::to_string(v.size()) + "\r\n" + v + "\r\n";
}

TEST(ReplyMerge, ContiguousShardsInRequestOrderWithOneEnd) {
    shard s0(value("a", "1") + value("b", "2") + "END\r\n");
    shard s1(value("d", "4") + "END\r\n");  // c missed
    std::vector<std::string_view> keys = {"a", "b", "c", "d"};
    std::string out;
    std::uint32_t misses = merge_multiget(keys, {0, 0, 1, 1}, {s0.view(), s1.view()}, out);
    EXPECT_EQ(misses, 1u);
    EXPECT_EQ(out, value("a", "1") + value("b", "2") + value("d", "4") + "END\r\n");
}

TEST(ReplyMerge, InterleavedShardsAndDuplicates) {
    // Hash routing interleaves shards; a key asked twice is answered twice.
    shard s0(value("x", "10") + value("x", "10") + "END\r\n");
    shard s1(value("y", "20") + "END\r\n");
    std::vector<std::string_view> keys = {"x", "y", "x", "z"};
    std::string out;
    std::uint32_t misses = merge_multiget(keys, {0, 1, 0, 1}, {s0.view(), s1.view()}, out);
    EXPECT_EQ(misses, 1u);
    EXPECT_EQ(out, value("x", "10") + value("y", "20") + value("x", "10") + "END\r\n");
}

TEST(ReplyMerge, AllMissed) {
    shard s0("END\r\n");
    std::string out;
    EXPECT_EQ(merge_multiget({"a", "b"}, {0, 0}, {s0.view()}, out), 2u);
    EXPECT_EQ(out, "END\r\n");
}

TEST(ReplyMerge, ReplicationOutcome) {
    EXPECT_EQ(replicated_outcome({"STORED\r\n", "STORED\r\n", "STORED\r\n"}, "STORED\r\n"),
              "STORED\r\n");
    EXPECT_EQ(replicated_outcome({"STORED\r\n", "NOT_STORED\r\n", "SERVER_ERROR x\r\n"},
                                 "STORED\r\n"),
              "NOT_STORED\r\n");
    EXPECT_EQ(replicated_outcome({"SERVER_ERROR down\r\n", "STORED\r\n"}, "STORED\r\n"),
              "SERVER_ERROR down\r\n");
    EXPECT_EQ(replicated_outcome({"DELETED\r\n", "NOT_FOUND\r\n"}, "DELETED\r\n"),
              "NOT_FOUND\r\n");
}

}  // namespace
}  // namespace mcscope
