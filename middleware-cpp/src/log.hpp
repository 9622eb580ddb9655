// Minimal leveled logging to stderr; debug lines compile out in release builds (NDEBUG).
#pragma once

#include <cstdio>

namespace mcscope {

enum class log_level { error, warn, info, debug };

}  // namespace mcscope

#define MCSCOPE_LOG(level_name, ...)                      \
    do {                                                  \
        std::fprintf(stderr, "[mcscope %s] ", level_name); \
        std::fprintf(stderr, __VA_ARGS__);                \
        std::fputc('\n', stderr);                         \
    } while (0)

#define LOG_ERROR(...) MCSCOPE_LOG("error", __VA_ARGS__)
#define LOG_WARN(...) MCSCOPE_LOG("warn", __VA_ARGS__)
#define LOG_INFO(...) MCSCOPE_LOG("info", __VA_ARGS__)
#ifdef NDEBUG
#define LOG_DEBUG(...) \
    do {               \
    } while (0)
#else
#define LOG_DEBUG(...) MCSCOPE_LOG("debug", __VA_ARGS__)
#endif
