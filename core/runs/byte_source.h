#pragma once
// Where a reader takes a file's bytes from, piece by piece as it needs them: a stream (a file,
// stdin) or bytes already in memory. A snapshot of hundreds of megabytes is thus never held
// whole beside the document read from it (the memory of `run-report` stays near the
// document's own size, docs/measured-runs.md).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <string_view>

namespace vramplan {

class ByteSource
{
public:
    explicit ByteSource(std::string_view bytes) : bytes_(bytes) {}
    explicit ByteSource(std::istream &in) : in_(&in) {}

    // Up to `count` bytes into `to`; fewer only at the end.
    std::size_t read(char *to, std::size_t count);
    // The next `count` bytes (fewer at the end), without taking them.
    std::string_view peek(std::size_t count);
    // Everything left, as one string (for the small text files: CSV logs).
    std::string rest();
    // Bytes in memory are read where they are, not copied: all of them at once.
    bool inMemory() const { return in_ == nullptr; }
    std::string_view takeAll()
    {
        const std::string_view all = bytes_;
        bytes_ = {};
        return all;
    }

    // Optional, for a window's progress bar and its Cancel: `progress` is told the bytes taken
    // so far each time another `every` bytes have been taken through read() (the readers need
    // no change: a stream's bytes all come that way; bytes in memory read in place by
    // takeAll() are not counted). Returning false stops the reading: read()
    // then gives nothing more, as at the end of the file, and stopped() says why the reader
    // found the file cut short. Without one, nothing changes.
    using Progress = std::function<bool(std::uint64_t taken)>;
    void setProgress(Progress progress, std::uint64_t every = std::uint64_t(4) << 20)
    {
        progress_ = std::move(progress);
        every_ = every > 0 ? every : 1;
        nextReport_ = taken_ + every_;
    }
    bool stopped() const { return stopped_; }
    std::uint64_t taken() const { return taken_; }

private:
    std::size_t counted(std::size_t count); // after a read of `count` bytes: the progress hook

    std::string_view bytes_; // in memory: what is left of it
    std::istream *in_ = nullptr;
    std::string peeked_; // read from the stream by peek(), not yet taken
    Progress progress_;
    std::uint64_t every_ = 0, nextReport_ = 0, taken_ = 0;
    bool stopped_ = false;
};

// An input iterator over a ByteSource, for nlohmann's SAX parser (which reads char by char).
class ByteSourceIterator
{
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char *;
    using reference = const char &;

    ByteSourceIterator() = default; // the end
    explicit ByteSourceIterator(ByteSource &source) : source_(&source) { fill(); }
    reference operator*() const { return buffer_[at_]; }
    ByteSourceIterator &operator++()
    {
        if (++at_ == length_)
            fill();
        return *this;
    }
    bool operator==(const ByteSourceIterator &other) const
    {
        return (source_ == nullptr) == (other.source_ == nullptr);
    }
    bool operator!=(const ByteSourceIterator &other) const { return !(*this == other); }

private:
    void fill()
    {
        at_ = 0;
        length_ = source_->read(buffer_, sizeof buffer_);
        if (length_ == 0)
            source_ = nullptr;
    }
    ByteSource *source_ = nullptr;
    char buffer_[4096] = {};
    std::size_t at_ = 0, length_ = 0;
};

} // namespace vramplan
