// The estimator against measured peaks: the published runs (tests/data/measured/
// shared_published.json, copied from shared/validation) and the project's own measurements
// (tests/data/measured/*.json, same format). Prints every run's error.
//
// Bounds: issue 5 ("Measure real memory") asks for a mean absolute error <= 8% and a median
// <= 5% on the published runs, every out-of-memory run predicted not to fit. Both hold, and the
// test asserts them (it held the best figures as a ratchet before issue 13 modelled the
// frameworks' FSDP code, which moved the as-published figures from 7.26% / 4.33% to 7.20% /
// 4.49%; the amended runs, issue 13's set, are held to 6% / 4% below). Every run off by more
// than 25% must be named, with its explanation, in
// docs/accuracy.md. The error band drawn on the charts (calibration.h) must match the spread
// of measured / predicted seen here.

#include "advice/calibration.h"
#include "estimate.h"
#include "testhelpers.h"

#include <QDir>
#include <QStringList>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

using namespace vramplan;

namespace {

struct Run
{
    std::string id, metric, reliability;
    double measured = 0, predicted = 0;
    bool predictedFits = true;
    double overByBytes = 0; // how far the estimate's device peak passes the GPU's usable memory
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

// Sets each amendment's dotted scenario paths on its run (shared_published_amendments.json:
// what a source states that the format could not say when the runs were copied).
void amend(nlohmann::json &runs, const nlohmann::json &amendments, QString &problem)
{
    for (const auto &a : amendments["amendments"]) {
        const std::string id = a.value("id", "");
        auto run = std::find_if(runs.begin(), runs.end(),
                                [&](const nlohmann::json &r) { return r.value("id", "") == id; });
        if (run == runs.end()) {
            problem = QString::fromStdString("amendment for an unknown run " + id);
            return;
        }
        for (const auto &[path, value] : a["set"].items()) {
            nlohmann::json *node = &(*run)["scenario"];
            size_t from = 0;
            for (size_t dot = path.find('.'); dot != std::string::npos;
                 from = dot + 1, dot = path.find('.', from))
                node = &(*node)[path.substr(from, dot - from)];
            (*node)[path.substr(from)] = value;
        }
    }
}

nlohmann::json readRuns(const QString &file, QString &problem)
{
    auto doc = nlohmann::json::parse(test::readFile(file), nullptr, false);
    if (!doc.is_array())
        problem = file + ": not a JSON list of runs";
    return doc;
}

// The shared runs with the amendments applied, followed by the runs of `added` files.
nlohmann::json amendedAndAdded(QString &problem, bool withExcluded = false)
{
    nlohmann::json runs = readRuns(test::dataPath("measured/shared_published.json"), problem);
    const auto amendments = nlohmann::json::parse(
        test::readFile(test::dataPath("measured/shared_published_amendments.json")), nullptr, false);
    if (!problem.isEmpty() || !amendments.is_object()) {
        problem = "shared runs or their amendments unreadable";
        return runs;
    }
    amend(runs, amendments, problem);
    const nlohmann::json added =
        readRuns(test::dataPath("measured/published_stacks.json"), problem);
    if (!problem.isEmpty())
        return runs;
    // A record whose own source contradicts the setup it states (published_stacks.md) stays in
    // the file with its reason under "excluded" and is not scored.
    for (const auto &r : added) {
        if (r.contains("excluded") && !withExcluded)
            std::printf("excluded %-11s %s\n", r.value("id", "?").c_str(),
                        r["excluded"].get<std::string>().substr(0, 100).c_str());
        else
            runs.push_back(r);
    }
    return runs;
}

std::vector<Run> evaluate(const nlohmann::json &doc, QString &problem)
{
    std::vector<Run> runs;
    if (!doc.is_array()) {
        problem = "not a JSON list of runs";
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
        run.overByBytes = e.fits ? 0.0 : -e.headroomBytes;
        if (run.metric != "oom") {
            run.measured = r["measured"]["bytes"].get<double>();
            run.predicted = predictedFor(e, *parsed.value, run.metric);
        }
        runs.push_back(run);
    }
    return runs;
}

std::vector<Run> evaluate(const QString &file, QString &problem)
{
    const auto doc = readRuns(file, problem);
    return problem.isEmpty() ? evaluate(doc, problem) : std::vector<Run>{};
}

double relativeError(const Run &r)
{
    return (r.predicted - r.measured) / r.measured;
}

struct Figures
{
    size_t runs = 0;
    double mean = 0, median = 0, worst = 0;
};

// Prints every run and returns the absolute-error figures; an out-of-memory run predicted to
// fit fails the test.
Figures report(const std::vector<Run> &runs)
{
    std::vector<double> errors;
    std::printf("%-12s %-9s %-6s %10s %10s %8s\n", "run", "metric", "trust", "measured",
                "predicted", "error");
    for (const auto &r : runs) {
        if (r.metric == "oom") {
            std::printf("%-12s %-9s %-6s %10s %10s %8s\n", r.id.c_str(), "oom",
                        r.reliability.c_str(), "OOM", r.predictedFits ? "fits" : "OOM",
                        r.predictedFits ? "WRONG" : "ok");
            if (r.predictedFits)
                QTest::qFail((r.id + " ran out of memory but is predicted to fit").c_str(),
                             __FILE__, __LINE__);
            continue;
        }
        const double err = relativeError(r);
        errors.push_back(std::fabs(err));
        if (!r.predictedFits)
            std::printf("%-12s ran, but the estimate says it does not fit (over by %.2f GiB)\n",
                        r.id.c_str(), r.overByBytes / 1073741824.0);
        std::printf("%-12s %-9s %-6s %8.2f G %8.2f G %+7.1f%%\n", r.id.c_str(), r.metric.c_str(),
                    r.reliability.c_str(), r.measured / 1073741824.0, r.predicted / 1073741824.0,
                    err * 100);
    }
    Figures f;
    f.runs = errors.size();
    if (errors.empty())
        return f;
    std::sort(errors.begin(), errors.end());
    for (double e : errors)
        f.mean += e;
    f.mean /= double(errors.size());
    const size_t n = errors.size();
    f.median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
    f.worst = errors.back();
    std::printf("runs %zu: mean absolute error %.2f%%, median %.2f%%, worst %.1f%%\n", n,
                f.mean * 100, f.median * 100, f.worst * 100);
    return f;
}

} // namespace

class TestValidation : public QObject
{
    Q_OBJECT

private slots:
    void publishedRuns();
    void amendedAndAddedRuns();
    void everyRunScored();
    void unseenSources();
    void completedRunsFit();
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
    const Figures f = report(runs);
    if (QTest::currentTestFailed())
        return;
    // Issue 5's bound was 8% / 5%; issue 22 sets each bound at the figure the README claims
    // (6.98% / 4.53%), with a margin for float noise only: a change that worsens it fails until
    // its commit says why the new figure is the truer one. The GEMM workspaces (issue 22,
    // process_buffers.cpp) lowered the mean from 7.20% and raised the median from 4.49%: they
    // add 16-96 MiB to runs that were already over for other reasons, and they are in every
    // torch >= 2.0 process (our own H200 grid: 27 of 57 points within 0.1% with them, 1 before;
    // docs/accuracy.md, "Runs from sources never used").
    constexpr double meanBound = 0.0698 + 0.00005, medianBound = 0.0453 + 0.00005;
    QVERIFY2(f.mean <= meanBound, qPrintable(QString("mean absolute error %1% > %2%")
                                                 .arg(f.mean * 100)
                                                 .arg(meanBound * 100)));
    QVERIFY2(f.median <= medianBound, qPrintable(QString("median absolute error %1% > %2%")
                                                     .arg(f.median * 100)
                                                     .arg(medianBound * 100)));
}

// Issue 13 ("today's training stacks"): the shared runs with what their sources state but the
// format could not say (compile, compile_loss, framework_version: shared_published_amendments.
// json), and the runs added with the stacks of today (published_stacks.json: Liger, Unsloth,
// torchao on torchtitan, torchtune, PEFT, Axolotl). The bound, mean <= 6% and median
// <= 4%, holds over both.
void TestValidation::amendedAndAddedRuns()
{
    QString problem;
    const nlohmann::json all = amendedAndAdded(problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const auto runs = evaluate(all, problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(runs.size() >= 100);
    const std::vector<Run> shared(runs.begin(), runs.begin() + 50);
    std::printf("shared runs, amended:\n");
    const Figures amended = report(shared);
    std::printf("shared (amended) and added runs:\n");
    const Figures both = report(runs);
    if (QTest::currentTestFailed())
        return;
    // Issue 13's bound was mean <= 6% and median <= 4%; issue 22 holds each figure at what the
    // README claims (amended 5.03% / 3.68%, with the added runs 5.81% / 3.74%), with a margin
    // for float noise only; it only tightens.
    constexpr double noise = 0.00005;
    QVERIFY2(amended.mean <= 0.0503 + noise && amended.median <= 0.0368 + noise,
             qPrintable(QString("amended shared runs: mean %1%, median %2% (claimed 5.03% / 3.68%)")
                            .arg(amended.mean * 100)
                            .arg(amended.median * 100)));
    QVERIFY2(both.mean <= 0.0581 + noise && both.median <= 0.0374 + noise,
             qPrintable(QString("shared and added runs: mean %1%, median %2% (claimed 5.81% / 3.74%)")
                            .arg(both.mean * 100)
                            .arg(both.median * 100)));
}

// Issue 22: the runs set aside in published_stacks.json (liger-13 .. 16, axo-04) scored with
// the others, so that the figure told beside the set-aside one shows what leaving them out
// changes. The issue asks for no worse than 8.2% / 4.3% here; the bound is the figure the README
// and docs/accuracy.md claim (a ratchet: it only tightens).
void TestValidation::everyRunScored()
{
    QString problem;
    const auto runs = evaluate(amendedAndAdded(problem, true), problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    std::printf("every run, the set-aside ones included:\n");
    const Figures f = report(runs);
    QVERIFY(f.runs >= 107);
    constexpr double meanClaimed = 0.0809, medianClaimed = 0.0403;
    QVERIFY2(f.mean <= meanClaimed + 0.00005 && f.median <= medianClaimed + 0.00005,
             qPrintable(QString("every run: mean %1%, median %2% (claimed %3% / %4%)")
                            .arg(f.mean * 100)
                            .arg(f.median * 100)
                            .arg(meanClaimed * 100)
                            .arg(medianClaimed * 100)));
}

// Issue 22: published runs from five sources the estimator was never corrected against
// (published_sources2.md: Megatron-LM's functional-test golden values, ms-swift's benchmark
// tables and example scripts, a DeepSpeed LLaMA-7B benchmark, ColossalAI's GPT-2 XL), split
// before any estimate into a file that may guide the physics (published_sources2.json) and a
// third that is never tuned on (published_heldout.json). The issue asks the held-out third to
// come within 2 points of the figure the README claims; until then each figure is a ratchet at
// the value the README states (it only tightens).
void TestValidation::unseenSources()
{
    struct Set
    {
        const char *file;
        double meanClaimed, medianClaimed;
    };
    for (const Set &set : {Set{"measured/published_sources2.json", 0.1570, 0.1202},
                           Set{"measured/published_heldout.json", 0.1504, 0.0781}}) {
        QString problem;
        const auto runs = evaluate(test::dataPath(set.file), problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        std::printf("%s:\n", set.file);
        const Figures f = report(runs);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(f.mean <= set.meanClaimed + 0.00005 && f.median <= set.medianClaimed + 0.00005,
                 qPrintable(QString("%1: mean %2%, median %3% (claimed %4% / %5%)")
                                .arg(set.file)
                                .arg(f.mean * 100)
                                .arg(f.median * 100)
                                .arg(set.meanClaimed * 100)
                                .arg(set.medianClaimed * 100)));
    }
}

// Fits both ways (issue 22): a run reported out of memory must be predicted not to fit
// (report() fails otherwise), and a run that completed must be predicted to fit. Ratchet until
// every completed run is predicted to fit: the runs still predicted over, each with the most it
// may be over by; the list only shrinks and the figures only fall.
void TestValidation::completedRunsFit()
{
    const std::map<std::string, double> stillOverGiB = {
        // Liger's README chart, Llama-3-8B at 8 x 16k on FSDP1 (a bar read in pixels): the
        // estimate's one recomputed layer and its backward (28.5 GiB at 131k tokens per GPU)
        // runs 11.8% over the bar; Liger's in-place RoPE and RMSNorm backward are the likely
        // cause (docs/accuracy.md). (Raised from 5.05 by the GEMM workspaces, below.)
        {"liger-26", 5.06},
        // Gemma-7B in Liger's HF example, set aside (published_stacks.md): its bar at batch 32
        // lies below the fp32 shards, gradients and AdamW states of the setup it states. (10.49
        // before the two 32 MiB cuBLAS workspaces of every torch >= 2.0 process: see above.)
        {"liger-13", 10.50},
        // An ms-swift example script whose header gives the card's whole 80 GiB per GPU
        // (published_sources2.md: expandable segments; the figure may be the allocator filling
        // the card). (0.65 before the two cuBLAS workspaces of every torch >= 2.0 process,
        // which every completed run now carries: 16-64 MiB.)
        {"swm-08", 0.66},
    };
    QString problem;
    std::vector<Run> runs = evaluate(test::dataPath("measured/shared_published.json"), problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const auto current = evaluate(amendedAndAdded(problem, true), problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    runs.insert(runs.end(), current.begin(), current.end());
    for (const char *file : {"measured/published_sources2.json", "measured/published_heldout.json"}) {
        const auto unseen = evaluate(test::dataPath(file), problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        runs.insert(runs.end(), unseen.begin(), unseen.end());
    }
    for (const Run &r : runs) {
        if (r.metric == "oom" || r.predictedFits)
            continue;
        const auto allowed = stillOverGiB.find(r.id);
        QVERIFY2(allowed != stillOverGiB.end(),
                 qPrintable(QString::fromStdString(r.id) +
                            QString(" ran, but is predicted over the GPU by %1 GiB")
                                .arg(r.overByBytes / 1073741824.0, 0, 'f', 2)));
        QVERIFY2(r.overByBytes <= allowed->second * 1073741824.0,
                 qPrintable(QString::fromStdString(r.id) +
                            QString(" is predicted over by %1 GiB, more than the %2 GiB held")
                                .arg(r.overByBytes / 1073741824.0, 0, 'f', 2)
                                .arg(allowed->second)));
    }
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

// Every run off by more than 25% as published, and (issue 13) every run off by more than 15%
// once amended or added (issue 22: the set-aside runs included), is explained in
// docs/accuracy.md's sections on large errors: a paragraph that names the run (`id`) and quotes
// its error as the test computes it, to one decimal ("-19.6%"), so that an explanation whose
// figure has gone stale fails too.
void TestValidation::largeErrorsAreExplained()
{
    QString problem;
    const auto published = evaluate(test::dataPath("measured/shared_published.json"), problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const auto current = evaluate(amendedAndAdded(problem, true), problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const std::string doc = test::readFile(QStringLiteral(VRAMPLAN_TEST_DATA) +
                                           QStringLiteral("/../../docs/accuracy.md"));
    const size_t sections = doc.find("## Runs off by more than 25%");
    QVERIFY2(sections != std::string::npos, "docs/accuracy.md has no section on large errors");
    const std::string explained = doc.substr(sections);
    // The paragraphs (blank-line separated) that name the run.
    const auto explains = [&](const std::string &id, const std::string &figure) {
        const std::string name = "`" + id + "`";
        for (size_t at = explained.find(name); at != std::string::npos;
             at = explained.find(name, at + 1)) {
            const size_t begin = explained.rfind("\n\n", at);
            const size_t stop = explained.find("\n\n", at);
            const std::string paragraph = explained.substr(
                begin == std::string::npos ? 0 : begin,
                stop == std::string::npos ? std::string::npos : stop - begin);
            if (paragraph.find(figure) != std::string::npos)
                return true;
        }
        return false;
    };
    QStringList unexplained;
    const auto check = [&](const std::vector<Run> &runs, double bound) {
        for (const auto &r : runs) {
            if (r.metric == "oom" || std::fabs(relativeError(r)) <= bound)
                continue;
            char figure[32];
            std::snprintf(figure, sizeof figure, "%+.1f%%", relativeError(r) * 100);
            if (!explains(r.id, figure))
                unexplained << QString("%1 %2").arg(QString::fromStdString(r.id), figure);
        }
    };
    check(published, 0.25);
    check(current, 0.15);
    QVERIFY2(unexplained.isEmpty(),
             qPrintable("off by more than 25% as published or 15% now, and no paragraph of "
                        "docs/accuracy.md's large-error sections names the run with that "
                        "figure: " + unexplained.join(", ")));
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
