// The bounded work queue between the network thread and the workers: the middleware's only lock.
#pragma once

#include <semaphore.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "clock.hpp"
#include "request.hpp"

namespace mcscope {

/// POSIX semaphore (glibc: an atomic plus a futex, no spinning). std::counting_semaphore spins
/// with sched_yield before sleeping, which cost half a syscall and a context switch per request
/// on a 2-core machine.
class wake_tokens {
public:
    wake_tokens() { ::sem_init(&sem_, 0, 0); }
    ~wake_tokens() { ::sem_destroy(&sem_); }
    wake_tokens(const wake_tokens&) = delete;
    wake_tokens& operator=(const wake_tokens&) = delete;
    void acquire() {
        while (::sem_wait(&sem_) != 0) {
        }  // EINTR only
    }
    void release(std::size_t n = 1) {
        for (std::size_t i = 0; i < n; ++i) {
            ::sem_post(&sem_);
        }
    }

private:
    sem_t sem_{};
};

/// Time-weighted queue length of one stats window.
struct queue_window {
    double mean = 0.0;
    std::size_t max = 0;
};

/// Bounded FIFO, a mutex held only to push and pop, plus stop(). Each idle worker sleeps on its
/// own semaphore, and a waker posts to exactly one sleeper it took off the list: unlike a
/// condition variable, the woken worker does not contend for the mutex with the pushing network
/// thread on wake-up (that cost a futex call pair per batch). The sleeper woken is the one that
/// went to sleep last (LIFO): its stack, buffers and server sockets are still in the caches, and
/// with many idle workers only as many take turns as the load needs. A full queue refuses the
/// push (the network thread then stops reading that client) and calls on_space once a worker
/// frees a slot.
class work_queue {
public:
    work_queue(std::size_t capacity, mono_ns t0, mono_ns window_ns);
    work_queue(const work_queue&) = delete;
    work_queue& operator=(const work_queue&) = delete;

    /// Moves r into the queue and returns true, or returns false (r untouched) if full/stopped.
    /// With wake = false no worker is woken: the caller pushes a batch and then calls wake().
    bool try_push(request_ptr& r, mono_ns now, bool wake = true);
    /// Wakes one sleeping worker if requests are waiting (after a batch of deferred pushes).
    void wake();
    /// Blocks until a request is available; nullptr after stop().
    request_ptr pop();
    /// Blocks until a request is available, then moves up to limit of them, and no more than
    /// max_bytes of request bytes unless it is one request, into out (appended, FIFO order, all
    /// with the same dequeue time). False after stop(). spare: the caller announced with
    /// serving_done() that it is coming back (it stops counting as spare here).
    bool pop_batch(std::vector<request_ptr>& out, std::size_t limit, std::size_t max_bytes,
                   bool spare = false);
    /// A worker has read every server reply of its batch and only writes client replies before
    /// popping again: until then it counts as spare, and requests pushed meanwhile wake nobody
    /// (they are handed to it instead of to a sleeping worker).
    void serving_done();
    /// Wakes all workers; later pops return nullptr, queued requests are dropped.
    void stop();
    /// Callback run by a worker (outside the lock) when a refused push can be retried.
    void set_on_space(std::function<void()> cb) { on_space_ = std::move(cb); }

    /// Time-weighted mean and max length of window w, which ends at the absolute time end (before
    /// the window's nominal end for the last, partial window).
    queue_window close_window(std::int64_t w, mono_ns end);
    std::size_t capacity() const { return capacity_; }
    /// Sleeping workers woken so far (the cost the wake-up policy keeps at <= 1 per request).
    std::uint64_t wakeups();
    /// Requests taken off the queue so far.
    std::uint64_t dequeued();
    /// Workers asleep with no wake-up claimed (for tests).
    std::size_t sleepers();

private:
    static constexpr std::size_t kSlots = 8;  ///< windows kept open for a late reporter
    struct slot {
        std::int64_t window = -1;
        double area_ns = 0.0;  ///< integral of length over time
        std::size_t max = 0;
    };

    slot& slot_for(std::int64_t w);
    void advance(mono_ns now);  ///< integrate the current length up to now, window by window

    std::size_t capacity_;
    mono_ns t0_;
    mono_ns window_ns_;
    /// Under mutex_: waits until a request is queued (or stop). Unlocks while asleep. spare:
    /// whether the caller is counted in spare_ (updated: a woken sleeper is counted).
    void wait_for_items(std::unique_lock<std::mutex>& lock, bool& spare);
    /// Under mutex_: takes the most recent sleeper off sleepers_ to wake (post to it after
    /// unlocking) when requests wait that no spare worker will take; nullptr if none.
    wake_tokens* claim_sleeper();

    std::mutex mutex_;
    std::deque<request_ptr> items_;
    bool stopped_ = false;
    bool refused_ = false;  ///< a push was refused since the last on_space call
    /// Workers asleep (or about to be) that no waker has claimed yet, each by its own semaphore
    /// (the caller thread's); the last one is woken first.
    std::vector<wake_tokens*> sleepers_;
    /// Workers awake that will pop before sleeping: woken ones on their way, and ones that
    /// announced serving_done(). While one exists, a push wakes nobody.
    std::size_t spare_ = 0;
    std::uint64_t wakeups_ = 0;
    std::uint64_t dequeued_ = 0;
    mono_ns last_ = 0;
    std::array<slot, kSlots> slots_{};
    std::function<void()> on_space_;
};

}  // namespace mcscope
