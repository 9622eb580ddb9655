// Server reply parser: VALUE blocks at every split point, error lines, protocol violations.
#include "response_parser.hpp"

#include <gtest/gtest.h>

#include <string>

namespace mcscope {
namespace {

const std::string kTwoValues =
    "VALUE a 0 5\r\nhello\r\nVALUE bb 3 4096 77\r\n" + std::string(4096, 'x') + "\r\nEND\r\n";

TEST(ResponseParser, RetrievalWithBlocks) {
    response_parser p;
    p.reset(response_parser::kind::retrieval);
    ASSERT_EQ(p.parse(kTwoValues.data(), kTwoValues.data() + kTwoValues.size()),
              parse_result::good);
    EXPECT_EQ(p.consumed(), kTwoValues.size());
    ASSERT_EQ(p.values().size(), 2u);
    EXPECT_EQ(kTwoValues.substr(p.values()[1].key_offset, p.values()[1].key_length), "bb");
    EXPECT_EQ(kTwoValues.substr(p.values()[0].offset, p.values()[0].length),
              "VALUE a 0 5\r\nhello\r\n");
    EXPECT_FALSE(p.error_line());
}

TEST(ResponseParser, EverySplitPoint) {
    for (std::size_t cut = 0; cut < kTwoValues.size(); ++cut) {
        response_parser p;
        p.reset(response_parser::kind::retrieval);
        // The buffer grows: the parser sees a prefix, then the whole reply.
        ASSERT_EQ(p.parse(kTwoValues.data(), kTwoValues.data() + cut),
                  parse_result::indeterminate) << cut;
        ASSERT_EQ(p.parse(kTwoValues.data(), kTwoValues.data() + kTwoValues.size()),
                  parse_result::good) << cut;
        ASSERT_EQ(p.values().size(), 2u);
    }
}

TEST(ResponseParser, ErrorAndLineReplies) {
    response_parser p;
    std::string err = "SERVER_ERROR out of memory\r\n";
    p.reset(response_parser::kind::retrieval);
    EXPECT_EQ(p.parse(err.data(), err.data() + err.size()), parse_result::good);
    EXPECT_TRUE(p.error_line());
    std::string stored = "STORED\r\n";
    p.reset(response_parser::kind::line);
    EXPECT_EQ(p.parse(stored.data(), stored.data() + 3), parse_result::indeterminate);
    EXPECT_EQ(p.parse(stored.data(), stored.data() + stored.size()), parse_result::good);
    EXPECT_FALSE(p.error_line());
    EXPECT_EQ(p.consumed(), stored.size());
}

TEST(ResponseParser, ProtocolViolationsAreBad) {
    for (std::string bad : {"STORED\r\n", "VALUE a 0 zz\r\n", "VALUE a 0 2\r\nabcd\r\nEND\r\n"}) {
        response_parser p;
        p.reset(response_parser::kind::retrieval);
        EXPECT_EQ(p.parse(bad.data(), bad.data() + bad.size()), parse_result::bad) << bad;
    }
}

parse_result parse_all(response_parser& p, const std::string& reply) {
    p.reset(response_parser::kind::retrieval);
    return p.parse(reply.data(), reply.data() + reply.size());
}

// Announced lengths whose block size line_len + bytes + 2 would wrap in size_t, or that do not
// fit in size_t at all: each is refused at once instead of waiting for (and buffering) data
// that can never complete the block.
TEST(ResponseParser, HugeOrWrappingLengthsAreRefusedNotAwaited) {
    const std::string cases[] = {
        "VALUE a 0 18446744073709551615\r\n",  // SIZE_MAX: block = line_len + 1 after wrap
        "VALUE a 0 18446744073709551614\r\nabcdEND\r\n",  // block = line_len: "fits" at once
        "VALUE a 0 18446744073709551600\r\n",
        "VALUE a 0 4294967296\r\n",  // 2^32: would truncate the 32-bit block offsets
    };
    for (const std::string& c : cases) {
        response_parser p;
        EXPECT_EQ(parse_all(p, c), parse_result::bad) << c;
        EXPECT_TRUE(p.too_large()) << c;
        EXPECT_TRUE(p.values().empty()) << c;
    }
}

TEST(ResponseParser, MalformedValueLinesAreBad) {
    const std::string cases[] = {
        "VALUE a 0 18446744073709551616\r\n",  // 2^64: does not parse as a size
        "VALUE a 0 -1\r\n",
        "VALUE a 0 +5\r\nhello\r\nEND\r\n",
        "VALUE a 0 5x\r\nhello\r\nEND\r\n",
        "VALUE a 0 \r\n",
        "VALUE a 0\r\n",
        "VALUE a\r\n",
        "VALUE  0 5\r\nhello\r\nEND\r\n",  // empty key
        "VALUE a 0 5\r\nhelloXYEND\r\n",       // data not followed by \r\n
        "VALUE a 0 5\r\nhello\r\nSTORED\r\n",  // neither VALUE nor END
        "VALUE a 0 " + std::string(5000, '1') + "\r\n",  // line beyond the line cap
        std::string(5000, 'x'),                         // no newline within the line cap
    };
    for (const std::string& c : cases) {
        response_parser p;
        EXPECT_EQ(parse_all(p, c), parse_result::bad) << c.substr(0, 60);
        EXPECT_FALSE(p.too_large()) << c.substr(0, 60);
    }
}

TEST(ResponseParser, ABadLineIsNotCounted) {
    // Found by the fuzzer: consumed() must stay at the last complete block (within the cap).
    response_parser p(1024);
    std::string reply = "VALUE a 0 5\r\nhello\r\nSTORED\r\n";
    EXPECT_EQ(parse_all(p, reply), parse_result::bad);
    EXPECT_EQ(p.consumed(), std::string("VALUE a 0 5\r\nhello\r\n").size());
}

TEST(ResponseParser, WholeReplyCapCountsEveryBlock) {
    // Two 700-byte values fit a 1,300-byte cap alone but not together.
    std::string block = "VALUE a 0 700\r\n" + std::string(700, 'v') + "\r\n";
    response_parser one(1300);
    EXPECT_EQ(parse_all(one, block + "END\r\n"), parse_result::good);
    response_parser two(1300);
    EXPECT_EQ(parse_all(two, block + block + "END\r\n"), parse_result::bad);
    EXPECT_TRUE(two.too_large());
    // The refusal comes from the header alone, before any of the second value's data.
    response_parser early(1300);
    EXPECT_EQ(parse_all(early, block + "VALUE b 0 700\r\n"), parse_result::bad);
    EXPECT_TRUE(early.too_large());
    // reset() clears the flag for the next reply.
    early.reset(response_parser::kind::retrieval);
    EXPECT_FALSE(early.too_large());
}

}  // namespace
}  // namespace mcscope
