// Work queue implementation; queue-length integration happens under the lock it already holds.
#include "work_queue.hpp"

#include <algorithm>

namespace mcscope {

namespace {
/// The calling worker's own wake-up semaphore (a worker sleeps on one queue at a time).
wake_tokens& my_tokens() {
    thread_local wake_tokens tokens;
    return tokens;
}
}  // namespace

work_queue::work_queue(std::size_t capacity, mono_ns t0, mono_ns window_ns)
    : capacity_(capacity), t0_(t0), window_ns_(window_ns), last_(t0) {}

work_queue::slot& work_queue::slot_for(std::int64_t w) {
    slot& s = slots_[static_cast<std::size_t>(w) % kSlots];
    if (s.window != w) {
        s = slot{w, 0.0, items_.size()};
    }
    return s;
}

void work_queue::advance(mono_ns now) {
    while (last_ < now) {
        std::int64_t w = (last_ - t0_) / window_ns_;
        mono_ns seg_end = std::min(now, t0_ + (w + 1) * window_ns_);
        slot_for(w).area_ns += static_cast<double>(items_.size()) * static_cast<double>(seg_end - last_);
        last_ = seg_end;
    }
}

wake_tokens* work_queue::claim_sleeper() {
    if (sleepers_.empty() || items_.empty() || spare_ > 0) {
        return nullptr;
    }
    wake_tokens* w = sleepers_.back();
    sleepers_.pop_back();
    ++spare_;  // on its way to the queue: later pushes leave the other sleepers alone
    ++wakeups_;
    return w;
}

void work_queue::wait_for_items(std::unique_lock<std::mutex>& lock, bool& spare) {
    while (!stopped_ && items_.empty()) {
        if (spare) {
            --spare_;  // nothing to take after all: going to sleep
            spare = false;
        }
        wake_tokens& mine = my_tokens();
        sleepers_.push_back(&mine);
        lock.unlock();
        mine.acquire();  // a waker took us off sleepers_ (and counted us in spare_)
        lock.lock();
        spare = !stopped_;  // stop() hands out tokens without counting spares
    }
}

void work_queue::serving_done() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++spare_;
}

bool work_queue::try_push(request_ptr& r, mono_ns now, bool wake_one) {
    wake_tokens* wake = nullptr;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopped_ || items_.size() >= capacity_) {
            refused_ = true;
            return false;
        }
        advance(now);
        r->t.enqueue = now;
        items_.push_back(std::move(r));
        slot& s = slot_for((now - t0_) / window_ns_);
        s.max = std::max(s.max, items_.size());
        wake = wake_one ? claim_sleeper() : nullptr;
    }
    if (wake != nullptr) {
        wake->release();
    }
    return true;
}

void work_queue::wake() {
    wake_tokens* wake = nullptr;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        wake = claim_sleeper();
    }
    if (wake != nullptr) {
        wake->release();  // only a sleeping worker is woken; busy ones drain on their own
    }
}

bool work_queue::pop_batch(std::vector<request_ptr>& out, std::size_t limit,
                           std::size_t max_bytes, bool spare) {
    bool space = false;
    wake_tokens* more = nullptr;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        wait_for_items(lock, spare);
        if (spare) {
            --spare_;  // busy from here on
        }
        if (stopped_) {
            return false;
        }
        mono_ns now = now_ns();
        advance(now);
        std::size_t bytes = 0;
        for (std::size_t i = 0; i < limit && !items_.empty(); ++i) {
            bytes += items_.front()->raw.size();
            if (i > 0 && bytes > max_bytes) {
                break;
            }
            items_.front()->t.dequeue = now;
            out.push_back(std::move(items_.front()));
            items_.pop_front();
            ++dequeued_;
        }
        // More than one batch waiting and no spare worker: pass the wake-up on.
        more = claim_sleeper();
        space = refused_;
        refused_ = false;
    }
    if (more != nullptr) {
        more->release();
    }
    if (space && on_space_) {
        on_space_();
    }
    return true;
}

request_ptr work_queue::pop() {
    std::vector<request_ptr> one;
    if (!pop_batch(one, 1, 0)) {  // a batch of one always takes its request, whatever its size
        return nullptr;
    }
    return std::move(one.front());
}

std::uint64_t work_queue::wakeups() {
    std::lock_guard<std::mutex> lock(mutex_);
    return wakeups_;
}

std::uint64_t work_queue::dequeued() {
    std::lock_guard<std::mutex> lock(mutex_);
    return dequeued_;
}

std::size_t work_queue::sleepers() {
    std::lock_guard<std::mutex> lock(mutex_);
    return sleepers_.size();
}

void work_queue::stop() {
    std::vector<wake_tokens*> sleepers;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopped_ = true;
        sleepers.swap(sleepers_);
    }
    for (wake_tokens* w : sleepers) {
        w->release();  // each sleeper wakes, sees stopped_ and returns
    }
}

queue_window work_queue::close_window(std::int64_t w, mono_ns end) {
    std::lock_guard<std::mutex> lock(mutex_);
    advance(std::max(now_ns(), end));
    const slot& s = slot_for(w);
    double dur = static_cast<double>(std::max<mono_ns>(end - (t0_ + w * window_ns_), 1));
    return queue_window{s.area_ns / dur, s.max};
}

}  // namespace mcscope
