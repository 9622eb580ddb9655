// Request parser: line scanning with memchr, token checks mirroring memcached's ASCII protocol.
#include "request_parser.hpp"

#include <array>
#include <charconv>
#include <cstring>
#include <string_view>

namespace mcscope {
namespace {

constexpr std::size_t kMaxFixedTokens = 8;  // set has at most 6 tokens; more is a format error
constexpr const char* kError = "ERROR\r\n";
constexpr const char* kBadFormat = "CLIENT_ERROR bad command line format\r\n";
constexpr const char* kBadChunk = "CLIENT_ERROR bad data chunk\r\n";
constexpr const char* kTooLarge = "SERVER_ERROR object too large for cache\r\n";
constexpr const char* kLineTooLong = "CLIENT_ERROR line too long\r\n";

/// A token as a slice of the line (offset from the line start).
struct token {
    std::size_t offset;
    std::string_view text;
};

/// Splits the line (without its newline) on spaces into at most out.size() tokens; returns the
/// total number of tokens, which may exceed out.size().
std::size_t tokenize(std::string_view line, std::array<token, kMaxFixedTokens>& out) {
    std::size_t count = 0;
    std::size_t pos = 0;
    while (pos < line.size()) {
        if (line[pos] == ' ') {
            ++pos;
            continue;
        }
        std::size_t stop = line.find(' ', pos);
        if (stop == std::string_view::npos) {
            stop = line.size();
        }
        if (count < out.size()) {
            out[count] = token{pos, line.substr(pos, stop - pos)};
        }
        ++count;
        pos = stop;
    }
    return count;
}

/// The line without "\n" or "\r\n".
std::string_view line_text(const char* begin, std::size_t line_len) {
    std::size_t n = line_len - 1;
    if (n > 0 && begin[n - 1] == '\r') {
        --n;
    }
    return std::string_view(begin, n);
}

template <typename Int>
bool parse_int(std::string_view text, Int& out) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size() && !text.empty();
}

}  // namespace

void request_parser::reset() {
    state_ = state::line;
    scanned_ = 0;
    need_ = 0;
    swallow_left_ = 0;
}

parse_outcome request_parser::parse(const char* begin, const char* end, request& req) {
    std::size_t swallowed = 0;
    if (state_ == state::swallow) {
        std::size_t avail = static_cast<std::size_t>(end - begin);
        swallowed = avail < swallow_left_ ? avail : swallow_left_;
        swallow_left_ -= swallowed;
        if (swallow_left_ > 0) {
            return {parse_result::indeterminate, swallowed};
        }
        state_ = state::line;
        begin += swallowed;
    }
    parse_outcome out = state_ == state::data ? parse_data(begin, end, req)
                                              : parse_line(begin, end, req);
    out.consumed += swallowed;
    return out;
}

parse_outcome request_parser::parse_line(const char* begin, const char* end, request& req) {
    std::size_t avail = static_cast<std::size_t>(end - begin);
    std::size_t limit = avail < limits_.max_line ? avail : limits_.max_line;
    const void* nl = limit > scanned_ ? std::memchr(begin + scanned_, '\n', limit - scanned_)
                                      : nullptr;
    if (nl == nullptr) {
        if (avail >= limits_.max_line) {
            // No newline within the limit: the stream cannot be resynchronised, so close.
            reset();
            parse_outcome out = local_reply(req, kLineTooLong, avail);
            req.close_after = true;
            return {parse_result::bad, out.consumed};
        }
        scanned_ = limit;
        return {parse_result::indeterminate, 0};
    }
    scanned_ = 0;
    std::size_t line_len = static_cast<std::size_t>(static_cast<const char*>(nl) - begin) + 1;
    parse_outcome out = finish_line(begin, line_len, req);
    if (state_ == state::data) {
        return parse_data(begin, end, req);  // the value may already be in the buffer
    }
    return out;
}

parse_outcome request_parser::finish_line(const char* begin, std::size_t line_len, request& req) {
    std::string_view line = line_text(begin, line_len);
    std::size_t cmd_end = line.find(' ');
    std::string_view cmd = line.substr(0, cmd_end);
    if (cmd == "get") {
        return parse_get(begin, line_len, req);
    }
    if (cmd == "set") {
        return parse_set(begin, line_len, req);
    }
    if (cmd == "delete") {
        return parse_delete(begin, line_len, req);
    }
    if (cmd == "version" || cmd == "quit") {
        req.reset();
        req.cmd = cmd == "version" ? command::version : command::quit;
        req.type = request_type::other;
        req.raw.assign(begin, line_len);
        req.line_length = static_cast<std::uint32_t>(line_len);
        return {parse_result::good, line_len};
    }
    return local_reply(req, kError, line_len);
}

