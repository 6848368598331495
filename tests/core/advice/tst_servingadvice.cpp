// The serving advice (core/advice/serving_advice.h, docs/serving.md "Advice"): every suggestion,
// estimated on its own from its scenario file, starts and serves the target; a brute-force loop
// over every GPU, TP, PP, quantization and KV dtype agrees with the search on whether anything
// serves and on the cheapest cost; an impossible target gives the nearest; and the figures a
// user sees for Llama-3.1-8B on one H100, checked by hand.

#include "catalog.h"
#include "formats/enum_names.h"
#include "estimate.h"
#include "formats/scenario_json.h"
#include "serving/serving.h"
#include "advice/serving_advice.h"
#include "advice/serving_advice_start.h"
#include "testhelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace vramplan;
using namespace vramplan::test;

namespace {

constexpr double GiB = 1073741824.0;

Scenario servingScenario(const std::string &preset, const std::string &gpu,
                         const nlohmann::json &serving, int tp = 1)
{
    const nlohmann::json doc = {
        {"format", "vramplan-scenario"},
        {"model", {{"preset", preset}}},
        {"training", {{"mode", "inference"}, {"precision", "bf16"}}},
        {"parallelism", {{"gpus", tp}, {"tensor_parallel", tp}}},
        {"gpu", {{"preset", gpu}}},
        {"serving", serving}};
    return parseOrFail(doc.dump());
}

// Judged from scratch: the scenario written out and read back as a file, then estimated.
bool servesFromFile(const Scenario &s, const ServingTarget &t, Estimate *out = nullptr)
{
    auto parsed = scenarioFromJson(scenarioToJson(s));
    if (!parsed)
        return false;
    const Estimate e = estimate(*parsed.value);
    if (out)
        *out = e;
    return e.serving.present && e.serving.status == ServingStatus::Ok &&
           e.serving.maxConcurrency >= double(t.requests) && e.fits &&
           e.serving.settings.maxModelLen == t.tokens;
}

struct BruteForce
{
    bool anything = false;
    double cheapest = std::numeric_limits<double>::infinity();
    int64_t tried = 0;
};

// Every catalog GPU x every quantization the GPU allows (GPTQ and bitsandbytes too) x auto/fp8
// KV x TP 1-8 x PP 1-2, each estimated in full: no pruning, no early exit.
BruteForce bruteForce(const Scenario &base, const ServingTarget &t)
{
    BruteForce out;
    for (const auto &g : Catalog::builtin().gpus()) {
        const Scenario onKind = onGpu(base, g);
        for (const auto &entry : enumNames<WeightQuantization>()) {
            if (!quantizationAllowed(onKind, entry.value))
                continue;
            for (KvCacheDtype kv : {KvCacheDtype::Auto, KvCacheDtype::Fp8}) {
                if (kv != base.serving.kvCacheDtype && kv == KvCacheDtype::Fp8 &&
                    !kvFp8Allowed(onKind))
                    continue;
                if (kv == base.serving.kvCacheDtype && kv == KvCacheDtype::Fp8 &&
                    !kvFp8Allowed(onKind))
                    continue;
                for (int64_t tp : {1, 2, 4, 8}) {
                    for (int64_t pp : {1, 2}) {
                        if (pp > 1 && base.serving.engine == ServingEngine::Transformers)
                            continue;
                        Scenario c = onKind;
                        c.serving.quantization = entry.value;
                        c.serving.kvCacheDtype = kv;
                        const auto tps = searchedTensorParallel(c);
                        if (std::find(tps.begin(), tps.end(), tp) == tps.end())
                            continue;
                        c.parallelism.tensorParallel = tp;
                        c.parallelism.pipelineParallel = pp;
                        c.parallelism.gpus = tp * pp;
                        c.parallelism.expertParallel = 1;
                        c.parallelism.contextParallel = 1;
                        c.parallelism.virtualPipelineParallel = 1;
                        c = withTarget(c, t);
                        if (!checkScenario(c).empty())
                            continue;
                        ++out.tried;
                        if (servesFromFile(c, t)) {
                            out.anything = true;
                            out.cheapest = std::min(out.cheapest, double(tp * pp) * c.gpu.memoryGiB);
                        }
                    }
                }
            }
        }
    }
    return out;
}

} // namespace

