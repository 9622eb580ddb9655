// Request parser: real requests at every split point, pipelined batches, every bad-input class.
#include "request_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mcscope {
namespace {

/// What a parsed request looks like to the rest of the middleware.
struct parsed {
    command cmd;
    request_type type;
    std::string raw;
    std::vector<std::string> keys;
    std::string reply;
    bool noreply;
    bool bad;
    bool operator==(const parsed&) const = default;
};

/// Feeds stream to a parser in chunks cut at the given offsets, the way a connection does:
/// unconsumed bytes stay at the front of the buffer and new bytes are appended.
std::vector<parsed> run(const std::string& stream, const std::vector<std::size_t>& cuts,
                        parser_limits limits = {}) {
    request_parser p(limits);
    std::vector<parsed> out;
    std::string buf;
    std::size_t fed = 0;
    std::vector<std::size_t> ends = cuts;
    ends.push_back(stream.size());
    for (std::size_t end : ends) {
        buf.append(stream, fed, end - fed);
        fed = end;
        for (bool more = true; more && !buf.empty();) {
            request r;
            parse_outcome o = p.parse(buf.data(), buf.data() + buf.size(), r);
            buf.erase(0, o.consumed);
            more = o.result != parse_result::indeterminate;
            if (!more) {
                continue;
            }
            parsed x{r.cmd, r.type, r.raw, {}, r.reply, r.noreply, o.result == parse_result::bad};
            for (std::size_t i = 0; i < r.keys.size(); ++i) {
                x.keys.emplace_back(r.key(i));
            }
            out.push_back(x);
            if (x.bad) {
                return out;
            }
        }
    }
    return out;
}

const std::string kValue4096(4096, 'v');

std::vector<std::string> real_requests() {
    return {"get key:0001\r\n",
            "get a b c d e f g h i\r\n",
            "set key:0001 0 0 5\r\nhello\r\n",
            "set k 7 100 5 noreply\r\nhe\r\no\r\n",
            "set big 0 0 4096\r\n" + kValue4096 + "\r\n",
            "set empty 0 0 0\r\n\r\n",
            "delete key:0001\r\n",
            "delete k noreply\r\n",
            "version\r\n",
            "get lf-only\n"};
}

TEST(RequestParser, ParsesEachRealRequestWhole) {
    auto g = run("get key:0001\r\n", {});
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].cmd, command::get);
    EXPECT_EQ(g[0].type, request_type::get);
    EXPECT_EQ(g[0].keys, std::vector<std::string>{"key:0001"});

    auto m = run("get a b c d e f g h i\r\n", {});
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].type, request_type::multiget);
    EXPECT_EQ(m[0].keys.size(), 9u);
    EXPECT_EQ(m[0].keys[8], "i");

    auto s = run("set k 7 100 5 noreply\r\nhe\r\no\r\n", {});
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].cmd, command::set);
    EXPECT_TRUE(s[0].noreply);
    EXPECT_EQ(s[0].raw, "set k 7 100 5 noreply\r\nhe\r\no\r\n");
    EXPECT_EQ(s[0].keys, std::vector<std::string>{"k"});

    auto big = run("set big 0 0 4096\r\n" + kValue4096 + "\r\n", {});
    ASSERT_EQ(big.size(), 1u);
    EXPECT_EQ(big[0].raw.size(), 18u + 4096u + 2u);

    auto d = run("delete k noreply\r\n", {});
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].cmd, command::del);
    EXPECT_TRUE(d[0].noreply);
    EXPECT_EQ(run("version\r\n", {})[0].cmd, command::version);
    EXPECT_EQ(run("quit\r\n", {})[0].cmd, command::quit);
}

TEST(RequestParser, EverySplitPointGivesTheSameRequest) {
    for (const std::string& req : real_requests()) {
        auto whole = run(req, {});
        ASSERT_EQ(whole.size(), 1u) << req;
        for (std::size_t cut = 1; cut < req.size(); ++cut) {
            EXPECT_EQ(run(req, {cut}), whole) << "cut at " << cut << " of " << req.substr(0, 20);
        }
    }
}

