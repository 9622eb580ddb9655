// Work queue: bound, refusal callback, stop, and time-weighted length per window.
#include "work_queue.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace mcscope {
namespace {

constexpr mono_ns kSecond = 1'000'000'000;

TEST(WorkQueue, RefusesWhenFullAndSignalsSpace) {
    work_queue q(2, now_ns(), kSecond);
    int space_calls = 0;
    q.set_on_space([&] { ++space_calls; });
    auto a = std::make_unique<request>();
    auto b = std::make_unique<request>();
    auto c = std::make_unique<request>();
    EXPECT_TRUE(q.try_push(a, now_ns()));
    EXPECT_TRUE(q.try_push(b, now_ns()));
    EXPECT_FALSE(q.try_push(c, now_ns()));
    EXPECT_NE(c, nullptr);  // a refused request stays with the caller
    EXPECT_NE(q.pop(), nullptr);
    EXPECT_EQ(space_calls, 1);
    EXPECT_TRUE(q.try_push(c, now_ns()));
    EXPECT_NE(q.pop(), nullptr);
    EXPECT_EQ(space_calls, 1);  // no refusal since the last call
}

TEST(WorkQueue, PopBatchTakesUpToLimitInOrderWithinBytes) {
    work_queue q(8, now_ns(), kSecond);
    for (int i = 0; i < 5; ++i) {
        auto r = std::make_unique<request>();
        r->seq = static_cast<std::uint64_t>(i);
        r->raw.assign(10, 'x');
        ASSERT_TRUE(q.try_push(r, now_ns(), false));  // deferred wake-up
    }
    q.wake();
    std::vector<request_ptr> out;
    ASSERT_TRUE(q.pop_batch(out, 2, 1000));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0]->seq, 0u);
    EXPECT_EQ(out[1]->seq, 1u);
    EXPECT_EQ(out[0]->t.dequeue, out[1]->t.dequeue);
    EXPECT_GE(out[0]->t.dequeue, out[0]->t.enqueue);
    out.clear();
    ASSERT_TRUE(q.pop_batch(out, 8, 15));  // the byte bound stops after the first request
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0]->seq, 2u);
    ASSERT_TRUE(q.pop_batch(out, 8, 1000));
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[2]->seq, 4u);
    q.stop();
    EXPECT_FALSE(q.pop_batch(out, 8, 1000));
}

TEST(WorkQueue, StopWakesBlockedWorkers) {
    work_queue q(4, now_ns(), kSecond);
    request_ptr got = std::make_unique<request>();
    std::thread t([&] { got = q.pop(); });
    q.stop();
    t.join();
    EXPECT_EQ(got, nullptr);
}

TEST(WorkQueue, TimeWeightedLengthOfAClosedWindow) {
    // Window 0 lies in the past: two requests were queued at its start and never taken.
    mono_ns t0 = now_ns() - 3 * kSecond;
    work_queue q(8, t0, kSecond);
    auto a = std::make_unique<request>();
    auto b = std::make_unique<request>();
    ASSERT_TRUE(q.try_push(a, t0));
    ASSERT_TRUE(q.try_push(b, t0 + kSecond / 2));
    queue_window w0 = q.close_window(0, t0 + kSecond);
    EXPECT_NEAR(w0.mean, 1.5, 1e-9);  // 1 for the first half, 2 for the second
    EXPECT_EQ(w0.max, 2u);
    queue_window w1 = q.close_window(1, t0 + 2 * kSecond);
    EXPECT_NEAR(w1.mean, 2.0, 1e-9);
    EXPECT_EQ(w1.max, 2u);
}

}  // namespace
}  // namespace mcscope
