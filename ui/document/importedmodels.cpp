#include "document/importedmodels.h"

#include "formats/scenario_json.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <string>
#include <utility>
#include <vector>

namespace vramplan::ui {
namespace {

// The model's fields as a scenario file writes them: two models are the same model when these
// are equal.
std::string fingerprint(const ModelConfig &model)
{
    Scenario s;
    s.model = model;
    s.model.moe.imbalance = 1.0; // a property of the run, which the import does not set
    s.model.name.clear();        // the name is what is looked up, not part of the model
    return scenarioToJson(s).value("model", nlohmann::json()).dump();
}

std::vector<std::pair<std::string, QString>> &imported()
{
    static std::vector<std::pair<std::string, QString>> models;
    return models;
}

} // namespace

QString importedModelName(const QString &path)
{
    const QFileInfo info(path);
    QFile config(info.isDir() ? QDir(path).filePath(QStringLiteral("config.json")) : path);
    if (config.open(QIODevice::ReadOnly)) {
        const QString named =
            QJsonDocument::fromJson(config.readAll()).object().value("_name_or_path").toString();
        const QString last = named.section(QLatin1Char('/'), -1, -1, QString::SectionSkipEmpty);
        if (!last.trimmed().isEmpty())
            return last.trimmed();
    }
    return info.fileName();
}

void rememberImportedModel(const ModelConfig &model, const QString &name)
{
    if (!model.preset.empty() || name.isEmpty())
        return;
    const std::string key = fingerprint(model);
    for (auto &[fields, known] : imported())
        if (fields == key) {
            known = name;
            return;
        }
    imported().emplace_back(key, name);
}

QString importedNameOf(const ModelConfig &model)
{
    if (!model.preset.empty() || imported().empty())
        return {};
    const std::string key = fingerprint(model);
    for (const auto &[fields, name] : imported())
        if (fields == key)
            return name;
    return {};
}

} // namespace vramplan::ui
