// Memory bound accounting: exact totals through RAII charges, fair shares, reply admission.
#include "memory_budget.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "request.hpp"

namespace mcscope {
namespace {

TEST(MemoryBudget, ChargesAddAndReleaseExactly) {
    memory_budget budget(1000);
    {
        memory_account acct(budget);
        memory_charge raw;
        memory_charge reply;
        raw.attach(acct);
        reply.attach(acct);
        raw.set(100);
        reply.set(300);
        EXPECT_EQ(budget.used(), 400u);
        EXPECT_EQ(acct.held(), 400u);
        reply.set(50);  // shrinks by the difference
        EXPECT_EQ(budget.used(), 150u);
        EXPECT_EQ(acct.held(), 150u);
        raw.release();
        EXPECT_EQ(budget.used(), 50u);
        EXPECT_EQ(acct.held(), 50u);
    }  // reply's destructor releases the rest (before the account's)
    EXPECT_EQ(budget.used(), 0u);
    EXPECT_EQ(budget.counter(memory_counter::high_water), 400u);
}

TEST(MemoryBudget, DetachedChargeCountsNothing) {
    memory_charge c;
    c.set(500);
    EXPECT_EQ(c.bytes(), 0u);
}

TEST(MemoryBudget, MovedChargeKeepsItsBytesOnce) {
    memory_budget budget(1000);
    memory_account acct(budget);
    {
        memory_charge a;
        a.attach(acct);
        a.set(200);
        memory_charge b(std::move(a));
        EXPECT_EQ(budget.used(), 200u);
        memory_charge c;
        c.attach(acct);
        c.set(10);
        c = std::move(b);  // c's own 10 bytes are released, b's 200 move over
        EXPECT_EQ(budget.used(), 200u);
        EXPECT_EQ(acct.held(), 200u);
    }
    EXPECT_EQ(budget.used(), 0u);
    EXPECT_EQ(acct.held(), 0u);
}

TEST(MemoryBudget, RequestResetAndDestructionRelease) {
    memory_budget budget(1 << 20);
    memory_account acct(budget);
    auto r = std::make_unique<request>();
    r->raw.assign(1000, 'x');
    r->raw_mem.attach(acct);
    r->raw_mem.set(r->raw.size());
    r->reply_mem.attach(acct);
    r->reply_mem.set(5000);
    EXPECT_EQ(acct.held(), 6000u);
    r->reset();  // a reused request charges nothing until dispatched again
    EXPECT_EQ(acct.held(), 0u);
    r->reply_mem.attach(acct);
    r->reply_mem.set(70);
    r.reset();
    EXPECT_EQ(budget.used(), 0u);
}

TEST(MemoryBudget, ShareDividesTheCapAmongConnections) {
    memory_budget budget(1000);
    EXPECT_EQ(budget.share(), 1000u);  // no connection yet: all of it
    budget.connection_opened();
    budget.connection_opened();
    EXPECT_EQ(budget.share(), 500u);
    budget.connection_closed();
    EXPECT_EQ(budget.share(), 1000u);
}

TEST(MemoryBudget, OverShareOnlyWhenTheCapIsReached) {
    memory_budget budget(1000);
    budget.connection_opened();
    budget.connection_opened();
    memory_account hog(budget);
    memory_account small(budget);
    memory_charge a;
    memory_charge b;
    a.attach(hog);
    b.attach(small);
    a.set(900);  // above its share (500), but the cap is not reached: no pause
    EXPECT_FALSE(hog.over_share());
    b.set(100);  // cap reached: the hog pauses, the small one (under its share) does not
    EXPECT_TRUE(hog.over_share());
    EXPECT_FALSE(small.over_share());
    a.set(400);
    EXPECT_FALSE(hog.over_share());
}

TEST(MemoryBudget, ReplyAdmissionKeepsTheCapButTheNextReplyAlwaysGoes) {
    memory_budget budget(1000);
    memory_account first(budget);
    memory_account second(budget);
    memory_charge r1;
    r1.attach(first);
    EXPECT_TRUE(first.admits_reply(800, 0));
    r1.set(800);
    first.set_next_write(0);  // reply 0 is buffered, not written yet
    EXPECT_FALSE(first.admits_reply(300, 1));  // would pass the cap, and waits behind reply 0
    EXPECT_TRUE(first.admits_reply(200, 1));   // fits exactly
    EXPECT_TRUE(first.admits_reply(5000, 0));  // the next in line: the client progresses
    second.set_next_write(7);
    EXPECT_TRUE(second.admits_reply(5000, 7));
    EXPECT_FALSE(second.admits_reply(5000, 8));
}

TEST(MemoryBudget, ConcurrentChargesBalance) {
    memory_budget budget(std::size_t{1} << 30);
    memory_account acct(budget);
    constexpr int kThreads = 4;
    constexpr int kRounds = 20000;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&acct] {
            memory_charge c;
            c.attach(acct);
            for (int i = 0; i < kRounds; ++i) {
                c.set(static_cast<std::size_t>(i % 97) * 13);
            }
        });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    EXPECT_EQ(budget.used(), 0u);
    EXPECT_EQ(acct.held(), 0u);
    EXPECT_LE(budget.counter(memory_counter::high_water), std::size_t{kThreads} * 96 * 13);
}

