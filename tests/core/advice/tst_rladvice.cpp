// "Make it fit" for RL plans (core/advice/rl_advice.h, docs/rl.md "In the window"): the shipped
// rl scenarios made not to fit on smaller GPUs get the RL frameworks' knobs, each suggestion a
// complete scenario whose peak is its own estimate's (written to a file and read back), below
// the scenario's own; the figures a user reads are asserted exactly; a plan that fits is left as
// it is; a stopped search says so; and `vramplan-cli advise` gives the same advice as JSON with
// each suggestion's peak phase.

#include "advice/rl_advice.h"
#include "estimate.h"
#include "formats/estimate_json.h"
#include "formats/scenario_json.h"
#include "testhelpers.h"

#include <QProcess>
#include <QTest>

#include <nlohmann/json.hpp>

#include <atomic>
#include <cmath>

using namespace vramplan;
using namespace vramplan::test;

namespace {

// tests/data/scenarios/<name>.vramplan.json, on the catalog GPU `gpu` ("" keeps its own).
Scenario shipped(const QString &name, const std::string &gpu)
{
    auto json = nlohmann::json::parse(
        readFile(dataPath(QStringLiteral("scenarios/%1.vramplan.json").arg(name))));
    if (!gpu.empty())
        json["gpu"] = {{"preset", gpu}};
    return parseOrFail(json.dump());
}

QString changesText(const Suggestion &s)
{
    QStringList out;
    for (const auto &[path, value] : s.changes)
        out << QString::fromStdString(
            path + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    out.sort();
    return out.join(QStringLiteral(", "));
}

std::string peakPhase(const Scenario &s)
{
    return std::string(rlPhaseKey(estimate(s).rl.peak));
}

// "same_semantics: rl.rollout.gpu_memory_utilization=0.4; peak 43.66 GiB in training"
QString suggestionText(const Suggestion &s)
{
    return QStringLiteral("%1: %2; peak %3 in %4")
        .arg(QString::fromStdString(std::string(changeKindKey(s.kind))), changesText(s),
             QString::fromStdString(formatBytes(s.peakDeviceBytes)),
             QString::fromStdString(peakPhase(s.scenario)));
}

} // namespace

class TestRlAdvice : public QObject
{
    Q_OBJECT

private slots:
    void proposals_data();
    void proposals();
    void everySuggestionIsACompleteScenario_data() { proposals_data(); }
    void everySuggestionIsACompleteScenario();
    void costsAreSaid();
    void cancelledSearch();
    void cliAdviseJson();
};

void TestRlAdvice::proposals_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<bool>("fitsNow");
    QTest::addColumn<QStringList>("suggestions");
    QTest::addColumn<QString>("nearest"); // when nothing fits
    QTest::addColumn<QList<qint64>>("solvers"); // largest micro-batch, sequence, fewest GPUs

