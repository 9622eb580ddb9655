// Monotonic time source shared by every timestamp the middleware records.
#pragma once

#include <chrono>
#include <cstdint>

namespace mcscope {

/// Nanoseconds on the monotonic clock; all request timestamps use this unit.
using mono_ns = std::int64_t;

/// Current monotonic time in nanoseconds (steady_clock never jumps with wall-clock changes).
inline mono_ns now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

constexpr double kNsPerUs = 1000.0;
constexpr mono_ns kNsPerMs = 1'000'000;

/// Wall-clock seconds since the Unix epoch, for the stats files' start and stop stamps.
inline double unix_now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace mcscope
