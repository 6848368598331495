// JSON text into a DataDoc through nlohmann's SAX interface: no nlohmann::json tree is built
// (it would take several times the document), and nesting is bounded as the pickle's is.

#include "runs/data_readers.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace vramplan {

namespace {

class Builder : public nlohmann::json_sax<nlohmann::json>
{
public:
    Builder(DataDoc &doc, const DataLimits &limits) : doc_(doc), limits_(limits) {}

    std::string error;
    DataValue result() const { return stack_.empty() ? DataValue() : stack_.front(); }

    bool null() override { return value(DataDoc::none()); }
    bool boolean(bool b) override { return value(DataDoc::makeBool(b)); }
    bool number_integer(number_integer_t v) override { return value(doc_.makeInt(v)); }
    bool number_unsigned(number_unsigned_t v) override { return value(doc_.makeUInt(v)); }
    bool number_float(number_float_t v, const string_t &) override
    {
        return value(doc_.makeFloat(v));
    }
    bool string(string_t &s) override { return text(s); }
    bool binary(binary_t &) override { return stop("binary values are not JSON text"); }
    bool start_object(std::size_t) override { return open(DataKind::Dict); }
    bool key(string_t &s) override { return text(s); }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(DataKind::List); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string &,
                     const nlohmann::detail::exception &e) override
    {
        if (error.empty())
            error = e.what();
        return false;
    }

private:
    bool stop(std::string why)
    {
        error = std::move(why);
        return false;
    }
    bool value(DataValue v)
    {
        if (stack_.size() >= limits_.maxStack)
            return stop("more than " + std::to_string(limits_.maxStack) + " values open at once");
        stack_.push_back(v);
        return true;
    }
    bool text(const std::string &s)
    {
        const auto v = s.size() <= limits_.maxStringBytes ? doc_.makeString(s, true) : std::nullopt;
        return v ? value(*v)
                 : stop("a string of " + std::to_string(s.size()) + " bytes is over the limit");
    }
    bool open(DataKind kind)
    {
        if (marks_.size() >= limits_.maxDepth)
            return stop("nested deeper than " + std::to_string(limits_.maxDepth) + " levels");
        if (!value(doc_.newContainer(kind)))
            return false;
        marks_.push_back(stack_.size());
        return true;
    }
    bool close()
    {
        const std::size_t base = marks_.back();
        marks_.pop_back();
        if (!doc_.append(stack_[base - 1], stack_.data() + base, stack_.size() - base))
            return stop("more items than the reader holds");
        stack_.resize(base);
        return true;
    }

    DataDoc &doc_;
    const DataLimits &limits_;
    std::vector<DataValue> stack_;
    std::vector<std::size_t> marks_;
};

} // namespace

namespace {

template <typename Parse> Parsed<DataDoc> readJson(const DataLimits &limits, Parse parse)
{
    DataDoc doc;
    Builder builder(doc, limits);
    bool ok = false;
    try {
        ok = parse(builder);
    } catch (const std::exception &e) { // sax_parse throws on some inputs despite the handler
        builder.error = e.what();
        ok = false;
    }
    if (!ok)
        return Parsed<DataDoc>::fail(builder.error.empty() ? "not JSON" : builder.error);
    doc.setRoot(builder.result());
    return Parsed<DataDoc>::ok(std::move(doc));
}

} // namespace

Parsed<DataDoc> readJsonData(std::string_view text, const DataLimits &limits)
{
    return readJson(limits, [&](Builder &b) {
        return nlohmann::json::sax_parse(text.begin(), text.end(), &b);
    });
}

Parsed<DataDoc> readJsonData(ByteSource &source, const DataLimits &limits)
{
    return readJson(limits, [&](Builder &b) {
        return nlohmann::json::sax_parse(ByteSourceIterator(source), ByteSourceIterator(), &b);
    });
}

} // namespace vramplan
