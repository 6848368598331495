// The estimate against the project's own GPU measurements (tests/data/measured/gpu/
// gpu_h200_grid.json, written by tests/measure/gpu_grid.py on an NVIDIA H200 lent to the project:
// transformers 5.17 and PEFT 0.21 models built from the presets' configs, three steps of a plain
// loop or of HF Trainer's, torch.cuda.max_memory_allocated). Prints the table.
//
// The points are in two sets: `calibration`, which the estimator's rules were checked against
// while they were written, and `held_out` (other families, sizes and settings of the same kinds),
// which judges them. Issue 23's bound is 1.5% mean and 4% worst. Until it holds, the bounds below
// are a ratchet: the best figures reached so far, which may only ever be tightened.

#include "estimate.h"
#include "formats/scenario_json.h"
#include "testhelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

using namespace vramplan;

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

struct Errors
{
    std::vector<double> values;
    std::string worstId;
    double worst = 0;
    double mean() const
    {
        double sum = 0;
        for (double v : values)
            sum += v;
        return values.empty() ? 0 : sum / double(values.size());
    }
};

} // namespace

class TestGpuMeasured : public QObject
{
    Q_OBJECT

private slots:
    void fixtureSaysWhereItCameFrom();
    void scenariosTrainWhatTheRunsTrained();
    void peakAllocatedAgainstTheGrid_data();
    void peakAllocatedAgainstTheGrid();
};

static nlohmann::json grid()
{
    return nlohmann::json::parse(
        test::readFile(test::dataPath("measured/gpu/gpu_h200_grid.json")), nullptr, false);
}

void TestGpuMeasured::fixtureSaysWhereItCameFrom()
{
    const auto doc = grid();
    QVERIFY2(doc.is_object() && doc.contains("entries"), "gpu_h200_grid.json: no entries");
    const auto &env = doc["environment"];
    QCOMPARE(QString::fromStdString(env.value("gpu", "")), QStringLiteral("NVIDIA H200"));
    QCOMPARE(QString::fromStdString(env.value("torch", "")), QStringLiteral("2.11.0+cu130"));
    QCOMPARE(QString::fromStdString(env.value("transformers", "")), QStringLiteral("5.17.0"));
    QCOMPARE(QString::fromStdString(env.value("trainer_default_optim", "")),
             QStringLiteral("adamw_torch_fused"));
    int heldOut = 0;
    for (const auto &e : doc["entries"]) {
        QVERIFY2(!e.contains("error"), qPrintable(QString::fromStdString(e.value("id", "?"))));
        heldOut += e.value("set", "") == "held_out";
    }
    QCOMPARE(int(doc["entries"].size()), 57);
    QCOMPARE(heldOut, 20);
}

// Each point's scenario describes the run: the trainable parameters the estimator counts are
// those the run reported (detail.model.trainable). A scenario that adapts other modules than the
// run did is caught here (PEFT's "all-linear" adapts Qwen3.5's Gated DeltaNet linears too).
void TestGpuMeasured::scenariosTrainWhatTheRunsTrained()
{
    const auto doc = grid();
    for (const auto &r : doc["entries"]) {
        const std::string id = r.value("id", "?");
        const auto parsed = scenarioFromJson(r["scenario"]);
        QVERIFY2(parsed, qPrintable(QString::fromStdString(id + ": " + parsed.error)));
        const Estimate e = estimate(*parsed.value);
        const int64_t trainable = r["detail"]["model"]["trainable"].get<int64_t>();
        QVERIFY2(e.trainableParameters == trainable,
                 qPrintable(QStringLiteral("%1: %2 trainable, the run %3")
                                .arg(QString::fromStdString(id))
                                .arg(e.trainableParameters)
                                .arg(trainable)));
    }
}

void TestGpuMeasured::peakAllocatedAgainstTheGrid_data()
{
    QTest::addColumn<QString>("set");
    QTest::addColumn<double>("meanBound");
    QTest::addColumn<double>("worstBound");
    // Ratchet: issue 23's bound (1.5% mean, 4% worst) holds on both sets; these are the best
    // figures reached (calibration worst: Qwen3-30B-A3B, 4 layers, LoRA on q/v, +3.3%; held-out
    // worst: Nemotron 3 Nano, 6 layers, full recomputation, -1.6%).
    QTest::newRow("calibration") << QStringLiteral("calibration") << 0.0032 << 0.0335;
    QTest::newRow("held_out") << QStringLiteral("held_out") << 0.0027 << 0.0160;
}

void TestGpuMeasured::peakAllocatedAgainstTheGrid()
{
    QFETCH(QString, set);
    QFETCH(double, meanBound);
    QFETCH(double, worstBound);
    const auto doc = grid();
    Errors errors;
    std::printf("%-58s %10s %10s %8s\n", "point", "measured", "estimated", "error");
    for (const auto &r : doc["entries"]) {
        if (r.value("set", "") != set.toStdString())
            continue;
        const std::string id = r.value("id", "?");
        const auto parsed = scenarioFromJson(r["scenario"]);
        QVERIFY2(parsed, qPrintable(QString::fromStdString(id + ": " + parsed.error)));
        const Estimate e = estimate(*parsed.value);
        const double measured = r["measured"]["bytes"].get<double>();
        const double error = (e.peak.allocated - measured) / measured;
        errors.values.push_back(std::fabs(error));
        if (std::fabs(error) > errors.worst) {
            errors.worst = std::fabs(error);
            errors.worstId = id;
        }
        std::printf("%-58s %8.2f G %8.2f G %+7.2f%%\n", id.c_str(), measured / GiB,
                    e.peak.allocated / GiB, error * 100);
    }
    QVERIFY(!errors.values.empty());
    std::printf("%s: %zu points, mean %.2f%%, worst %.2f%% (%s)\n", qPrintable(set),
                errors.values.size(), errors.mean() * 100, errors.worst * 100,
                errors.worstId.c_str());
    const QString why = QStringLiteral("%1: mean %2%, worst %3% (%4)")
                            .arg(set)
                            .arg(errors.mean() * 100, 0, 'f', 2)
                            .arg(errors.worst * 100, 0, 'f', 2)
                            .arg(QString::fromStdString(errors.worstId));
    QVERIFY2(errors.mean() <= meanBound, qPrintable(why));
    QVERIFY2(errors.worst <= worstBound, qPrintable(why));
}

QTEST_APPLESS_MAIN(TestGpuMeasured)
#include "tst_gpumeasured.moc"
