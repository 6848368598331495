#include "document/scenariofile.h"

#include "document/importedmodels.h"

#include "formats/checkpoint_folder.h"
#include "model/hf_config.h"
#include "formats/scenario_json.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace vramplan::ui {
namespace {

constexpr qint64 maxFileBytes = qint64(64) << 20;

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::ScenarioFile)
};

Parsed<std::string> readText(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    if (QFileInfo(path).isDir())
        return Parsed<std::string>::fail(
            Words::tr("%1: is a folder, not a file").arg(name).toStdString());
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Parsed<std::string>::fail(
            (name + QStringLiteral(": ") + file.errorString()).toStdString());
    if (file.size() > maxFileBytes)
        return Parsed<std::string>::fail(
            Words::tr("%1: larger than 64 MiB; not a scenario").arg(name).toStdString());
    return Parsed<std::string>::ok(file.readAll().toStdString());
}

} // namespace

Parsed<Scenario> readScenarioFile(const QString &path)
{
    auto text = readText(path);
    if (!text)
        return Parsed<Scenario>::fail(text.error);
    auto parsed = scenarioFromText(*text.value);
    if (!parsed)
        parsed.error = QFileInfo(path).fileName().toStdString() + ": " + parsed.error;
    else if (const ModelConfig &m = parsed.value->model; m.preset.empty() && !m.name.empty())
        rememberImportedModel(m, QString::fromStdString(m.name)); // named as when it was saved
    return parsed;
}

QByteArray scenarioFileText(const Scenario &scenario)
{
    // An imported model keeps its name in the file (model.name) while its fields are the ones it
    // was imported with; an edited model is custom again, and a preset is named by its id.
    Scenario named = scenario;
    named.model.name = importedNameOf(scenario.model).toStdString();
    return QByteArray::fromStdString(scenarioToJson(named).dump(2) + "\n");
}

QString writeTextFile(const QString &path, const QByteArray &text)
{
    QSaveFile file(path);
    const QString name = QFileInfo(path).fileName();
    if (!file.open(QIODevice::WriteOnly))
        return name + QStringLiteral(": ") + file.errorString();
    if (file.write(text) != text.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return name + QStringLiteral(": ") + why;
    }
    if (!file.commit())
        return name + QStringLiteral(": ") + file.errorString();
    return {};
}

QString writeScenarioFile(const QString &path, const Scenario &scenario)
{
    return writeTextFile(path, scenarioFileText(scenario));
}

bool isModelConfigFile(const QString &path)
{
    const auto text = readText(path);
    const auto json = text ? hfJsonFromText(*text.value) : Parsed<nlohmann::json>::fail({});
    return json && json.value->is_object() && json.value->contains("model_type") &&
           json.value->value("format", nlohmann::json()) != "vramplan-scenario";
}

Parsed<ModelConfig> readHfConfigFile(const QString &path)
{
    const std::string name = QFileInfo(path).fileName().toStdString();
    auto text = readText(path);
    if (!text)
        return Parsed<ModelConfig>::fail(text.error);
    auto json = hfJsonFromText(*text.value);
    if (!json)
        return Parsed<ModelConfig>::fail(name + ": " + json.error);
    auto fields = modelFieldsFromHfConfig(*json.value, "config");
    if (!fields)
        return Parsed<ModelConfig>::fail(name + ": " + fields.error);
    auto scenario = scenarioFromJson({{"format", "vramplan-scenario"}, {"model", *fields.value}});
    if (!scenario)
        return Parsed<ModelConfig>::fail(name + ": " + scenario.error);
    return Parsed<ModelConfig>::ok(scenario.value->model);
}

Parsed<ModelConfig> readCheckpointFolderModel(const QString &path)
{
    const std::string name = QFileInfo(path).fileName().toStdString();
    auto checkpoint = readCheckpointFolder(QFileInfo(path).absoluteFilePath().toStdString());
    if (!checkpoint)
        return Parsed<ModelConfig>::fail(checkpoint.error);
    auto fields = modelFieldsFromHfConfig(checkpoint.value->config, name + "/config.json");
    if (!fields)
        return Parsed<ModelConfig>::fail(fields.error);
    (*fields.value)["checkpoint_parameters"] = checkpoint.value->total;
    auto scenario = scenarioFromJson({{"format", "vramplan-scenario"}, {"model", *fields.value}});
    if (!scenario)
        return Parsed<ModelConfig>::fail(name + ": " + scenario.error);
    return Parsed<ModelConfig>::ok(scenario.value->model);
}

} // namespace vramplan::ui
