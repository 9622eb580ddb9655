// Memory bound accounting: relaxed atomics, one add per charge change.
#include "memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <utility>

namespace mcscope {

std::size_t default_buffer_cap_for(std::size_t physical) {
    constexpr std::size_t kFraction = 16;  // the rest for memcached, load generators, others
    return std::clamp(physical / kFraction, kMinDefaultCap, kMaxDefaultCap);
}

std::size_t default_buffer_cap() {
    long pages = ::sysconf(_SC_PHYS_PAGES);
    long page = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) {
        return default_buffer_cap_for(0);
    }
    return default_buffer_cap_for(static_cast<std::size_t>(pages) * static_cast<std::size_t>(page));
}

std::size_t memory_budget::share() const {
    std::size_t n = connections_.load(std::memory_order_relaxed);
    return cap_ / std::max<std::size_t>(n, 1);
}

void memory_budget::add(std::size_t n) {
    std::size_t now = used_.fetch_add(n, std::memory_order_relaxed) + n;
    std::size_t high = high_water_.load(std::memory_order_relaxed);
    while (now > high && !high_water_.compare_exchange_weak(high, now, std::memory_order_relaxed)) {
    }
}

bool memory_budget::try_add(std::size_t n) {
    std::size_t cur = used_.load(std::memory_order_relaxed);
    do {
        if (cur + n > cap_) {
            return false;
        }
    } while (!used_.compare_exchange_weak(cur, cur + n, std::memory_order_relaxed));
    std::size_t high = high_water_.load(std::memory_order_relaxed);
    while (cur + n > high &&
           !high_water_.compare_exchange_weak(high, cur + n, std::memory_order_relaxed)) {
    }
    return true;
}

memory_account::~memory_account() {
    // Every charge is released before its account dies (requests die before their connection).
    assert(held() == 0);
}

bool memory_account::over_share() const {
    return budget_.used() >= budget_.cap() && held() > budget_.share();
}

bool memory_account::admits_reply(std::size_t n, std::uint64_t seq) const {
    return budget_.used() + n <= budget_.cap() || seq == next_write();
}

void memory_account::add(std::size_t n) {
    held_.fetch_add(n, std::memory_order_relaxed);
    budget_.add(n);
}

bool memory_account::try_add_reply(std::size_t n, std::uint64_t seq) {
    if (seq == next_write()) {
        budget_.add(n);
    } else if (!budget_.try_add(n)) {
        return false;
    }
    held_.fetch_add(n, std::memory_order_relaxed);
    return true;
}

void memory_account::sub(std::size_t n) {
    assert(held() >= n);
    held_.fetch_sub(n, std::memory_order_relaxed);
    budget_.sub(n);
}

memory_charge::memory_charge(memory_charge&& o) noexcept
    : acct_(o.acct_), bytes_(std::exchange(o.bytes_, 0)) {}

memory_charge& memory_charge::operator=(memory_charge&& o) noexcept {
    if (this != &o) {
        release();
        acct_ = o.acct_;
        bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
}

void memory_charge::attach(memory_account& acct) {
    release();
    acct_ = &acct;
}

bool memory_charge::try_set_reply(std::size_t n, std::uint64_t seq) {
    if (acct_ == nullptr || n <= bytes_) {
        set(n);
        return true;
    }
    if (!acct_->try_add_reply(n - bytes_, seq)) {
        return false;
    }
    bytes_ = n;
    return true;
}

void memory_charge::set(std::size_t n) {
    if (acct_ == nullptr || n == bytes_) {
        return;
    }
    if (n > bytes_) {
        acct_->add(n - bytes_);
    } else {
        acct_->sub(bytes_ - n);
    }
    bytes_ = n;
}

}  // namespace mcscope
