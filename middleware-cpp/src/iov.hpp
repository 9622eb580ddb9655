// Gathered-send bookkeeping shared by the client and server sides.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <span>

namespace mcscope {

/// After a gathered send wrote n bytes of iov: returns how many leading buffers went out whole
/// and trims the partly sent one, so iov[returned..] is what is left to send.
inline std::size_t advance_iov(std::span<iovec> iov, std::size_t n) {
    std::size_t i = 0;
    while (i < iov.size() && n >= iov[i].iov_len) {
        n -= iov[i].iov_len;
        ++i;
    }
    if (i < iov.size()) {
        iov[i].iov_base = static_cast<char*>(iov[i].iov_base) + n;
        iov[i].iov_len -= n;
    }
    return i;
}

}  // namespace mcscope
