// The estimator's inventory against exact CPU measurements (tests/data/measured/
// cpu_saved_tensors.json, written by tests/measure/cpu_grid.py with Debian's PyTorch): the bytes
// autograd saves inside one transformer block, in the whole model, and the bytes of
// parameters, gradients and optimizer states after a real torch.optim step. Prints the table.
//
// What is compared:
//   saved_per_layer  the estimate's per-layer items (the inventory of one block, or under full
//                    recomputation the checkpointed input), summed over one layer;
//   saved_total      activations and logits/loss alive at the end of forward (the items marked
//                    transient live only inside the loss computation);
//   model_states     parameters + gradients + optimizer states at the optimizer step;
//   vision_saved_per_block, vision_merger_saved
//                    a trained vision tower's per-block and merger items.

#include "estimate.h"
#include "testhelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

using namespace vramplan;

namespace {

// One layer's inventory: of a MoE model's layer `layer` (0-based), its kind's items. Items both
// kinds keep alike are one item counted over every layer; the others are counted over the
// layers of their kind (estimate: activations.cpp, "per-layer saved-tensor inventory").
double perLayerSaved(const Estimate &e, const Scenario &s, int64_t layer)
{
    const ModelConfig &m = s.model;
    const bool moeLayer = m.isMoeLayer(layer);
    const double moeLayers = double(m.moeLayersIn(0, m.layers));
    const double all = double(m.layers);
    double bytes = 0;
    for (const auto &item : e.items) {
        if (item.component != Component::Activations || !item.aliveIn(Phase::Forward))
            continue;
        const bool dense = item.source == "per-layer saved-tensor inventory (dense-MLP layers)";
        const bool main = item.source == "per-layer saved-tensor inventory";
        if (!m.isMoe()) {
            if (item.count == all)
                bytes += item.perUnit;
        } else if (moeLayer ? main : (dense || (main && item.count == all))) {
            bytes += item.perUnit;
        } else if (!main && !dense && item.count == all) {
            bytes += item.perUnit; // a full recompute's checkpointed inputs
        }
        (void)moeLayers;
    }
    return bytes;
}

double predictedFor(const Estimate &e, const Scenario &s, const std::string &metric,
                    int64_t layer)
{
    if (metric == "saved_per_layer")
        return perLayerSaved(e, s, layer);
    // A trained vision tower (tests/measure/vision_blocks.py): one block, and the merger.
    if (metric == "vision_saved_per_block" || metric == "vision_merger_saved") {
        const std::string name = metric == "vision_saved_per_block"
                                     ? "vision tower blocks' saved tensors (trained tower)"
                                     : "vision merger's saved tensors (trained tower)";
        for (const auto &item : e.items)
            if (item.name == name)
                return item.perUnit;
        return 0;
    }
    if (metric == "saved_total") {
        // Alive at the end of forward, less what lives only inside the loss computation.
        double bytes = 0;
        for (const auto &item : e.items)
            if ((item.component == Component::Activations ||
                 item.component == Component::LogitsAndLoss) &&
                item.aliveIn(Phase::Forward) && item.name.find("transient") == std::string::npos)
                bytes += item.bytes();
        return bytes;
    }
    const auto &step = e.phases[int(Phase::OptimizerStep)].byComponent;
    return step[int(Component::Parameters)] + step[int(Component::Gradients)] +
           step[int(Component::OptimizerStates)];
}

struct Bound
{
    double mean, worst;
};

// Per metric: mean and worst absolute relative error allowed. For the families measured first
// (Llama, Mistral, Qwen2, GPT-2, BERT, Phi, GPT-NeoX) these are ratchets holding the best
// figures reached so far; they only ever tighten. What remains is listed in docs/accuracy.md
// ("CPU measurements").
const std::map<std::string, Bound> bounds = {
    {"saved_per_layer", {0.001, 0.004}},
    {"saved_total", {0.014, 0.045}},
    {"model_states", {0.001, 0.001}},
    {"vision_saved_per_block", {0.01, 0.03}},
    {"vision_merger_saved", {0.01, 0.03}},
};
// The 2024-2026 families (Qwen3, Qwen3-MoE, DeepSeek-V2/V3, gpt-oss, Gemma 2/3, OLMo 2): the
// issue's bounds (saved per layer mean <= 1%, worst <= 3%; states exact); saved_total is a
// ratchet at the figures reached.
const std::map<std::string, Bound> newerBounds = {
    {"saved_per_layer", {0.01, 0.03}},
    {"saved_total", {0.005, 0.025}},
    {"model_states", {0.001, 0.001}},
    // the bounds, as for a layer
    {"vision_saved_per_block", {0.01, 0.03}},
    {"vision_merger_saved", {0.01, 0.03}},
};

} // namespace