TEST(MemoryBudget, TrySetReplyChargesOnlyWhatIsAdmitted) {
    memory_budget budget(1000);
    memory_account acct(budget);
    acct.set_next_write(0);
    memory_charge front;
    memory_charge later;
    front.attach(acct);
    later.attach(acct);
    EXPECT_TRUE(later.try_set_reply(900, 1));
    EXPECT_FALSE(front.try_set_reply(300, 2));  // seq 2 is not next: refused, nothing charged
    EXPECT_EQ(front.bytes(), 0u);
    EXPECT_EQ(budget.used(), 900u);
    EXPECT_TRUE(front.try_set_reply(300, 0));  // the next in line passes the cap
    EXPECT_EQ(budget.used(), 1200u);
    EXPECT_TRUE(front.try_set_reply(10, 5));  // shrinking is always allowed
    EXPECT_EQ(budget.used(), 910u);
}

TEST(MemoryBudget, ConcurrentReplyAdmissionsNeverPassTheCapTogether) {
    constexpr std::size_t kCap = 1000;
    constexpr int kThreads = 4;
    memory_budget budget(kCap);
    memory_account acct(budget);
    acct.set_next_write(~std::uint64_t{0});  // no request is next in line: no exemption
    std::vector<memory_charge> charges(kThreads * 100);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&charges, &acct, t] {
            for (int i = 0; i < 100; ++i) {
                memory_charge& c = charges[static_cast<std::size_t>(t * 100 + i)];
                c.attach(acct);
                c.try_set_reply(30, 1);
            }
        });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    EXPECT_EQ(budget.used(), 990u);  // 33 replies of 30 fit, none beyond
    EXPECT_EQ(budget.counter(memory_counter::high_water), 990u);
}

TEST(MemoryBudget, DefaultCapIsASixteenthOfMemoryWithinBounds) {
    constexpr std::size_t kGiB = std::size_t{1} << 30;
    EXPECT_EQ(default_buffer_cap_for(0), kMinDefaultCap);
    EXPECT_EQ(default_buffer_cap_for(kGiB / 2), kMinDefaultCap);  // 32 MiB: the floor
    EXPECT_EQ(default_buffer_cap_for(4 * kGiB), 256u << 20);
    EXPECT_EQ(default_buffer_cap_for(24 * kGiB), kMaxDefaultCap);  // 1.5 GiB: the ceiling
    std::size_t cap = default_buffer_cap();
    EXPECT_GE(cap, kMinDefaultCap);
    EXPECT_LE(cap, kMaxDefaultCap);
}

}  // namespace
}  // namespace mcscope
