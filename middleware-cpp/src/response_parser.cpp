// Reply parser: VALUE blocks are validated and indexed so sharded multi-gets can be merged.
#include "response_parser.hpp"

#include <charconv>
#include <cstring>
#include <string_view>

namespace mcscope {
namespace {

constexpr std::string_view kValuePrefix = "VALUE ";

/// Parses "VALUE <key> <flags> <bytes> [<cas>]"; returns false on a malformed line.
bool parse_value_line(std::string_view line, std::size_t& key_off, std::size_t& key_len,
                      std::size_t& bytes) {
    std::size_t pos = kValuePrefix.size();
    std::size_t key_end = line.find(' ', pos);
    if (key_end == std::string_view::npos || key_end == pos) {
        return false;
    }
    std::size_t flags_end = line.find(' ', key_end + 1);
    if (flags_end == std::string_view::npos) {
        return false;
    }
    std::size_t bytes_end = line.find(' ', flags_end + 1);
    if (bytes_end == std::string_view::npos) {
        bytes_end = line.size();
    }
    const char* first = line.data() + flags_end + 1;
    const char* last = line.data() + bytes_end;
    auto [ptr, ec] = std::from_chars(first, last, bytes);
    key_off = pos;
    key_len = key_end - pos;
    return ec == std::errc() && ptr == last && first != last;
}

}  // namespace

void response_parser::reset(kind k) {
    kind_ = k;
    pos_ = 0;
    scanned_ = 0;
    error_line_ = false;
    too_large_ = false;
    values_.clear();
}

parse_result response_parser::parse(const char* begin, const char* end) {
    for (;;) {
        std::size_t avail = static_cast<std::size_t>(end - begin) - pos_;
        const char* line = begin + pos_;
        const void* nl = avail > scanned_ ? std::memchr(line + scanned_, '\n', avail - scanned_)
                                          : nullptr;
        if (nl == nullptr) {
            scanned_ = avail;
            return avail > kMaxReplyLine ? parse_result::bad : parse_result::indeterminate;
        }
        std::size_t line_len = static_cast<std::size_t>(static_cast<const char*>(nl) - line) + 1;
        if (line_len > kMaxReplyLine + 1) {
            return parse_result::bad;  // the newline came, but far too late
        }
        std::string_view text(line, line_len - 1);
        if (!text.empty() && text.back() == '\r') {
            text.remove_suffix(1);
        }
        if (kind_ == kind::line || !text.starts_with(kValuePrefix)) {
            error_line_ = is_error_reply(text);
            if (kind_ != kind::line && text != "END" && !error_line_) {
                return parse_result::bad;  // consumed() stays at the last complete block
            }
            pos_ += line_len;
            scanned_ = 0;
            return parse_result::good;
        }
        std::size_t key_off = 0;
        std::size_t key_len = 0;
        std::size_t bytes = 0;
        if (!parse_value_line(text, key_off, key_len, bytes)) {
            return parse_result::bad;
        }
        // pos_ <= max_reply_ and line_len <= kMaxReplyLine + 1, so after the first test the sum
        // cannot wrap; the second keeps the whole reply (every block, then END) within the cap.
        if (bytes > max_reply_ || line_len + bytes + 2 > max_reply_ - pos_) {
            too_large_ = true;
            return parse_result::bad;
        }
        std::size_t block = line_len + bytes + 2;
        if (avail < block) {
            scanned_ = 0;  // the line is rescanned once the data is in; it is short
            return parse_result::indeterminate;
        }
        if (line[block - 2] != '\r' || line[block - 1] != '\n') {
            return parse_result::bad;
        }
        values_.push_back(value_block{static_cast<std::uint32_t>(pos_),
                                      static_cast<std::uint32_t>(block),
                                      static_cast<std::uint32_t>(pos_ + key_off),
                                      static_cast<std::uint32_t>(key_len)});
        pos_ += block;
        scanned_ = 0;
    }
}

}  // namespace mcscope
