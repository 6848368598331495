#pragma once
// A vector with its capacity inside: the estimator builds its lists without touching the heap,
// which keeps one estimate well under a microsecond. Pushing past the capacity is ignored
// (and counted), never undefined behaviour.

#include <array>
#include <cstddef>

namespace vramplan {

template <typename T, std::size_t Capacity> class StaticVector
{
public:
    void push_back(const T &value)
    {
        if (m_size < Capacity)
            m_items[m_size++] = value;
        else
            ++m_dropped;
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::size_t dropped() const { return m_dropped; }
    void clear() { m_size = 0; }
    T &operator[](std::size_t i) { return m_items[i]; }
    const T &operator[](std::size_t i) const { return m_items[i]; }
    T *begin() { return m_items.data(); }
    T *end() { return m_items.data() + m_size; }
    const T *begin() const { return m_items.data(); }
    const T *end() const { return m_items.data() + m_size; }

private:
    std::array<T, Capacity> m_items{};
    std::size_t m_size = 0;
    std::size_t m_dropped = 0;
};

}  // namespace vramplan
