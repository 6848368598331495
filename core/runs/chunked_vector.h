#pragma once
// A vector that grows by fixed blocks: elements never move and growing never copies, so a
// document of hundreds of megabytes does not briefly need its size twice over (std::vector's
// reallocation would), and references to elements stay valid while it grows.

#include <cstddef>
#include <memory>
#include <vector>

namespace vramplan {

template <typename T, unsigned Shift = 12> class ChunkedVector
{
public:
    static constexpr std::size_t blockSize = std::size_t(1) << Shift;

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T &operator[](std::size_t i) { return blocks_[i >> Shift][i & (blockSize - 1)]; }
    const T &operator[](std::size_t i) const { return blocks_[i >> Shift][i & (blockSize - 1)]; }
    T &back() { return (*this)[size_ - 1]; }

    void push_back(const T &value)
    {
        if ((size_ >> Shift) == blocks_.size())
            blocks_.push_back(std::make_unique<T[]>(blockSize));
        (*this)[size_++] = value;
    }
    // Grows to n elements, the new ones set to `fill` (never shrinks).
    void growTo(std::size_t n, const T &fill)
    {
        while (size_ < n)
            push_back(fill);
    }
    // Bytes held, for the reader's memory figures.
    std::size_t capacityBytes() const { return blocks_.size() * blockSize * sizeof(T); }

private:
    std::vector<std::unique_ptr<T[]>> blocks_;
    std::size_t size_ = 0;
};

} // namespace vramplan
