// The estimator against measured peaks: the published runs (tests/data/measured/
// shared_published.json, copied from shared/validation) and the project's own measurements
// (tests/data/measured/*.json, same format). Prints every run's error.
//
// Bounds: issue 5 ("Measure real memory") asks for a mean absolute error <= 8% and a median
// <= 5% on the published runs, every out-of-memory run predicted not to fit. Both hold; the test
// is also a ratchet holding the best figures reached so far (mean 7.26%, median 4.33%), so it
// only ever tightens. Every run off by more than 25% must be named, with its explanation, in
// docs/accuracy.md. The error band drawn on the charts (calibration.h) must match the spread
// of measured / predicted seen here.

#include "calibration.h"
#include "estimate.h"
#include "testhelpers.h"

#include <QDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace vramplan;

namespace {

struct Run
{
    std::string id, metric, reliability;
    double measured = 0, predicted = 0;
    bool predictedFits = true;
};

// The number a source measured: Megatron logs the last rank (the last pipeline stage, which
// holds the output layer and the loss; megatron/training/global_vars.py), the others the rank
// with the largest peak or rank 0, which the reported peak stands for.
double predictedFor(const Estimate &e, const Scenario &s, const std::string &metric)
{
    const Peak &p = s.framework == Framework::Megatron ? e.lastStage : e.peak;
    if (metric == "allocated")
        return p.allocated;
    if (metric == "reserved")
        return p.reserved;
    return p.device;
}

std::vector<Run> evaluate(const QString &file, QString &problem)
{
    std::vector<Run> runs;
    const auto doc = nlohmann::json::parse(test::readFile(file), nullptr, false);
    if (!doc.is_array()) {
        problem = file + ": not a JSON list of runs";
        return runs;
    }
    for (const auto &r : doc) {
        Run run;
        run.id = r.value("id", "?");
        run.metric = r["measured"].value("metric", "");
        run.reliability = r.value("reliability", "");
        auto parsed = scenarioFromJson(r["scenario"]);
        if (!parsed) {
            problem = QString::fromStdString(run.id + ": " + parsed.error);
            return runs;
        }
        const Estimate e = estimate(*parsed.value);
        run.predictedFits = e.fits;
        if (run.metric != "oom") {
            run.measured = r["measured"]["bytes"].get<double>();
            run.predicted = predictedFor(e, *parsed.value, run.metric);
        }
        runs.push_back(run);
    }
    return runs;
}

double relativeError(const Run &r)
{
    return (r.predicted - r.measured) / r.measured;
}

} // namespace

class TestValidation : public QObject
{
    Q_OBJECT

private slots:
    void publishedRuns();
    void errorBandMatchesTheRuns();
    void largeErrorsAreExplained();
    void fixturesInStep_data();
    void fixturesInStep();
};