    // 24 GiB: the TRL LoRA plan's colocated engine cannot start at 0.3 (its 14.2 GiB of weights
    // over a 7.1 GiB budget); only the knobs together fit it, with the costliest left out.
    QTest::newRow("TRL GRPO on a 24 GiB RTX 4090")
        << "rl_grpo_trl_qwen2.5-7b" << "rtx-4090" << false
        << QStringList{"same_semantics: rl.offload.policy_parameters=true, "
                       "rl.rollout.gpu_memory_utilization=0.65, rl.rollout.sleep_level=1, "
                       "training.gradient_accumulation_steps=8, training.micro_batch_size=4; "
                       "peak 21.18 GiB in training"}
        << QString() << QList<qint64>{0, 0, 0};
    // A full fine-tune of 8B under ZeRO-3 on 8 x 24 GiB: only LoRA fits it on these GPUs, and
    // 13 GPUs would without a change.
    QTest::newRow("TRL DPO on 24 GiB RTX 4090s")
        << "rl_dpo_trl_llama-3.1-8b" << "rtx-4090" << false
        << QStringList{"method: training.finetune.method=lora; peak 12.71 GiB in training"}
        << QString() << QList<qint64>{0, 0, 13};
    // verl's 7B full fine-tune on 2 x 24 GiB: nothing fits; the nearest takes every knob.
    QTest::newRow("verl GRPO on 24 GiB RTX 4090s")
        << "rl_grpo_verl_qwen2.5-7b" << "rtx-4090" << false << QStringList{}
        << "rl.response_tokens=256, rl.rollout.gpus=2, rl.rollout.placement=separate, "
           "training.finetune.method=lora, training.gradient_accumulation_steps=16, "
           "training.micro_batch_size=1; over by 2.46 GiB in experience"
        << QList<qint64>{0, 0, 0};
    QTest::newRow("TRL GRPO on a 40 GiB A100")
        << "rl_grpo_trl_qwen2.5-7b" << "a100-40gb" << false
        << QStringList{"same_semantics: rl.rollout.gpu_memory_utilization=0.4, "
                       "rl.rollout.sleep_level=1; peak 30.96 GiB in generation",
                       "hardware: rl.rollout.gpus=1, rl.rollout.placement=separate; "
                       "peak 26.01 GiB in training"}
        << QString() << QList<qint64>{0, 0, 0};
    QTest::newRow("verl GRPO on 40 GiB A100s")
        << "rl_grpo_verl_qwen2.5-7b" << "a100-40gb" << false
        << QStringList{"method: training.finetune.method=lora, "
                       "training.gradient_accumulation_steps=16, training.micro_batch_size=1; "
                       "peak 38.92 GiB in experience"}
        << QString() << QList<qint64>{0, 0, 12};
    // One knob alone: the engine's budget raised from 0.3 to 0.4 of the 48 GiB, where its
    // weights fit with a KV cache beside them.
    QTest::newRow("TRL GRPO on a 48 GiB L40S")
        << "rl_grpo_trl_qwen2.5-7b" << "l40s-48gb" << false
        << QStringList{"same_semantics: rl.rollout.gpu_memory_utilization=0.4; "
                       "peak 43.66 GiB in training",
                       "hardware: rl.rollout.gpus=1, rl.rollout.placement=separate; "
                       "peak 26.01 GiB in training"}
        << QString() << QList<qint64>{0, 0, 0};
    QTest::newRow("verl GRPO on 48 GiB L40Ss")
        << "rl_grpo_verl_qwen2.5-7b" << "l40s-48gb" << false
        << QStringList{"method: training.finetune.method=lora; peak 43.25 GiB in training"}
        << QString() << QList<qint64>{0, 0, 7};
    // The shipped plans fit their own GPUs: nothing to change.
    QTest::newRow("verl GRPO as shipped") << "rl_grpo_verl_qwen2.5-7b" << "" << true
                                          << QStringList{} << QString()
                                          << QList<qint64>{18, 2304, 2};
    QTest::newRow("TRL GRPO as shipped") << "rl_grpo_trl_qwen2.5-7b" << "" << true
                                         << QStringList{} << QString()
                                         << QList<qint64>{31, 4864, 1};
    QTest::newRow("TRL DPO as shipped") << "rl_dpo_trl_llama-3.1-8b" << "" << true
                                        << QStringList{} << QString()
                                        << QList<qint64>{13, 13824, 3};
}

void TestRlAdvice::proposals()
{
    QFETCH(QString, file);
    QFETCH(QString, gpu);
    QFETCH(bool, fitsNow);
    QFETCH(QStringList, suggestions);
    QFETCH(QString, nearest);
    QFETCH(QList<qint64>, solvers);
    const Scenario s = shipped(file, gpu.toStdString());
    const Advice a = adviseRl(s);
    QCOMPARE(a.fitsNow, fitsNow);
    QVERIFY(!a.cancelled);
    QStringList shown;
    for (const Suggestion &sg : a.suggestions)
        shown << suggestionText(sg);
    QCOMPARE(shown, suggestions);
    QCOMPARE(a.hasNearest, !nearest.isEmpty());
    if (a.hasNearest)
        QCOMPARE(QStringLiteral("%1; over by %2 in %3")
                     .arg(changesText(a.nearest),
                          QString::fromStdString(formatBytes(-a.nearest.headroomBytes)),
                          QString::fromStdString(peakPhase(a.nearest.scenario))),
                 nearest);
    QCOMPARE((QList<qint64>{a.maxMicroBatch, a.maxSequence, a.minGpus}), solvers);
    QCOMPARE(a.searched, a.estimated);
    QVERIFY(fitsNow || a.searched > 0);
}

