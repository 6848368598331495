#pragma once
// A vector with its capacity inside: the estimator builds its lists without touching the heap,
// which keeps one estimate near a microsecond. Storage is left uninitialised until pushed (the
// element types are trivially destructible), and pushing past the capacity is ignored and
// counted, never undefined behaviour.

#include <cstddef>
#include <new>
#include <type_traits>

namespace vramplan {

template <typename T, std::size_t Capacity> class StaticVector
{
    static_assert(std::is_trivially_destructible_v<T>);
    static_assert(std::is_trivially_copyable_v<T>);

public:
    // Provided (not defaulted): `StaticVector x{}` must not zero the whole storage.
    StaticVector() {}
    StaticVector(const StaticVector &other) { copyFrom(other); }
    StaticVector &operator=(const StaticVector &other)
    {
        if (this != &other)
            copyFrom(other);
        return *this;
    }

    void push_back(const T &value)
    {
        if (m_size < Capacity)
            new (&data()[m_size++]) T(value);
        else
            ++m_dropped;
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::size_t dropped() const { return m_dropped; }
    void clear() { m_size = 0; }
    T &operator[](std::size_t i) { return data()[i]; }
    const T &operator[](std::size_t i) const { return data()[i]; }
    T *begin() { return data(); }
    T *end() { return data() + m_size; }
    const T *begin() const { return data(); }
    const T *end() const { return data() + m_size; }

private:
    T *data() { return std::launder(reinterpret_cast<T *>(m_storage)); }
    const T *data() const { return std::launder(reinterpret_cast<const T *>(m_storage)); }
    void copyFrom(const StaticVector &other)
    {
        // Only the used part is copied.
        for (std::size_t i = 0; i < other.m_size; ++i)
            new (&data()[i]) T(other[i]);
        m_size = other.m_size;
        m_dropped = other.m_dropped;
    }

    alignas(T) unsigned char m_storage[sizeof(T) * Capacity];
    std::size_t m_size = 0;
    std::size_t m_dropped = 0;
};

} // namespace vramplan
