// The bounded work queue between the network thread and the workers: the middleware's only lock.
#pragma once

#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "clock.hpp"
#include "request.hpp"

namespace mcscope {

/// Time-weighted queue length of one stats window.
struct queue_window {
    double mean = 0.0;
    std::size_t max = 0;
};

/// Bounded FIFO, mutex + condition_variable + stop(). A full queue refuses the push (the network
/// thread then stops reading that client) and calls on_space once a worker frees a slot.
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
    /// with the same dequeue time). False after stop().
    bool pop_batch(std::vector<request_ptr>& out, std::size_t limit, std::size_t max_bytes);
    /// Wakes all workers; later pops return nullptr, queued requests are dropped.
    void stop();
    /// Callback run by a worker (outside the lock) when a refused push can be retried.
    void set_on_space(std::function<void()> cb) { on_space_ = std::move(cb); }

    /// Time-weighted mean and max length of window w, which ends at the absolute time end (before
    /// the window's nominal end for the last, partial window).
    queue_window close_window(std::int64_t w, mono_ns end);
    std::size_t capacity() const { return capacity_; }

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
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<request_ptr> items_;
    bool stopped_ = false;
    bool refused_ = false;  ///< a push was refused since the last on_space call
    std::size_t waiting_ = 0;
    mono_ns last_ = 0;
    std::array<slot, kSlots> slots_{};
    std::function<void()> on_space_;
};

}  // namespace mcscope
