// Combines per-server replies into the one reply a client sees (multi-get merge, replication rule).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "response_parser.hpp"

namespace mcscope {

/// One server's complete retrieval reply and its parsed VALUE blocks.
struct shard_reply {
    std::string_view bytes;
    const std::vector<value_block>* values = nullptr;
};

/// Merges sharded get replies: VALUE blocks in request key order, one END. server_of_key[i] is
/// the index into shards that was asked for key i. Appends to out; returns the number of misses.
std::uint32_t merge_multiget(const std::vector<std::string_view>& keys,
                             const std::vector<std::uint16_t>& server_of_key,
                             const std::vector<shard_reply>& shards, std::string& out);

/// Replication outcome: success (e.g. "STORED\r\n") only if every replica replied it, otherwise
/// the first reply that differs, in replica order.
std::string_view replicated_outcome(const std::vector<std::string_view>& replies,
                                    std::string_view success);

}  // namespace mcscope