parse_outcome request_parser::parse_get(const char* begin, std::size_t line_len, request& req) {
    req.reset();
    std::string_view line = line_text(begin, line_len);
    std::size_t pos = 3;  // after "get"
    while (pos < line.size()) {
        if (line[pos] == ' ') {
            ++pos;
            continue;
        }
        std::size_t stop = line.find(' ', pos);
        if (stop == std::string_view::npos) {
            stop = line.size();
        }
        if (stop - pos > limits_.max_key) {
            return local_reply(req, kBadFormat, line_len);
        }
        req.keys.push_back(key_ref{static_cast<std::uint32_t>(pos),
                                   static_cast<std::uint32_t>(stop - pos)});
        pos = stop;
    }
    if (req.keys.empty()) {
        return local_reply(req, kError, line_len);
    }
    req.cmd = command::get;
    req.type = req.keys.size() == 1 ? request_type::get : request_type::multiget;
    req.raw.assign(begin, line_len);
    req.line_length = static_cast<std::uint32_t>(line_len);
    return {parse_result::good, line_len};
}

parse_outcome request_parser::parse_set(const char* begin, std::size_t line_len, request& req) {
    std::array<token, kMaxFixedTokens> tok{};
    std::size_t n = tokenize(line_text(begin, line_len), tok);
    if (n != 5 && n != 6) {
        return local_reply(req, kError, line_len);
    }
    std::uint32_t flags = 0;
    std::int32_t exptime = 0;
    std::int64_t bytes = 0;
    bool numbers_ok = parse_int(tok[2].text, flags) && parse_int(tok[3].text, exptime) &&
                      parse_int(tok[4].text, bytes) && bytes >= 0;
    if (tok[1].text.size() > limits_.max_key || !numbers_ok) {
        return local_reply(req, kBadFormat, line_len);
    }
    if (static_cast<std::uint64_t>(bytes) > limits_.max_value) {
        // Like memcached: refuse, then discard the announced value so the stream stays in sync.
        parse_outcome out = local_reply(req, kTooLarge, line_len);
        state_ = state::swallow;
        swallow_left_ = static_cast<std::size_t>(bytes) + 2;
        return out;
    }
    noreply_ = n == 6 && tok[5].text == "noreply";
    noreply_off_ = noreply_ ? static_cast<std::uint32_t>(tok[5].offset - 1) : 0;
    key_off_ = static_cast<std::uint32_t>(tok[1].offset);
    key_len_ = static_cast<std::uint32_t>(tok[1].text.size());
    value_len_ = static_cast<std::uint32_t>(bytes);
    line_len_ = line_len;
    need_ = line_len + static_cast<std::size_t>(bytes) + 2;
    state_ = state::data;
    return {parse_result::indeterminate, 0};
}

parse_outcome request_parser::parse_data(const char* begin, const char* end, request& req) {
    if (static_cast<std::size_t>(end - begin) < need_) {
        return {parse_result::indeterminate, 0};
    }
    state_ = state::line;
    if (begin[need_ - 2] != '\r' || begin[need_ - 1] != '\n') {
        return local_reply(req, kBadChunk, need_);
    }
    req.reset();
    req.cmd = command::set;
    req.type = request_type::set;
    req.raw.assign(begin, need_);
    req.keys.push_back(key_ref{key_off_, key_len_});
    req.line_length = static_cast<std::uint32_t>(line_len_);
    req.value_length = value_len_;
    req.noreply = noreply_;
    req.noreply_offset = noreply_off_;
    return {parse_result::good, need_};
}

parse_outcome request_parser::parse_delete(const char* begin, std::size_t line_len,
                                           request& req) {
    std::array<token, kMaxFixedTokens> tok{};
    std::size_t n = tokenize(line_text(begin, line_len), tok);
    // memcached accepts "delete k", "delete k noreply", "delete k 0" and "delete k 0 noreply".
    bool noreply = n >= 3 && n <= 4 && tok[n - 1].text == "noreply";
    bool hold_zero = n >= 3 && n <= 4 && tok[2].text == "0";
    bool valid = n == 2 || (n == 3 && (hold_zero || noreply)) || (n == 4 && hold_zero && noreply);
    if (n < 2 || !valid || tok[1].text.size() > limits_.max_key) {
        return local_reply(req, kBadFormat, line_len);
    }
    req.reset();
    req.cmd = command::del;
    req.type = request_type::other;
    req.raw.assign(begin, line_len);
    req.keys.push_back(key_ref{static_cast<std::uint32_t>(tok[1].offset),
                               static_cast<std::uint32_t>(tok[1].text.size())});
    req.line_length = static_cast<std::uint32_t>(line_len);
    req.noreply = noreply;
    // Forward only "delete <key>": the hold time is legacy and noreply is handled here.
    req.noreply_offset = noreply || hold_zero
                             ? static_cast<std::uint32_t>(tok[1].offset + tok[1].text.size())
                             : 0;
    return {parse_result::good, line_len};
}

parse_outcome request_parser::local_reply(request& req, const char* text, std::size_t consumed) {
    req.reset();
    req.cmd = command::local_reply;
    req.type = request_type::other;
    req.reply = text;
    req.error = true;
    return {parse_result::good, consumed};
}

std::string forward_bytes(const request& req) {
    if (req.noreply_offset == 0) {
        return req.raw;
    }
    std::string out;
    out.reserve(req.raw.size());
    out.append(req.raw, 0, req.noreply_offset);
    out.append("\r\n");
    out.append(req.raw, req.line_length, std::string::npos);
    return out;
}

}  // namespace mcscope
