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

}  // namespace
}  // namespace mcscope