TEST(RequestParser, ByteByByteAndPipelinedBatch) {
    std::string batch;
    for (const std::string& req : real_requests()) {
        batch += req;
    }
    auto whole = run(batch, {});
    ASSERT_EQ(whole.size(), real_requests().size());
    std::vector<std::size_t> every_byte;
    for (std::size_t i = 1; i < batch.size(); ++i) {
        every_byte.push_back(i);
    }
    EXPECT_EQ(run(batch, every_byte), whole);
    for (std::size_t cut = 1; cut < batch.size(); cut += 7) {
        EXPECT_EQ(run(batch, {cut, std::min(cut + 4100, batch.size())}), whole) << cut;
    }
}

/// A connection reuses written requests as parse targets: what a reused one parses must equal
/// a fresh parse, with nothing left of the request it carried before (reply, times, keys, flags).
TEST(RequestParser, ReusedRequestCarriesNothingOver) {
    std::vector<std::string> inputs = real_requests();
    inputs.push_back("bogus\r\n");
    inputs.push_back("get " + std::string(300, 'k') + "\r\n");
    for (const std::string& before : inputs) {
        for (const std::string& next : inputs) {
            request_parser p;
            request r;
            ASSERT_EQ(p.parse(before.data(), before.data() + before.size(), r).result,
                      parse_result::good);
            r.reply = "VALUE x 0 1\r\ny\r\nEND\r\n";  // as a worker leaves it
            r.misses = 3;
            r.servers = 2;
            r.server_mask = 6;
            r.close_after = true;
            r.t.written = 42;
            request fresh;
            request_parser q;
            parse_outcome want = q.parse(next.data(), next.data() + next.size(), fresh);
            parse_outcome got = p.parse(next.data(), next.data() + next.size(), r);
            ASSERT_EQ(got.result, want.result) << before << " then " << next;
            EXPECT_EQ(got.consumed, want.consumed);
            EXPECT_EQ(r.cmd, fresh.cmd);
            EXPECT_EQ(r.type, fresh.type);
            EXPECT_EQ(r.raw, fresh.raw);
            EXPECT_EQ(r.reply, fresh.reply);
            EXPECT_EQ(r.noreply, fresh.noreply);
            EXPECT_EQ(r.noreply_offset, fresh.noreply_offset);
            EXPECT_EQ(r.value_length, fresh.value_length);
            EXPECT_EQ(r.line_length, fresh.line_length);
            EXPECT_EQ(r.error, fresh.error);
            EXPECT_FALSE(r.close_after);
            EXPECT_EQ(r.misses, 0u);
            EXPECT_EQ(r.servers, 0u);
            EXPECT_EQ(r.server_mask, 0u);
            EXPECT_EQ(r.t.written, 0);
            ASSERT_EQ(r.keys.size(), fresh.keys.size());
            for (std::size_t i = 0; i < r.keys.size(); ++i) {
                EXPECT_EQ(r.key(i), fresh.key(i));
            }
        }
    }
}

TEST(RequestParser, ResetKeepsTheBuffers) {
    request r;
    r.raw.assign(8000, 'x');
    r.reply.assign(5000, 'y');
    r.keys.resize(10);
    const char* raw = r.raw.data();
    const char* reply = r.reply.data();
    r.reset();
    EXPECT_TRUE(r.raw.empty());
    EXPECT_TRUE(r.reply.empty());
    EXPECT_TRUE(r.keys.empty());
    EXPECT_EQ(r.raw.data(), raw);  // same allocation: the next request of that size needs none
    EXPECT_EQ(r.reply.data(), reply);
    EXPECT_GE(r.keys.capacity(), 10u);
}

/// One bad input and the reply memcached gives to it.
struct bad_case {
    std::string input;
    std::string reply;
};

