#pragma once
// Reads one JSON object field by field, with the dotted path of each field for error messages.
// The first problem is kept and later reads do nothing, so a parser is a plain list of reads
// followed by finish(), which rejects keys nobody asked for (a typo must not pass silently).

#include "formats/enum_names.h"
#include "json_value_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace vramplan {

class JsonReader
{
public:
    JsonReader(const nlohmann::json &object, std::string path, std::string &error)
        : m_object(object), m_path(std::move(path)), m_error(error)
    {
        if (m_error.empty() && !m_object.is_object())
            fail(m_path.empty() ? std::string("the top level") : m_path,
                 std::string("must be a JSON object, got ") + jsonTypeName(m_object));
    }

    bool ok() const { return m_error.empty(); }
    bool has(const char *key) const { return m_object.is_object() && m_object.contains(key); }
    std::string fieldPath(const std::string &key) const
    {
        return m_path.empty() ? key : m_path + "." + key;
    }

    // Marks a key as known without reading it (read elsewhere).
    void accept(const char *key) { m_known.insert(key); }

    bool integer(const char *key, int64_t &out, int64_t min, int64_t max)
    {
        const auto *v = field(key);
        if (!v)
            return false;
        double d = 0;
        if (v->is_number_integer() || v->is_number_unsigned()) {
            d = v->get<double>();
        } else if (v->is_number_float() && std::isfinite(v->get<double>()) &&
                   std::floor(v->get<double>()) == v->get<double>()) {
            d = v->get<double>();
        } else {
            return fail(fieldPath(key), "must be a whole number, got " + describeJson(*v));
        }
        if (d < static_cast<double>(min) || d > static_cast<double>(max))
            return fail(fieldPath(key), rangeText(min, max) + ", got " + describeJson(*v));
        out = static_cast<int64_t>(d);
        return true;
    }

    bool number(const char *key, double &out, double min, double max, bool minExclusive = false)
    {
        const auto *v = field(key);
        if (!v)
            return false;
        if (!v->is_number())
            return fail(fieldPath(key), "must be a number, got " + describeJson(*v));
        const double d = v->get<double>();
        if (!std::isfinite(d) || d < min || d > max || (minExclusive && d == min))
            return fail(fieldPath(key), std::string("must be ") + (minExclusive ? "> " : ">= ") +
                                            trim(min) + " and <= " + trim(max) + ", got " +
                                            describeJson(*v));
        out = d;
        return true;
    }

    bool boolean(const char *key, bool &out)
    {
        const auto *v = field(key);
        if (!v)
            return false;
        if (!v->is_boolean())
            return fail(fieldPath(key), "must be true or false, got " + describeJson(*v));
        out = v->get<bool>();
        return true;
    }

    bool string(const char *key, std::string &out, size_t maxLength = 4096)
    {
        const auto *v = field(key);
        if (!v)
            return false;
        if (!v->is_string())
            return fail(fieldPath(key), "must be a string, got " + describeJson(*v));
        if (v->get_ref<const std::string &>().size() > maxLength)
            return fail(fieldPath(key),
                        "is longer than " + std::to_string(maxLength) + " characters");
        out = v->get<std::string>();
        return true;
    }

    bool stringList(const char *key, std::vector<std::string> &out)
    {
        const auto *v = field(key);
        if (!v)
            return false;
        if (!v->is_array())
            return fail(fieldPath(key), "must be a list of strings, got " + describeJson(*v));
        std::vector<std::string> list;
        for (const auto &item : *v) {
            if (!item.is_string() || item.get_ref<const std::string &>().size() > 256)
                return fail(fieldPath(key),
                            "must be a list of strings, holds " + describeJson(item));
            list.push_back(item.get<std::string>());
        }
        if (list.size() > 256)
            return fail(fieldPath(key), "holds more than 256 names");
        out = std::move(list);
        return true;
    }

    template <typename E> bool enumeration(const char *key, E &out)
    {
        const auto *v = field(key);
        if (!v)
            return false;
        if (!v->is_string())
            return fail(fieldPath(key),
                        "must be one of " + acceptedNames<E>() + ", got " + describeJson(*v));
        const auto parsed = fromString<E>(v->get_ref<const std::string &>());
        if (!parsed)
            return fail(fieldPath(key),
                        "must be one of " + acceptedNames<E>() + ", got " + describeJson(*v));
        out = *parsed;
        return true;
    }

    // The sub-object under key, or nullptr when absent or not an object (then an error is set).
    const nlohmann::json *object(const char *key)
    {
        const auto *v = field(key);
        if (v && !v->is_object()) {
            fail(fieldPath(key), "must be a JSON object, got " + describeJson(*v));
            return nullptr;
        }
        return v;
    }

    bool finish()
    {
        if (!ok() || !m_object.is_object())
            return ok();
        for (const auto &[key, value] : m_object.items())
            if (!m_known.count(key))
                return fail(fieldPath(key), "unknown key (check the spelling; see SPEC §3)");
        return true;
    }

    bool fail(const std::string &where, const std::string &problem)
    {
        // A key may be anything a file holds: keep it short and printable in the message.
        if (m_error.empty())
            m_error = printable(where.size() > 120 ? where.substr(0, 117) + "..." : where) + ": " +
                      printable(problem);
        return false;
    }
    static std::string printable(std::string text)
    {
        for (char &ch : text)
            if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
                ch = '?';
        return text.size() > 400 ? text.substr(0, 400) + "... (cut)" : text;
    }


private:
    const nlohmann::json *field(const char *key)
    {
        m_known.insert(key);
        if (!ok() || !m_object.is_object())
            return nullptr;
        const auto it = m_object.find(key);
        if (it == m_object.end() || it->is_null())
            return nullptr;
        return &*it;
    }
    static std::string trim(double d)
    {
        if (std::floor(d) == d && std::fabs(d) < 1e15)
            return std::to_string(static_cast<long long>(d));
        std::string s = std::to_string(d);
        s.erase(s.find_last_not_of('0') + 1);
        return s;
    }
    static std::string rangeText(int64_t min, int64_t max)
    {
        return "must be >= " + std::to_string(min) + " and <= " + std::to_string(max);
    }

    const nlohmann::json &m_object;
    std::string m_path;
    std::string &m_error;
    std::set<std::string, std::less<>> m_known;
};

} // namespace vramplan
