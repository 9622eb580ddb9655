// Reply merging: a cursor per shard walks its blocks in the order the shard was asked.
#include "reply_merge.hpp"

#include <cassert>

namespace mcscope {

std::uint32_t merge_multiget(const std::vector<std::string_view>& keys,
                             const std::vector<std::uint16_t>& server_of_key,
                             const std::vector<shard_reply>& shards, std::string& out) {
    assert(keys.size() == server_of_key.size());
    std::vector<std::size_t> cursor(shards.size(), 0);
    std::uint32_t misses = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const shard_reply& shard = shards[server_of_key[i]];
        std::size_t& c = cursor[server_of_key[i]];
        // memcached answers found keys in the order asked, so the next block is key i or a miss.
        if (c < shard.values->size()) {
            const value_block& b = (*shard.values)[c];
            if (shard.bytes.substr(b.key_offset, b.key_length) == keys[i]) {
                out.append(shard.bytes.substr(b.offset, b.length));
                ++c;
                continue;
            }
        }
        ++misses;
    }
    out.append("END\r\n");
    return misses;
}

std::string_view replicated_outcome(const std::vector<std::string_view>& replies,
                                    std::string_view success) {
    for (std::string_view r : replies) {
        if (r != success) {
            return r;
        }
    }
    return success;
}

}  // namespace mcscope
