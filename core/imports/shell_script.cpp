// readShellScript, the driver (shell_script.h): the lexer, then the walk; nothing is executed.

#include "imports/shell_script.h"

#include "imports/config_document.h"
#include "imports/shell_script_internal.h"

namespace vramplan::imports {
namespace shell {

ShellScript Walker::run()
{
    try {
        walk();
    } catch (const ImportError &e) {
        const std::string what = e.what();
        if (!what.empty() && what[0] == ':')
            throw ImportError(m_file + ":" + std::to_string(m_line) + what);
        throw;
    }
    for (const auto &[name, var] : m_vars) {
        ShellWord w;
        for (const auto &item : var.items)
            w.text += (w.text.empty() ? "" : " ") + item.text;
        w.line = var.line;
        w.unknowns = var.unknowns;
        w.defaulted = var.defaulted;
        m_out.variables.emplace_back(name, std::move(w));
    }
    return std::move(m_out);
}

} // namespace shell

const ShellWord *ShellScript::variable(std::string_view name) const
{
    for (const auto &[n, w] : variables)
        if (n == name)
            return &w;
    return nullptr;
}

ShellScript readShellScript(const std::string &file, std::string_view text)
{
    if (text.find('\0') != std::string_view::npos)
        throw ImportError(file + ": holds a NUL byte; not a shell script");
    shell::Lexer lexer(file, text);
    shell::Walker walker(file, lexer.run());
    return walker.run();
}

bool looksLikeShellScript(std::string_view text)
{
    if (text.starts_with("#!") &&
        text.substr(0, text.find('\n')).find("sh") != std::string_view::npos)
        return true;
    std::size_t p = 0;
    while (p < text.size()) {
        std::size_t end = text.find('\n', p);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(p, end - p);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.remove_suffix(1);
        std::size_t indent = line.find_first_not_of(" \t");
        std::string_view body = indent == std::string_view::npos ? std::string_view() : line.substr(indent);
        if (!body.starts_with("#") && line.ends_with("\\"))
            return true;
        for (const char *cmd : {"torchrun ", "python ", "python3 ", "swift ", "megatron ",
                                "deepspeed ", "accelerate launch", "export ", "set -x"})
            if (body.starts_with(cmd))
                return true;
        p = end + 1;
    }
    return false;
}

} // namespace vramplan::imports