void TestValidation::publishedRuns()
{
    QString problem;
    const auto runs = evaluate(test::dataPath("measured/shared_published.json"), problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(runs.size() >= 40);
    std::vector<double> errors;
    std::printf("%-12s %-9s %-6s %10s %10s %8s\n", "run", "metric", "trust", "measured",
                "predicted", "error");
    for (const auto &r : runs) {
        if (r.metric == "oom") {
            std::printf("%-12s %-9s %-6s %10s %10s %8s\n", r.id.c_str(), "oom",
                        r.reliability.c_str(), "OOM", r.predictedFits ? "fits" : "OOM",
                        r.predictedFits ? "WRONG" : "ok");
            QVERIFY2(!r.predictedFits, qPrintable(QString::fromStdString(
                                           r.id + " ran out of memory but is predicted to fit")));
            continue;
        }
        const double err = relativeError(r);
        errors.push_back(std::fabs(err));
        std::printf("%-12s %-9s %-6s %8.2f G %8.2f G %+7.1f%%\n", r.id.c_str(), r.metric.c_str(),
                    r.reliability.c_str(), r.measured / 1073741824.0, r.predicted / 1073741824.0,
                    err * 100);
    }
    std::sort(errors.begin(), errors.end());
    double mean = 0;
    for (double e : errors)
        mean += e;
    mean /= double(errors.size());
    const size_t n = errors.size();
    const double median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
    std::printf("runs %zu: mean absolute error %.2f%%, median %.2f%%, worst %.1f%%\n", n,
                mean * 100, median * 100, errors.back() * 100);
    // Ratchet towards issue 5's 8% / 5% (see the top of this file).
    constexpr double meanBound = 0.073, medianBound = 0.044;
    QVERIFY2(mean <= meanBound, qPrintable(QString("mean absolute error %1% > %2%")
                                               .arg(mean * 100)
                                               .arg(meanBound * 100)));
    QVERIFY2(median <= medianBound, qPrintable(QString("median absolute error %1% > %2%")
                                                   .arg(median * 100)
                                                   .arg(medianBound * 100)));
}

// The band the charts draw: the 10th and 90th percentiles of measured / predicted.
void TestValidation::errorBandMatchesTheRuns()
{
    QString problem;
    const auto runs = evaluate(test::dataPath("measured/shared_published.json"), problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    std::vector<double> ratios;
    for (const auto &r : runs)
        if (r.metric != "oom")
            ratios.push_back(r.measured / r.predicted);
    std::sort(ratios.begin(), ratios.end());
    auto percentile = [&](double q) {
        const double at = q * double(ratios.size() - 1);
        const size_t i = size_t(at);
        const double frac = at - double(i);
        return i + 1 < ratios.size() ? ratios[i] * (1 - frac) + ratios[i + 1] * frac : ratios[i];
    };
    const double low = percentile(0.10), high = percentile(0.90);
    std::printf("measured / predicted: 10th percentile %.3f, 90th %.3f\n", low, high);
    QVERIFY2(std::fabs(low - validationErrorBand.low) <= 0.01,
             qPrintable(QString("validationErrorBand.low is %1, the runs give %2")
                            .arg(validationErrorBand.low)
                            .arg(low, 0, 'f', 3)));
    QVERIFY2(std::fabs(high - validationErrorBand.high) <= 0.01,
             qPrintable(QString("validationErrorBand.high is %1, the runs give %2")
                            .arg(validationErrorBand.high)
                            .arg(high, 0, 'f', 3)));
}

void TestValidation::largeErrorsAreExplained()
{
    QString problem;
    const auto runs = evaluate(test::dataPath("measured/shared_published.json"), problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const std::string doc = test::readFile(QStringLiteral(VRAMPLAN_TEST_DATA) +
                                           QStringLiteral("/../../docs/accuracy.md"));
    QVERIFY2(!doc.empty(), "docs/accuracy.md is missing");
    for (const auto &r : runs) {
        if (r.metric == "oom" || std::fabs(relativeError(r)) <= 0.25)
            continue;
        QVERIFY2(doc.find(r.id) != std::string::npos,
                 qPrintable(QString::fromStdString(
                     r.id + " is off by more than 25% and not named in docs/accuracy.md")));
    }
}

void TestValidation::fixturesInStep_data()
{
    QTest::addColumn<QString>("copy");
    QTest::addColumn<QString>("original");
    QTest::newRow("measured") << "measured/shared_published.json"
                              << "validation/measured.json";
    QTest::newRow("param_counts") << "hf_configs/param_counts.json"
                                  << "validation/param_counts.json";
    for (const char *name : {"gpt2", "llama-2-7b", "meta-llama-3-8b", "mistral-7b-v0.1",
                             "mixtral-8x7b-v0.1", "qwen2.5-0.5b"})
        QTest::newRow(name) << QString("hf_configs/%1.json").arg(name)
                            << QString("validation/hf_configs/%1.json").arg(name);
}

// The fixtures are copies of shared/validation (a clone must stand alone); where the shared
// folder is beside the checkout, they must not have drifted from it.
void TestValidation::fixturesInStep()
{
    QFETCH(QString, copy);
    QFETCH(QString, original);
    const QString shared = QStringLiteral(VRAMPLAN_SHARED_DIR) + QLatin1Char('/') + original;
    if (!QFile::exists(shared))
        QSKIP("no shared/ beside the checkout");
    QVERIFY2(test::readFile(test::dataPath(copy)) == test::readFile(shared),
             qPrintable(copy + " differs from " + shared + ": copy it again"));
}

QTEST_APPLESS_MAIN(TestValidation)
#include "tst_validation.moc"
