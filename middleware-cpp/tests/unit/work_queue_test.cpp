// Work queue: bound, refusal callback, stop, and time-weighted length per window.
#include "work_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

/// Blocks until n workers sleep on q (a state, not a time: no timing threshold).
void await_sleepers(work_queue& q, std::size_t n) {
    while (q.sleepers() != n) {
        std::this_thread::yield();
    }
}

void push_n(work_queue& q, int n, bool wake) {
    for (int i = 0; i < n; ++i) {
        auto r = std::make_unique<request>();
        ASSERT_TRUE(q.try_push(r, now_ns(), wake));
    }
}

TEST(WorkQueue, OneWakeUpPerBatchWhileAWokenWorkerIsOnItsWay) {
    work_queue q(64, now_ns(), kSecond);
    std::vector<std::size_t> taken(2, 0);
    std::vector<std::thread> workers;
    for (std::size_t i = 0; i < 2; ++i) {
        workers.emplace_back([&, i] {
            std::vector<request_ptr> out;
            if (q.pop_batch(out, 16, 1 << 20)) {
                taken[i] = out.size();
            }
        });
    }
    await_sleepers(q, 2);
    push_n(q, 3, false);
    q.wake();
    q.wake();  // the first woken worker has not popped yet, or took everything: nobody else
    while (q.dequeued() != 3) {
        std::this_thread::yield();
    }
    q.stop();
    for (std::thread& t : workers) {
        t.join();
    }
    EXPECT_EQ(q.wakeups(), 1u);
    EXPECT_EQ(std::max(taken[0], taken[1]), 3u);  // the one woken worker took the batch
    EXPECT_EQ(std::min(taken[0], taken[1]), 0u);
}

TEST(WorkQueue, ASpareWorkerTakesTheNextBatchInsteadOfASleeper) {
    work_queue q(64, now_ns(), kSecond);
    std::size_t taken = 0;
    std::thread sleeper([&] {
        std::vector<request_ptr> out;
        if (q.pop_batch(out, 16, 1 << 20)) {
            taken = out.size();
        }
    });
    await_sleepers(q, 1);
    q.serving_done();  // this thread read its replies and is only writing to clients
    push_n(q, 2, true);
    EXPECT_EQ(q.wakeups(), 0u);  // handed to us, not to the sleeper
    std::vector<request_ptr> out;
    ASSERT_TRUE(q.pop_batch(out, 16, 1 << 20, true));
    EXPECT_EQ(out.size(), 2u);
    push_n(q, 1, true);  // we are busy again: now the sleeper is woken
    sleeper.join();
    EXPECT_EQ(q.wakeups(), 1u);
    EXPECT_EQ(taken, 1u);
}

TEST(WorkQueue, MoreThanOneBatchPassesTheWakeUpOn) {
    work_queue q(64, now_ns(), kSecond);
    std::vector<std::thread> workers;
    std::vector<std::size_t> taken(2, 0);
    for (std::size_t i = 0; i < 2; ++i) {
        workers.emplace_back([&, i] {
            std::vector<request_ptr> out;
            if (q.pop_batch(out, 16, 1 << 20)) {
                taken[i] = out.size();
            }
        });
    }
    await_sleepers(q, 2);
    push_n(q, 20, false);
    q.wake();  // one woken; it takes 16 and wakes the other for the remaining 4
    for (std::thread& t : workers) {
        t.join();
    }
    EXPECT_EQ(q.wakeups(), 2u);
    EXPECT_EQ(q.dequeued(), 20u);
    EXPECT_EQ(std::max(taken[0], taken[1]), 16u);
}

TEST(WorkQueue, TheWorkerThatSleptLastIsWokenFirst) {
    // LIFO: the most recently idle worker is the one with warm caches.
    work_queue q(64, now_ns(), kSecond);
    std::vector<std::size_t> taken(2, 0);
    auto body = [&](std::size_t i) {
        std::vector<request_ptr> out;
        if (q.pop_batch(out, 16, 1 << 20)) {
            taken[i] = out.size();
        }
    };
    std::thread first(body, 0);
    await_sleepers(q, 1);
    std::thread last(body, 1);
    await_sleepers(q, 2);
    push_n(q, 1, true);
    while (q.dequeued() != 1) {
        std::this_thread::yield();
    }
    q.stop();  // the worker not woken returns empty-handed
    first.join();
    last.join();
    EXPECT_EQ(taken[1], 1u);
    EXPECT_EQ(taken[0], 0u);
    EXPECT_EQ(q.wakeups(), 1u);
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