class TestServingAdvice : public QObject
{
    Q_OBJECT

private slots:
    void suggestionsServeOnTheirOwn_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("serving");
        QTest::addColumn<qint64>("requests");
        QTest::addColumn<qint64>("tokens");
        QTest::newRow("llama-3.1-8b vllm 16 x 32k")
            << "llama-3.1-8b" << "h100-80gb" << R"({"engine":"vllm"})" << qint64(16) << qint64(32768);
        QTest::newRow("llama-3.1-8b sglang 64 x 8k")
            << "llama-3.1-8b" << "a100-80gb" << R"({"engine":"sglang"})" << qint64(64) << qint64(8192);
        QTest::newRow("qwen3-32b vllm fp8 kv 8 x 32k")
            << "qwen3-32b" << "h100-80gb" << R"({"engine":"vllm","kv_cache_dtype":"fp8"})"
            << qint64(8) << qint64(32768);
        QTest::newRow("gpt-oss-20b mxfp4 (hybrid sliding KV)")
            << "gpt-oss-20b" << "h100-80gb" << R"({"engine":"vllm","quantization":"mxfp4"})"
            << qint64(32) << qint64(65536);
        QTest::newRow("deepseek-v2-lite MLA")
            << "deepseek-v2-lite" << "a100-80gb" << R"({"engine":"vllm"})" << qint64(32)
            << qint64(16384);
        QTest::newRow("llama-3.1-70b eager 4 x 128k")
            << "llama-3.1-70b" << "h100-80gb" << R"({"engine":"vllm","cuda_graphs":false})"
            << qint64(4) << qint64(131072);
        QTest::newRow("qwen3-4b transformers generate")
            << "qwen3-4b" << "rtx-4090" << R"({"engine":"transformers"})" << qint64(8)
            << qint64(4096);
    }
    void suggestionsServeOnTheirOwn()
    {
        QFETCH(QString, preset);
        QFETCH(QString, gpu);
        QFETCH(QString, serving);
        QFETCH(qint64, requests);
        QFETCH(qint64, tokens);
        const Scenario base = servingScenario(preset.toStdString(), gpu.toStdString(),
                                              nlohmann::json::parse(serving.toStdString()));
        const ServingTarget t{requests, tokens};
        const ServingAdvice a = adviseServing(base, t);
        QCOMPARE(a.target.requests, int64_t(requests));
        QCOMPARE(a.target.tokens, int64_t(tokens));
        QVERIFY2(!a.suggestions.empty(), "something in the catalog serves each of these");
        QVERIFY(!a.hasNearest);
        QVERIFY(a.searched >= a.estimated && a.estimated >= int64_t(a.suggestions.size()));
        double previous = 0;
        for (const auto &sg : a.suggestions) {
            Estimate e;
            QVERIFY2(servesFromFile(sg.scenario, t, &e), sg.basis.c_str());
            // What the suggestion reports is what the estimate of its file says.
            QCOMPARE(e.serving.kvCacheTokens, sg.plan.kvCacheTokens);
            QCOMPARE(e.serving.maxConcurrency, sg.plan.maxConcurrency);
            QCOMPARE(e.headroomBytes, sg.headroomBytes);
            QCOMPARE(sg.kvHeadroomTokens, sg.plan.kvCacheTokens - requests * tokens);
            QVERIFY(sg.serves && sg.headroomBytes >= 0 && sg.shortByBytes == 0);
            // The model and the engine stay; the cost is GPUs x GiB per GPU; cheapest first.
            QCOMPARE(sg.scenario.model.layers, base.model.layers);
            QVERIFY(sg.scenario.serving.engine == base.serving.engine);
            QCOMPARE(sg.relativeCost, double(sg.scenario.parallelism.gpus) * sg.scenario.gpu.memoryGiB);
            QVERIFY(sg.relativeCost >= previous);
            previous = sg.relativeCost;
            const bool numerics = sg.scenario.serving.quantization != base.serving.quantization ||
                                  sg.scenario.serving.kvCacheDtype != base.serving.kvCacheDtype;
            QVERIFY(sg.kind == (numerics ? ChangeKind::Numerics : ChangeKind::SameSemantics));
            QVERIFY(std::isfinite(sg.decodeTokensPerSecond) && sg.decodeTokensPerSecond > 0);
            QVERIFY(std::isfinite(sg.relativeStepTime) && sg.relativeStepTime > 0);
            QVERIFY(!sg.basis.empty() && sg.basis.find('\n') == std::string::npos);
        }
        // The JSON carries the same, per SPEC's advice format plus the serving block.
        const nlohmann::json j = servingAdviceToJson(a);
        QCOMPARE(j["format"].get<std::string>(), std::string("vramplan-advice"));
        QCOMPARE(j["suggestions"].size(), a.suggestions.size());
        for (const auto &sg : j["suggestions"]) {
            QVERIFY(sg["fits"].get<bool>() && sg["serving"]["serves"].get<bool>());
            QVERIFY(sg["serving"]["max_concurrency"].get<double>() >= double(requests) - 0.005);
            QCOMPARE(sg["scenario"]["serving"].contains("max_model_len"),
                     base.serving.engine != ServingEngine::Transformers);
        }
    }

    void bruteForceAgrees_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("serving");
        QTest::addColumn<qint64>("requests");
        QTest::addColumn<qint64>("tokens");
        QTest::newRow("small model, easy") << "qwen3-0.6b" << R"({"engine":"vllm"})" << qint64(4)
                                           << qint64(4096);
        QTest::newRow("8b, 64 x 32k") << "llama-3.1-8b" << R"({"engine":"vllm"})" << qint64(64)
                                      << qint64(32768);
        QTest::newRow("8b sglang, 300 x 32k") << "llama-3.1-8b" << R"({"engine":"sglang"})"
                                              << qint64(300) << qint64(32768);
        QTest::newRow("70b, 16 x 128k") << "llama-3.1-70b" << R"({"engine":"vllm"})" << qint64(16)
                                        << qint64(131072);
        QTest::newRow("405b, 512 x 128k: nothing") << "llama-3.1-405b" << R"({"engine":"vllm"})"
                                                   << qint64(512) << qint64(131072);
        QTest::newRow("qwen3-30b-a3b MoE, 4 kv heads, 64 x 32k")
            << "qwen3-30b-a3b" << R"({"engine":"vllm"})" << qint64(64) << qint64(32768);
        QTest::newRow("gemma-3-27b sliding, 16 x 32k") << "gemma-3-27b-pt" << R"({"engine":"vllm"})"
                                                      << qint64(16) << qint64(32768);
        QTest::newRow("qwen3-4b transformers, 16 x 8k")
            << "qwen3-4b" << R"({"engine":"transformers"})" << qint64(16) << qint64(8192);
        QTest::newRow("gpt-oss-20b, 128 x 128k") << "gpt-oss-20b"
                                                 << R"({"engine":"vllm","quantization":"mxfp4"})"
                                                 << qint64(128) << qint64(131072);
    }
    void bruteForceAgrees()
    {
        QFETCH(QString, preset);
        QFETCH(QString, serving);
        QFETCH(qint64, requests);
        QFETCH(qint64, tokens);
        const Scenario base = servingScenario(preset.toStdString(), "h100-80gb",
                                              nlohmann::json::parse(serving.toStdString()));
        const ServingTarget t{requests, tokens};
        const ServingAdvice a = adviseServing(base, t);
        const BruteForce b = bruteForce(base, t);
        QVERIFY(b.tried > a.searched); // the search prunes
        QCOMPARE(!a.suggestions.empty(), b.anything);
        QCOMPARE(a.hasNearest, !b.anything);
        if (b.anything)
            QCOMPARE(a.suggestions.front().relativeCost, b.cheapest);
    }

    void nothingServes()
    {
        // 1024 requests of 128k tokens of Llama-3.1-405B: 1024 x 131072 x 516096 bytes of KV
        // (126 layers x 8 kv heads x 128 x 2 x 2) = 63 TiB; 16 B200s hold about 2.6 TiB.
        const Scenario base = servingScenario("llama-3.1-405b", "h100-80gb", {{"engine", "vllm"}});
        const ServingTarget t{1024, 131072};
        const ServingAdvice a = adviseServing(base, t);
        QVERIFY(a.suggestions.empty());
        QVERIFY(!a.servesNow);
        QVERIFY(a.hasNearest);
        const auto &n = a.nearest;
        QVERIFY(!n.serves && n.shortByBytes > 0 && std::isfinite(n.shortByBytes));
        QVERIFY(n.plan.maxConcurrency < 1024);
        // The nearest holds the most: on the widest layout of the largest cards.
        QCOMPARE(n.gpus, int64_t(16));
        const nlohmann::json j = servingAdviceToJson(a);
        QVERIFY(j["suggestions"].empty());
        QVERIFY(j["nearest"]["over_by_bytes"].get<int64_t>() > 0);
        QCOMPARE(j["fits_now"].get<bool>(), false);
        const std::string table = servingAdviceTable(a, base);
        QVERIFY2(table.find("nothing serves the target: the nearest is") != std::string::npos,
                 table.c_str());
    }

    void handChecked()
    {
        // Llama-3.1-8B in bf16 on one H100 80GB under vLLM, as the project's example file:
        // budget 0.9 x 79.22 GiB = 76555644567.552 B; weights 8030261248 x 2 + rotary cache
        // 131072 x 128 x 2 = 16094076928 B; activation peak: the sampler over 256 requests,
        // 256 x 128256 x (2 + 36) + 8192 x 4096 x 2 = 1314783232 B (the forward, 8192 x
        // (3 x 4096 + 3 x 14336) x 2 = 905969664 B, is smaller); non-torch 0.3 GiB; the current
        // release's CUDA-graph estimate (docs/serving.md "Engine versions"): the pool of 512
        // tokens, 512 x 110592 = 56623104 B, and 51 + 35 - 1 graphs of 32 x 0.25 MiB =
        // 769654784 B. The KV cache: 58055007076.352 B in blocks of 16 x 131072 B = 27682
        // blocks = 442912 tokens, 13.52 requests of 32768 tokens (2048 blocks each).
        const Scenario base = servingScenario(
            "llama-3.1-8b", "h100-80gb",
            {{"engine", "vllm"}, {"gpu_memory_utilization", 0.9}, {"max_model_len", 32768},
             {"max_num_seqs", 256}, {"max_num_batched_tokens", 8192}});
        const ServingAdvice a = adviseServing(base, {16, 0});
        QCOMPARE(a.target.tokens, int64_t(32768)); // the file's max_model_len
        const ServingPlan &p = a.now.plan;
        QCOMPARE(p.weightsBytes, 16094076928.0);
        QCOMPARE(p.activationBytes, 1314783232.0);
        QCOMPARE(p.cudaGraphEstimateBytes, 769654784.0);
        QCOMPARE(p.kvBlocks, int64_t(27682));
        QCOMPARE(p.kvCacheTokens, int64_t(442912));
        QCOMPARE(p.maxConcurrency, 27682.0 / 2048);
        QVERIFY(!a.servesNow); // 13.5 < 16
        QCOMPARE(a.now.kvHeadroomTokens, int64_t(442912) - 16 * 32768);
        // The same file with 13 requests serves as it is, and nothing cheaper than the
        // H100's 79.65 GiB then changes nothing: the first suggestion without numerics changes
        // is no dearer than the scenario.
        const ServingAdvice thirteen = adviseServing(base, {13, 0});
        QVERIFY(thirteen.servesNow);
        for (const auto &sg : thirteen.suggestions)
            if (sg.kind == ChangeKind::SameSemantics) {
                QVERIFY(sg.relativeCost <= 81559.0 / 1024);
                break;
            }
        // Default target: one request of the file's max_model_len. Its max_num_seqs (256) is the
        // scheduler's cap, not a load (issue 21 #6: "256 requests" once it was lowered).
        const ServingTarget d = resolveTarget(base, {});
        QCOMPARE(d.requests, int64_t(1));
        QCOMPARE(d.tokens, int64_t(32768));
        // Without max_num_seqs in the file: one request (the engine's start-up condition).
        const Scenario bare = servingScenario("llama-3.1-8b", "h100-80gb", {{"engine", "vllm"}});
        QCOMPARE(resolveTarget(bare, {}).requests, int64_t(1));
        QCOMPARE(resolveTarget(bare, {}).tokens, int64_t(131072));
    }

    void searchSpace_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("quantizations");
        QTest::addColumn<bool>("kvFp8");
        // fp8 only with fp8 tensor cores; AWQ from Turing; GPTQ on Volta and ROCm.
        QTest::newRow("h100") << "h100-80gb" << "none fp8 awq" << true;
        QTest::newRow("a100") << "a100-80gb" << "none awq" << false;
        QTest::newRow("l4") << "l4-24gb" << "none fp8 awq" << true;
        QTest::newRow("v100") << "v100-16gb" << "none gptq" << false;
        QTest::newRow("mi300x") << "mi300x-192gb" << "none fp8 gptq" << true;
        QTest::newRow("mi250x") << "mi250x-64gb" << "none gptq" << false;
    }
    void searchSpace()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, quantizations);
        QFETCH(bool, kvFp8);
        const Scenario s = servingScenario("llama-3.1-8b", gpu.toStdString(), {{"engine", "vllm"}});
        QString names;
        for (WeightQuantization q : searchedQuantizations(s))
            names += (names.isEmpty() ? "" : " ") + QString::fromUtf8(toString(q).data(), int(toString(q).size()));
        QCOMPARE(names, quantizations);
        QCOMPARE(kvFp8Allowed(s), kvFp8);
        // MXFP4 only for models that ship it, from Ampere.
        const Scenario oss = servingScenario("gpt-oss-20b", gpu.toStdString(), {{"engine", "vllm"}});
        const auto ossQ = searchedQuantizations(oss);
        const bool mxfp4 = std::find(ossQ.begin(), ossQ.end(), WeightQuantization::Mxfp4) != ossQ.end();
        QCOMPARE(mxfp4, gpu == "h100-80gb" || gpu == "a100-80gb" || gpu == "l4-24gb");
    }

    void tensorParallelRules()
    {
        // Llama-3.1-8B: 32 heads, 8 kv heads: 1, 2, 4, 8 all hold (kv heads split or whole).
        Scenario s = servingScenario("llama-3.1-8b", "h100-80gb", {{"engine", "vllm"}});
        QCOMPARE(searchedTensorParallel(s), (std::vector<int64_t>{1, 2, 4, 8}));
        // Qwen3-4B with AWQ: 32 heads x 128 = 4096 and ffn 9728 = 76 x 128 split by TP must stay
        // whole groups of 128: 9728 / 8 = 1216 is not.
        s = servingScenario("qwen3-4b", "h100-80gb", {{"engine", "vllm"}, {"quantization", "awq"}});
        QCOMPARE(searchedTensorParallel(s), (std::vector<int64_t>{1, 2, 4}));
    }

    void targetApplied()
    {
        const Scenario base = servingScenario("llama-3.1-8b", "a100-80gb",
                                              {{"engine", "vllm"}, {"max_num_seqs", 64}});
        const Scenario s = withTarget(base, {300, 4096});
        QCOMPARE(s.serving.maxModelLen, int64_t(4096));
        QCOMPARE(s.serving.maxNumSeqs, int64_t(300)); // raised to N
        const ResolvedServing r = resolveServing(s);
        QVERIFY(r.maxNumBatchedTokens >= 300);
        // transformers: the batch and prompt + new tokens.
        const Scenario hf = servingScenario("qwen3-4b", "rtx-4090", {{"engine", "transformers"}});
        const Scenario h = withTarget(hf, {8, 4096});
        QCOMPARE(h.training.microBatchSize, int64_t(8));
        QCOMPARE(h.training.sequenceLength + h.serving.maxNewTokens, int64_t(4096));
        QCOMPARE(resolveServing(h).maxModelLen, int64_t(4096));
    }

    // Issue 21 #6: the target is the scenario's own (serving.target_requests, target_tokens),
    // written and read back as a file; the CLI's --requests/--tokens still override it.
    void targetFromTheScenario_data()
    {
        QTest::addColumn<int>("requests");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("maxNumSeqs");
        QTest::addColumn<int>("wantRequests");
        QTest::addColumn<int>("wantTokens");
        // Not set: one request of max_model_len (32768), whatever max_num_seqs says.
        QTest::newRow("unset, max_num_seqs 256") << 0 << 0 << 256 << 1 << 32768;
        QTest::newRow("unset, max_num_seqs 16") << 0 << 0 << 16 << 1 << 32768;
        QTest::newRow("requests only") << 4 << 0 << 256 << 4 << 32768;
        QTest::newRow("both") << 16 << 8192 << 256 << 16 << 8192;
    }
    void targetFromTheScenario()
    {
        QFETCH(int, requests);
        QFETCH(int, tokens);
        QFETCH(int, maxNumSeqs);
        QFETCH(int, wantRequests);
        QFETCH(int, wantTokens);
        Scenario s = servingScenario("llama-3.1-8b", "h100-80gb",
                                     {{"engine", "vllm"}, {"max_model_len", 32768}});
        s.serving.maxNumSeqs = maxNumSeqs;
        s.serving.targetRequests = requests;
        s.serving.targetTokens = tokens;
        const nlohmann::json written = scenarioToJson(s);
        QCOMPARE(written["serving"].contains("target_requests"), requests > 0);
        QCOMPARE(written["serving"].contains("target_tokens"), tokens > 0);
        const Scenario reread = parseOrFail(written.dump());
        QCOMPARE(reread.serving.targetRequests, int64_t(requests));
        QCOMPARE(reread.serving.targetTokens, int64_t(tokens));
        const ServingTarget t = resolveTarget(reread, {});
        QCOMPARE(t.requests, int64_t(wantRequests));
        QCOMPARE(t.tokens, int64_t(wantTokens));
        const ServingTarget given = resolveTarget(reread, {3, 4096});
        QCOMPARE(given.requests, int64_t(3));
        QCOMPARE(given.tokens, int64_t(4096));
        QCOMPARE(adviseServing(reread, {}, {1, false}).target.requests, int64_t(wantRequests));
    }
    void targetOutOfRangeRefused()
    {
        const auto parsed = scenarioFromText(R"({"format": "vramplan-scenario",
            "model": {"preset": "llama-3.1-8b"}, "training": {"mode": "inference"},
            "serving": {"engine": "vllm", "target_requests": 0}})");
        QVERIFY(!parsed);
        QVERIFY2(parsed.error.find("serving.target_requests") != std::string::npos,
                 parsed.error.c_str());
    }

    // Issue 21 #6: an engine that would not start names the settings that start it, each alone,
    // and each the nearest to the scenario's own: one step further does not start.
    void startingSettings_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("maxModelLen");
        QTest::addColumn<double>("utilization");
        QTest::addColumn<int>("maxNumSeqs");
        // Short of one request of 131072 tokens on a 24 GB card.
        QTest::newRow("4090, 128k") << "rtx-4090" << 131072 << 0.9 << 0;
        // A small budget on an H100: 0.3 x 79 GiB leaves about 9 GiB for 128k tokens' 16 GiB.
        QTest::newRow("h100 at 0.3, 128k") << "h100-80gb" << 131072 << 0.3 << 0;
        // The sampler's profiling run of many sequences eats the budget.
        QTest::newRow("h100 at 0.22, 1M seqs") << "h100-80gb" << 8192 << 0.22 << (1 << 20);
    }
    void startingSettings()
    {
        QFETCH(QString, gpu);
        QFETCH(int, maxModelLen);
        QFETCH(double, utilization);
        QFETCH(int, maxNumSeqs);
        nlohmann::json serving = {{"engine", "vllm"},
                                  {"max_model_len", maxModelLen},
                                  {"gpu_memory_utilization", utilization}};
        if (maxNumSeqs > 0)
            serving["max_num_seqs"] = maxNumSeqs;
        const Scenario s = servingScenario("llama-3.1-8b", gpu.toStdString(), serving);
        QVERIFY(planServing(s).status != ServingStatus::Ok);
        const std::vector<StartingSetting> settings = settingsThatStart(s);
        QVERIFY(!settings.empty());
        for (const StartingSetting &setting : settings) {
            // Applied as a file would say it, it starts; one step further from the scenario's
            // own value (the bisection's neighbour) does not.
            nlohmann::json doc = scenarioToJson(s);
            nlohmann::json *field = &doc;
            const std::string path = setting.path;
            for (size_t from = 0, dot; from <= path.size(); from = dot + 1) {
                dot = path.find('.', from);
                if (dot == std::string::npos)
                    dot = path.size();
                field = &(*field)[path.substr(from, dot - from)];
            }
            *field = setting.value;
            QVERIFY2(planServing(parseOrFail(doc.dump())).status == ServingStatus::Ok,
                     (path + " " + setting.value.dump()).c_str());
            if (setting.value.is_number_integer()) {
                *field = setting.value.get<int64_t>() + 1;
                QVERIFY2(planServing(parseOrFail(doc.dump())).status != ServingStatus::Ok,
                         path.c_str());
            } else if (setting.value.is_number()) {
                *field = std::round(setting.value.get<double>() * 100 - 1) / 100;
                QVERIFY2(planServing(parseOrFail(doc.dump())).status != ServingStatus::Ok,
                         path.c_str());
            }
        }
        // The one the engine's message does not name, where it is what matters.
        if (maxNumSeqs > 0)
            QVERIFY(std::any_of(settings.begin(), settings.end(), [](const StartingSetting &x) {
                return x.path == "serving.max_num_seqs";
            }));
        // A server that starts needs nothing.
        serving["max_model_len"] = 1024;
        serving.erase("max_num_seqs");
        serving["gpu_memory_utilization"] = 0.9;
        QVERIFY(settingsThatStart(servingScenario("llama-3.1-8b", "h100-80gb", serving)).empty());
    }

    void onlyOwnGpuWithoutHardware()
    {
        const Scenario base = servingScenario("llama-3.1-8b", "a100-40gb", {{"engine", "vllm"}});
        ServingAdviceOptions o;
        o.hardware = false;
        const ServingAdvice a = adviseServing(base, {8, 32768}, o);
        QVERIFY(!a.suggestions.empty());
        for (const auto &sg : a.suggestions)
            QCOMPARE(sg.scenario.gpu.preset, std::string("a100-40gb"));
    }
};

QTEST_APPLESS_MAIN(TestServingAdvice)

#include "tst_servingadvice.moc"