void TestRlAdvice::everySuggestionIsACompleteScenario()
{
    QFETCH(QString, file);
    QFETCH(QString, gpu);
    const Scenario s = shipped(file, gpu.toStdString());
    const Estimate own = estimate(s);
    const Advice a = adviseRl(s);
    std::vector<Suggestion> all = a.suggestions;
    if (a.hasNearest)
        all.push_back(a.nearest);
    for (const Suggestion &sg : all) {
        // Judged from scratch: written out as a file, read back and estimated.
        const auto reread = scenarioFromJson(scenarioToJson(sg.scenario));
        QVERIFY2(reread, reread.error.c_str());
        const Estimate e = estimate(*reread.value);
        QCOMPARE(e.peak.device, sg.peakDeviceBytes);
        QCOMPARE(e.headroomBytes, sg.headroomBytes);
        QVERIFY(e.rl.present && e.rl.engineStarts);
        QVERIFY(sg.peakDeviceBytes < own.peak.device || !own.rl.engineStarts);
        QCOMPARE(sg.headroomBytes >= 0, &sg != &all.back() || !a.hasNearest);
        // The model and the algorithm stay; only the knobs the changes name move.
        QCOMPARE(reread.value->model.layers, s.model.layers);
        QCOMPARE(reread.value->rl.algorithm, s.rl.algorithm);
        QCOMPARE(reread.value->rl.promptTokens, s.rl.promptTokens);
    }
}

void TestRlAdvice::costsAreSaid()
{
    const Advice a = adviseRl(shipped(QStringLiteral("rl_grpo_trl_qwen2.5-7b"), "l40s-48gb"));
    QCOMPARE(a.suggestions.size(), size_t(2));
    QCOMPARE(QString::fromStdString(a.suggestions[0].costBasis),
             QStringLiteral("The engine's budget is 17.82 GiB per GPU: what is left after its "
                            "weights is the KV cache, and a smaller one decodes fewer responses "
                            "at once, so generation takes longer."));
    QCOMPARE(QString::fromStdString(a.suggestions[1].costBasis),
             QStringLiteral("1 more GPU holds the engine, and the policy's weights are sent to "
                            "it after every update."));
    for (const Suggestion &s : a.suggestions)
        QCOMPARE(s.relativeStepTime, 0.0); // not priced for RL plans: "time unknown"
}

void TestRlAdvice::cancelledSearch()
{
    std::atomic<bool> stop{true};
    AdviceOptions options;
    options.cancel = &stop;
    const Advice a = adviseRl(shipped(QStringLiteral("rl_grpo_verl_qwen2.5-7b"), "rtx-4090"), options);
    QVERIFY(a.cancelled);
    QVERIFY(a.suggestions.empty());
    QVERIFY(!a.hasNearest);
}

void TestRlAdvice::cliAdviseJson()
{
    const Scenario s = shipped(QStringLiteral("rl_grpo_trl_qwen2.5-7b"), "l40s-48gb");
    QProcess cli;
    cli.start(QStringLiteral(VRAMPLAN_CLI), {QStringLiteral("advise"), QStringLiteral("-")});
    QVERIFY(cli.waitForStarted());
    cli.write(QByteArray::fromStdString(scenarioToJson(s).dump()));
    cli.closeWriteChannel();
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const auto json = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
    QCOMPARE(json["format"].get<std::string>(), std::string("vramplan-advice"));
    QCOMPARE(json["fits_now"].get<bool>(), false);
    QCOMPARE(json["suggestions"].size(), size_t(2));
    QCOMPARE(json["suggestions"][0]["changes"].dump(),
             std::string(R"({"rl.rollout.gpu_memory_utilization":0.4})"));
    QCOMPARE(json["suggestions"][0]["rl_peak_phase"].get<std::string>(), std::string("training"));
    QCOMPARE(json["suggestions"][1]["rl_peak_phase"].get<std::string>(), std::string("training"));
    QCOMPARE(json["suggestions"][0]["peak_device_bytes"].get<double>(),
             std::round(adviseRl(s).suggestions[0].peakDeviceBytes));
    QVERIFY(json["suggestions"][0]["cost_basis"].get<std::string>().starts_with("The engine's budget"));
}

QTEST_APPLESS_MAIN(TestRlAdvice)
#include "tst_rladvice.moc"
