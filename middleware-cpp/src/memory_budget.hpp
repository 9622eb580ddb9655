// Global bound on the bytes the middleware buffers for clients (requests, replies, read buffers),
// shared fairly between connections; exact accounting through RAII charges.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace mcscope {

/// Process counters of the memory bound, declared once: the enum, --describe-stats and the
/// shutdown log line and summary.json's "memory" block come from this table.
#define MCSCOPE_MEMORY_COUNTERS(ACTION)                                                        \
    ACTION(paused, "memory_pauses", "counter", "events",                                       \
           "a client held more than its share of --max-buffered-bytes: reading it paused")     \
    ACTION(deferred, "memory_deferred_replies", "counter", "replies",                          \
           "a get reply over the cap was dropped and the get retried once the client drained") \
    ACTION(closed_memory, "memory_closes", "counter", "clients",                               \
           "closed: its gets waited for room --client-memory-timeout-ms, no reply written")    \
    ACTION(closed_body, "body_timeout_closes", "counter", "clients",                           \
           "closed with SERVER_ERROR: a set's value not received in --client-body-timeout-ms") \
    ACTION(high_water, "buffered_bytes_max", "max", "bytes", "most bytes buffered at once")

#define MCSCOPE_MEMORY_ENUM(id, name, kind, unit, desc) id,
enum class memory_counter : std::size_t { MCSCOPE_MEMORY_COUNTERS(MCSCOPE_MEMORY_ENUM) count };
#undef MCSCOPE_MEMORY_ENUM

constexpr std::size_t kMemoryCounterCount = static_cast<std::size_t>(memory_counter::count);

/// Name, kind, unit and description of one memory counter.
struct memory_counter_desc {
    const char* name;
    const char* kind;  ///< "counter" (events) or "max" (a high-water mark)
    const char* unit;
    const char* description;
};

#define MCSCOPE_MEMORY_DESC(id, name, kind, unit, desc) {name, kind, unit, desc},
constexpr memory_counter_desc kMemoryCounters[kMemoryCounterCount] = {
    MCSCOPE_MEMORY_COUNTERS(MCSCOPE_MEMORY_DESC)};
#undef MCSCOPE_MEMORY_DESC

/// Default --max-buffered-bytes: a sixteenth of physical memory, within [kMinDefaultCap,
/// kMaxDefaultCap]. Safe on a shared machine: with the bound below, a process started without
/// the flag stays near 1 GiB plus one reply per client whatever its clients do (mcscope's
/// worker always passes a cap sized for the run, worker/runs/middleware_cap.py).
std::size_t default_buffer_cap();
/// The same rule for a machine of `physical` bytes (0: unknown, the floor).
std::size_t default_buffer_cap_for(std::size_t physical);
constexpr std::size_t kMinDefaultCap = std::size_t{64} << 20;
constexpr std::size_t kMaxDefaultCap = std::size_t{1} << 30;

/// The global bound. Any thread: charges are relaxed atomic adds (the total is read only for
/// decisions, never to order other memory). cap is fixed at construction.
class memory_budget {
public:
    explicit memory_budget(std::size_t cap) : cap_(cap) {}
    memory_budget(const memory_budget&) = delete;
    memory_budget& operator=(const memory_budget&) = delete;

    std::size_t cap() const { return cap_; }
    std::size_t used() const { return used_.load(std::memory_order_relaxed); }
    /// A connection's fair share: cap divided by the live connections.
    std::size_t share() const;
    /// Network thread: live connections (they divide the cap).
    void connection_opened() { connections_.fetch_add(1, std::memory_order_relaxed); }
    void connection_closed() { connections_.fetch_sub(1, std::memory_order_relaxed); }

    void add(std::size_t n);
    /// Adds n only if the total stays within the cap (atomically: concurrent callers cannot
    /// pass it together).
    bool try_add(std::size_t n);
    void sub(std::size_t n) { used_.fetch_sub(n, std::memory_order_relaxed); }
    void count(memory_counter c) { counters_[idx(c)].fetch_add(1, std::memory_order_relaxed); }
    std::uint64_t counter(memory_counter c) const {
        return c == memory_counter::high_water ? high_water_.load(std::memory_order_relaxed)
                                               : counters_[idx(c)].load(std::memory_order_relaxed);
    }

private:
    static std::size_t idx(memory_counter c) { return static_cast<std::size_t>(c); }

