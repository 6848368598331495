#include "runs/byte_source.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace vramplan {

std::size_t ByteSource::counted(std::size_t count)
{
    taken_ += count;
    if (progress_ && taken_ >= nextReport_) {
        nextReport_ = taken_ + every_;
        stopped_ = !progress_(taken_);
    }
    return count;
}

std::size_t ByteSource::read(char *to, std::size_t count)
{
    if (stopped_)
        return 0;
    std::size_t done = std::min(count, peeked_.size());
    std::memcpy(to, peeked_.data(), done);
    peeked_.erase(0, done);
    if (!in_) {
        const std::size_t more = std::min(count - done, bytes_.size());
        std::memcpy(to + done, bytes_.data(), more);
        bytes_.remove_prefix(more);
        return counted(done + more);
    }
    if (done < count && *in_) {
        in_->read(to + done, std::streamsize(count - done));
        done += std::size_t(in_->gcount());
    }
    return counted(done);
}

std::string_view ByteSource::peek(std::size_t count)
{
    if (!in_)
        return bytes_.substr(0, count);
    if (peeked_.size() < count && *in_) {
        const std::size_t had = peeked_.size();
        peeked_.resize(count);
        in_->read(peeked_.data() + had, std::streamsize(count - had));
        peeked_.resize(had + std::size_t(in_->gcount()));
    }
    return std::string_view(peeked_).substr(0, count);
}

std::string ByteSource::rest()
{
    std::string all = std::move(peeked_);
    peeked_.clear();
    if (!in_) {
        all.append(bytes_);
        bytes_ = {};
    } else if (*in_) {
        all.append(std::istreambuf_iterator<char>(*in_), {});
    }
    return all;
}

} // namespace vramplan
