// Replays the checked-in fuzz corpus (fuzz/corpus/request, fuzz/corpus/response) through the
// fuzz targets' own checks, in every build flavour: a seed that once broke a parser stays fixed.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

// The fuzz targets' entry points, renamed at compile time (see CMakeLists.txt).
extern "C" int mcscope_fuzz_requests(const std::uint8_t* data, std::size_t size);
extern "C" int mcscope_fuzz_replies(const std::uint8_t* data, std::size_t size);

namespace {

std::size_t replay(const std::string& dir, int (*target)(const std::uint8_t*, std::size_t)) {
    std::size_t n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
        SCOPED_TRACE(entry.path().string());
        target(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());  // aborts on a broken invariant
        ++n;
    }
    return n;
}

TEST(FuzzCorpus, RequestSeedsKeepTheParserInvariants) {
    EXPECT_GE(replay(MCSCOPE_FUZZ_CORPUS "/request", mcscope_fuzz_requests), 10u);
}

TEST(FuzzCorpus, ResponseSeedsKeepTheParserInvariants) {
    EXPECT_GE(replay(MCSCOPE_FUZZ_CORPUS "/response", mcscope_fuzz_replies), 9u);
}

}  // namespace