class TestCpuMeasured : public QObject
{
    Q_OBJECT

private slots:
    void inventoryAgainstAutograd();
};

void TestCpuMeasured::inventoryAgainstAutograd()
{
    const auto doc = nlohmann::json::parse(
        test::readFile(test::dataPath("measured/cpu_saved_tensors.json")), nullptr, false);
    QVERIFY2(doc.is_array() && !doc.empty(), "cpu_saved_tensors.json: not a list of fixtures");
    // Per metric, and apart for the families of 2024-2026 ("new: " before the metric).
    std::map<std::string, std::vector<double>> errors;
    std::printf("%-44s %-16s %12s %12s %8s\n", "fixture", "metric", "measured", "predicted",
                "error");
    for (const auto &r : doc) {
        const std::string id = r.value("id", "?");
        const auto parsed = scenarioFromJson(r["scenario"]);
        QVERIFY2(parsed, qPrintable(QString::fromStdString(id + ": " + parsed.error)));
        const std::string metric = r["measured"].value("metric", "");
        QVERIFY2(bounds.count(metric), qPrintable(QString::fromStdString(id + ": " + metric)));
        const double measured = r["measured"]["bytes"].get<double>();
        const Estimate e = estimate(*parsed.value);
        const int64_t layer = r.contains("detail") && r["detail"].contains("layer")
                                  ? r["detail"]["layer"].get<int64_t>()
                                  : parsed.value->model.layers / 2;
        const double predicted = predictedFor(e, *parsed.value, metric, layer);
        const double error = (predicted - measured) / measured;
        const bool newer = parsed.value->model.family >= Family::Qwen3;
        errors[(newer ? "new: " : "") + metric].push_back(std::fabs(error));
        std::printf("%-44s %-16s %10.2f M %10.2f M %+7.1f%%\n", id.c_str(), metric.c_str(),
                    measured / 1048576.0, predicted / 1048576.0, error * 100);
    }
    for (auto &[key, list] : errors) {
        const bool newer = key.rfind("new: ", 0) == 0;
        const std::string metric = newer ? key.substr(5) : key;
        double mean = 0;
        for (double e : list)
            mean += e;
        mean /= double(list.size());
        const double worst = *std::max_element(list.begin(), list.end());
        std::printf("%s: %zu fixtures, mean absolute error %.1f%%, worst %.1f%%\n",
                    key.c_str(), list.size(), mean * 100, worst * 100);
        const Bound b = (newer ? newerBounds : bounds).at(metric);
        QVERIFY2(mean <= b.mean, qPrintable(QString("%1: mean %2% > %3%")
                                                .arg(QString::fromStdString(key))
                                                .arg(mean * 100)
                                                .arg(b.mean * 100)));
        QVERIFY2(worst <= b.worst, qPrintable(QString("%1: worst %2% > %3%")
                                                  .arg(QString::fromStdString(key))
                                                  .arg(worst * 100)
                                                  .arg(b.worst * 100)));
    }
}

QTEST_APPLESS_MAIN(TestCpuMeasured)
#include "tst_cpumeasured.moc"
