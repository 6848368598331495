// The estimate's vocabulary in words: component and phase names, and formulas with their
// numbers put in.

#include "estimate_terms.h"

#include <cctype>
#include <cstdio>
#include <optional>
#include <utility>

namespace vramplan {

std::string formulaWithNumbers(std::string_view formula, const FormulaSymbols &v)
{
    // Symbols are whole identifiers between operators: "b*s*h*c per layer" -> 1*4096*4096*2.
    auto value = [&](std::string_view name) -> std::optional<double> {
        static constexpr std::pair<std::string_view, double FormulaSymbols::*> table[] = {
            {"b", &FormulaSymbols::b}, {"s", &FormulaSymbols::s},   {"h", &FormulaSymbols::h},
            {"a", &FormulaSymbols::a}, {"kv", &FormulaSymbols::kv}, {"d", &FormulaSymbols::d},
            {"f", &FormulaSymbols::f}, {"V", &FormulaSymbols::V},   {"c", &FormulaSymbols::c},
            {"r", &FormulaSymbols::r}, {"E", &FormulaSymbols::E},   {"k", &FormulaSymbols::k}};
        for (const auto &[key, member] : table)
            if (key == name)
                return v.*member;
        return std::nullopt;
    };
    // Only the expression before any words ("per layer", "(HF ...)") is substituted.
    size_t end = 0;
    while (end < formula.size() &&
           (std::isalnum(static_cast<unsigned char>(formula[end])) ||
            std::string_view("*+-/^()._ ").find(formula[end]) != std::string_view::npos)) {
        // An operand followed by a space and then a word or a parenthesis starts the prose
        // ("c per layer", "c (HF repeats ...)"); within the expression a space sits next to an
        // operator ("2 * b * s * kv", "(1 + c)").
        if (formula[end] == ' ' && end > 0 && end + 1 < formula.size()) {
            size_t before = end;
            while (before > 0 && formula[before - 1] == ' ')
                --before;
            const char prev = before > 0 ? formula[before - 1] : '*';
            const char next = formula[end + 1];
            const bool operandBefore =
                std::isalnum(static_cast<unsigned char>(prev)) || prev == ')';
            if (operandBefore && (std::isalpha(static_cast<unsigned char>(next)) || next == '('))
                break;
        }
        ++end;
    }
    const std::string_view expression = formula.substr(0, end);
    std::string out;
    bool substituted = false;
    for (size_t i = 0; i < expression.size();) {
        if (std::isalpha(static_cast<unsigned char>(expression[i]))) {
            size_t j = i;
            while (j < expression.size() && std::isalnum(static_cast<unsigned char>(expression[j])))
                ++j;
            const auto name = expression.substr(i, j - i);
            if (const auto number = value(name)) {
                char text[32];
                std::snprintf(text, sizeof text, "%.10g", *number);
                out += text;
                substituted = true;
            } else {
                out += name;
            }
            i = j;
        } else {
            out += expression[i++];
        }
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    if (!substituted)
        return std::string(formula);
    return std::string(formula) + " = " + out;
}

std::string_view componentKey(Component c)
{
    static constexpr std::string_view keys[] = {
        "parameters",      "gradients", "optimizer_states", "activations",
        "logits_and_loss", "temporary", "framework",        "kv_cache"};
    return keys[static_cast<int>(c)];
}

std::string_view componentLabel(Component c)
{
    static constexpr std::string_view labels[] = {
        "Parameters",      "Gradients", "Optimizer states", "Activations",
        "Logits and loss", "Temporary", "Framework",        "KV cache"};
    return labels[static_cast<int>(c)];
}

std::string_view phaseKey(Phase p)
{
    static constexpr std::string_view keys[] = {"forward",        "backward",   "backward",
                                                "backward",       "optimizer_step", "validation",
                                                "generation",     "initialisation"};
    return keys[static_cast<int>(p)];
}

std::string_view phaseLabel(Phase p)
{
    static constexpr std::string_view labels[] = {
        "end of forward",  "start of backward (loss)", "backward of the last layer",
        "end of backward", "optimizer step",           "validation pass",
        "text generation", "model load (initialisation)"};
    return labels[static_cast<int>(p)];
}

} // namespace vramplan