    const std::size_t cap_;
    std::atomic<std::size_t> used_{0};
    std::atomic<std::size_t> high_water_{0};
    std::atomic<std::size_t> connections_{0};
    std::atomic<std::uint64_t> counters_[kMemoryCounterCount] = {};
};

/// One connection's bytes, within the budget. The reply next in line to be written to the
/// client is always admitted, whatever the global total, so every client progresses.
///
/// The bound (held under every timing): bytes buffered <= cap + the sum over live clients of
///   (a) at most one reply (<= --max-reply-bytes) admitted past the cap: only the request whose
///       seq is next_write() is exempt, and next_write() moves on only once every earlier reply
///       of the client was written *and released* (connection::recycle_written_locked), so an
///       exempt reply is never held next to another exempt one of the same client;
///   (b) its read buffer and the bytes of its parsed requests not yet answered (and local
///       replies): charged when read or parsed, never refused (reading stops once the cap is
///       reached and the client holds more than its share, but what was read is kept).
/// Every other reply is admitted only if the total stays within the cap (try_add), so the
/// replies admitted that way never sum past the cap. (When next_write() moved on as soon as a
/// reply was handed to a write that could not finish, a client could hold two exempt replies.)
class memory_account {
public:
    explicit memory_account(memory_budget& budget) : budget_(budget) {}
    memory_account(const memory_account&) = delete;
    memory_account& operator=(const memory_account&) = delete;
    ~memory_account();

    memory_budget& budget() const { return budget_; }
    std::size_t held() const { return held_.load(std::memory_order_relaxed); }
    /// Connection (under its lock): seq of the next reply to be written to the client, set once
    /// every earlier reply was written and its bytes released (see the bound above).
    void set_next_write(std::uint64_t seq) { next_write_.store(seq, std::memory_order_relaxed); }
    std::uint64_t next_write() const { return next_write_.load(std::memory_order_relaxed); }
    /// The network thread should stop reading this client: the cap is reached and the client
    /// holds more than its share.
    bool over_share() const;
    /// Whether a reply of n bytes for request seq would be admitted now (see try_add_reply).
    bool admits_reply(std::size_t n, std::uint64_t seq) const;

    void add(std::size_t n);
    /// Adds n bytes of reply for request seq if they fit the cap, or always when seq is the
    /// next reply to be written (so a client progresses one reply at a time however full the
    /// cap is: at most one reply per client beyond it, bound (a) above).
    bool try_add_reply(std::size_t n, std::uint64_t seq);
    void sub(std::size_t n);
    /// Size of this client's last reply refused for the cap (0: one was admitted since): while it
    /// still would not fit, its next gets are deferred before they are sent to memcached.
    std::size_t refused_bytes() const { return refused_.load(std::memory_order_relaxed); }
    void note_refused(std::size_t n) { refused_.store(n, std::memory_order_relaxed); }

private:
    memory_budget& budget_;
    std::atomic<std::size_t> held_{0};
    std::atomic<std::uint64_t> next_write_{0};
    std::atomic<std::size_t> refused_{0};
};

/// RAII: bytes charged to an account until set to another size, released, or destroyed.
/// Move-only; used by one thread at a time (it travels with its request through the queue).
class memory_charge {
public:
    memory_charge() = default;
    memory_charge(const memory_charge&) = delete;
    memory_charge& operator=(const memory_charge&) = delete;
    memory_charge(memory_charge&& o) noexcept;
    memory_charge& operator=(memory_charge&& o) noexcept;
    ~memory_charge() { release(); }

    /// Charge to acct from now on (what was charged elsewhere is released).
    void attach(memory_account& acct);
    /// The charged size becomes n (no-op when detached).
    void set(std::size_t n);
    /// Grows to a reply of n bytes for request seq if memory_account::try_add_reply admits it
    /// (true when detached); false leaves the charge as it was.
    bool try_set_reply(std::size_t n, std::uint64_t seq);
    /// Nothing charged any more (the account stays attached).
    void release() { set(0); }
    std::size_t bytes() const { return bytes_; }
    memory_account* account() const { return acct_; }

private:
    memory_account* acct_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace mcscope