TEST(RequestParser, BadInputsGetMemcachedReplies) {
    std::vector<bad_case> cases = {
        {"bogus\r\n", "ERROR\r\n"},
        {"\r\n", "ERROR\r\n"},
        {"get\r\n", "ERROR\r\n"},
        {"GET k\r\n", "ERROR\r\n"},
        {"gets k\r\n", "ERROR\r\n"},
        {"get " + std::string(251, 'k') + "\r\n", "CLIENT_ERROR bad command line format\r\n"},
        {"set k 0 0\r\n", "ERROR\r\n"},
        {"set k 0 0 5 noreply extra\r\n", "ERROR\r\n"},
        {"set k x 0 5\r\n", "CLIENT_ERROR bad command line format\r\n"},
        {"set k 0 0 -1\r\n", "CLIENT_ERROR bad command line format\r\n"},
        {"set k 0 0 5x\r\n", "CLIENT_ERROR bad command line format\r\n"},
        {"set k 0 0 99999999999999999999\r\n", "CLIENT_ERROR bad command line format\r\n"},
        {"set " + std::string(251, 'k') + " 0 0 1\r\n", "CLIENT_ERROR bad command line format\r\n"},
        {"delete\r\n", "CLIENT_ERROR bad command line format\r\n"},
        {"delete k 5\r\n", "CLIENT_ERROR bad command line format\r\n"},
        {std::string("\x80\x01\x00\x00" "garbage\xff\r\n", 14), "ERROR\r\n"},
    };
    for (const bad_case& c : cases) {
        auto out = run(c.input + "get ok\r\n", {});
        ASSERT_EQ(out.size(), 2u) << c.input;
        EXPECT_EQ(out[0].cmd, command::local_reply) << c.input;
        EXPECT_EQ(out[0].reply, c.reply) << c.input;
        EXPECT_FALSE(out[0].bad) << c.input;
        EXPECT_EQ(out[1].keys, std::vector<std::string>{"ok"}) << "resync after " << c.input;
    }
}

TEST(RequestParser, ValueLongerThanAnnouncedIsBadDataChunk) {
    auto out = run("set k 0 0 3\r\nhello\r\nget ok\r\n", {});
    ASSERT_GE(out.size(), 2u);
    EXPECT_EQ(out[0].reply, "CLIENT_ERROR bad data chunk\r\n");
    // Like memcached, the leftover "lo\r\n" is read as a command, then the stream is in sync.
    EXPECT_EQ(out[1].reply, "ERROR\r\n");
    EXPECT_EQ(out.back().keys, std::vector<std::string>{"ok"});
}

TEST(RequestParser, TooLargeValueIsSwallowedAtEverySplit) {
    parser_limits limits;
    limits.max_value = 10;
    std::string stream = "set k 0 0 20\r\n" + std::string(20, 'x') + "\r\nget ok\r\n";
    auto whole = run(stream, {}, limits);
    ASSERT_EQ(whole.size(), 2u);
    EXPECT_EQ(whole[0].reply, "SERVER_ERROR object too large for cache\r\n");
    EXPECT_EQ(whole[1].keys, std::vector<std::string>{"ok"});
    for (std::size_t cut = 1; cut < stream.size(); ++cut) {
        EXPECT_EQ(run(stream, {cut}, limits), whole) << cut;
    }
}

TEST(RequestParser, OverlongLineIsBadAndCloses) {
    parser_limits limits;
    limits.max_line = 64;
    auto out = run(std::string(100, 'a'), {10, 50}, limits);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(out[0].bad);
    EXPECT_EQ(out[0].reply, "CLIENT_ERROR line too long\r\n");
}

TEST(RequestParser, IncompleteInputNeedsMore) {
    request_parser p;
    request r;
    std::string part = "set k 0 0 10\r\nabc";
    parse_outcome o = p.parse(part.data(), part.data() + part.size(), r);
    EXPECT_EQ(o.result, parse_result::indeterminate);
    EXPECT_EQ(o.consumed, 0u);
}

TEST(RequestParser, ForwardBytesDropsNoreply) {
    auto parse_one = [](const std::string& s) {
        request_parser p;
        request r;
        p.parse(s.data(), s.data() + s.size(), r);
        return forward_bytes(r);
    };
    EXPECT_EQ(parse_one("set k 1 2 3 noreply\r\nabc\r\n"), "set k 1 2 3\r\nabc\r\n");
    EXPECT_EQ(parse_one("set k 1 2 3\r\nabc\r\n"), "set k 1 2 3\r\nabc\r\n");
    EXPECT_EQ(parse_one("delete k 0 noreply\r\n"), "delete k\r\n");
    EXPECT_EQ(parse_one("delete k\r\n"), "delete k\r\n");
}

}  // namespace
}  // namespace mcscope
