// The serving mode (core/serving.h, docs/serving.md): each term of the engines' allocation
// against hand-computed bytes, the `serving` section's parsing, the estimate's hook, and the
// published start-up logs (tests/data/measured/serving_*.json).

#include "estimate.h"
#include "formats/estimate_json.h"
#include "serving/serving.h"
#include "formats/serving_json.h"
#include "testhelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

using namespace vramplan;
using namespace vramplan::test;

namespace {

constexpr double GiB = 1073741824.0;

Scenario servingScenario(const std::string &preset, const std::string &gpu,
                         const std::string &serving, int tp = 1, int pp = 1)
{
    const std::string q = "\"";
    return parseOrFail("{" + q + "format" + q + ":" + q + "vramplan-scenario" + q + "," + q + "model" +
                       q + ":{" + q + "preset" + q + ":" + q + preset + q + "}," + q + "training" +
                       q + ":{" + q + "mode" + q + ":" + q + "inference" + q + "," + q +
                       "precision" + q + ":" + q + "bf16" + q + "}," + q + "parallelism" + q +
                       ":{" + q + "gpus" + q + ":" + std::to_string(tp * pp) + "," + q +
                       "tensor_parallel" + q + ":" + std::to_string(tp) + "," + q +
                       "pipeline_parallel" + q + ":" + std::to_string(pp) + "}," + q + "gpu" + q +
                       ":{" + q + "preset" + q + ":" + q + gpu + q + "}," + q + "serving" + q +
                       ":" + serving + "}");
}

double quantile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double i = q * double(v.size() - 1);
    const size_t lo = size_t(i);
    const double f = i - double(lo);
    return lo + 1 < v.size() ? v[lo] * (1 - f) + v[lo + 1] * f : v[lo];
}

} // namespace

class TestServing : public QObject
{
    Q_OBJECT

private slots:
    void kvBytesPerToken_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("tp");
        QTest::addColumn<QString>("kvDtype");
        QTest::addColumn<double>("bytes");
        // 2 (K, V) * layers * kv heads on the GPU * head_dim * bytes.
        QTest::newRow("llama-3.1-8b") << "llama-3.1-8b" << 1 << "auto" << 2.0 * 32 * 8 * 128 * 2;
        QTest::newRow("llama-3.1-8b tp2") << "llama-3.1-8b" << 2 << "auto" << 2.0 * 32 * 4 * 128 * 2;
        QTest::newRow("llama-3.1-8b fp8") << "llama-3.1-8b" << 1 << "fp8" << 2.0 * 32 * 8 * 128 * 1;
        // 8 kv heads over 16 ranks: each keeps one replicated head.
        QTest::newRow("llama-3.1-8b tp16 replicated")
            << "llama-3.1-8b" << 16 << "auto" << 2.0 * 32 * 1 * 128 * 2;
        // MLA: the 512 latent plus the 64-wide rope key, not split by TP, 27 layers.
        QTest::newRow("deepseek-v2-lite mla") << "deepseek-v2-lite" << 2 << "auto" << 27.0 * 576 * 2;
        QTest::newRow("deepseek-v2-lite mla fp8") << "deepseek-v2-lite" << 1 << "fp8" << 27.0 * 576;
    }
    void kvBytesPerToken()
    {
        QFETCH(QString, preset);
        QFETCH(int, tp);
        QFETCH(QString, kvDtype);
        QFETCH(double, bytes);
        const Scenario s = servingScenario(preset.toStdString(), "h100-80gb",
                                           "{\"kv_cache_dtype\":\"" + kvDtype.toStdString() + "\"}",
                                           tp);
        QCOMPARE(planServing(s).kvBytesPerToken, bytes);
    }

    void weightsExact()
    {
        // 8,030,261,248 parameters in bf16 plus the rotary cache of 131072 positions x 128:
        // vLLM logs 14.9888 GiB.
        const ServingPlan p = planServing(servingScenario("llama-3.1-8b", "h100-80gb", "{}"));
        QCOMPARE(p.weightsBytes, 8030261248.0 * 2 + 131072.0 * 128 * 2);
        // TP 2 halves every split tensor; norms stay whole.
        const ServingPlan p2 = planServing(servingScenario("llama-3.1-8b", "h100-80gb", "{}", 2));
        QVERIFY(p2.weightsBytes < p.weightsBytes * 0.51 && p2.weightsBytes > p.weightsBytes * 0.49);
    }

    void quantizationShrinksWeights_data()
    {
        QTest::addColumn<QString>("quantization");
        QTest::addColumn<double>("lowRatio");
        QTest::addColumn<double>("highRatio");
        // Linear weights at 1 byte (+ block scales) or ~0.52 bytes (+ group scales and zeros);
        // embeddings and head stay bf16 (2 x 525M of Llama-3.1-8B's 8.03B).
        QTest::newRow("fp8") << "fp8" << 0.52 << 0.58;
        QTest::newRow("awq") << "awq" << 0.31 << 0.36;
        QTest::newRow("gptq") << "gptq" << 0.31 << 0.36;
        QTest::newRow("bitsandbytes") << "bitsandbytes" << 0.31 << 0.36;
    }
    void quantizationShrinksWeights()
    {
        QFETCH(QString, quantization);
        QFETCH(double, lowRatio);
        QFETCH(double, highRatio);
        const double full = planServing(servingScenario("llama-3.1-8b", "h100-80gb", "{}")).weightsBytes;
        const double q = planServing(servingScenario("llama-3.1-8b", "h100-80gb",
                                                     "{\"quantization\":\"" +
                                                         quantization.toStdString() + "\"}"))
                             .weightsBytes;
        QVERIFY2(q / full > lowRatio && q / full < highRatio, qPrintable(QString::number(q / full)));
    }

    void mxfp4MarlinPadding()
    {
        // gpt-oss-120b on Marlin: experts padded to 3072 x 2944, fp4 plus e8m0 scales per 32,
        // attention, router, embeddings in bf16: vLLM logged 65.9651 GiB.
        const ServingPlan p = planServing(
            servingScenario("gpt-oss-120b", "h100-80gb", R"({"quantization":"mxfp4"})"));
        QVERIFY2(std::abs(p.weightsBytes / GiB - 65.9651) < 0.2, qPrintable(QString::number(p.weightsBytes / GiB)));
    }

    void blocksRoundDown()
    {
        const ServingPlan p = planServing(servingScenario(
            "llama-3.1-8b", "rtx-3090", R"({"max_model_len":20000,"block_size":16})"));
        const double available = p.budgetBytes - p.weightsBytes - p.activationBytes -
                                 p.nonTorchBytes - p.cudaGraphEstimateBytes;
        const double block = 16 * p.kvBytesPerToken;
        QCOMPARE(p.kvCacheBytes, double(p.kvBlocks) * block);
        QVERIFY(p.kvCacheBytes <= available && available - p.kvCacheBytes < block);
        QCOMPARE(p.kvCacheTokens, p.kvBlocks * 16);
        QCOMPARE(p.maxConcurrency, double(p.kvBlocks) / std::ceil(20000.0 / 16));
        QCOMPARE(p.budgetBytes, 0.9 * 23.58 * GiB);
    }

    void budgetIsUtilizationOfCudaTotal()
    {
        // vLLM: requested = utilization x total; the KV cache is what weights, the profiling
        // peak and non-torch memory leave of it.
        const ServingPlan p = planServing(servingScenario(
            "llama-3.1-8b", "h100-80gb", R"({"gpu_memory_utilization":0.5})"));
        QCOMPARE(p.cudaTotalBytes, 79.22 * GiB);
        QCOMPARE(p.budgetBytes, 0.5 * 79.22 * GiB);
        // SGLang: fraction x (free at start) - weights, the pool counted in tokens.
        const ServingPlan g = planServing(servingScenario(
            "llama-3.1-8b", "h100-80gb", R"({"engine":"sglang","mem_fraction_static":0.85})"));
        QVERIFY(std::abs(g.kvCacheBytes - (g.budgetBytes - g.weightsBytes)) < g.kvBytesPerToken);
        QCOMPARE(g.settings.blockSize, int64_t(1));
    }

    void failureMessages()
    {
        const ServingPlan tooLong = planServing(servingScenario(
            "llama-3.1-8b", "rtx-3090",
            R"({"max_model_len":29000,"max_num_batched_tokens":29000,"block_size":16})"));
        QCOMPARE(int(tooLong.status), int(ServingStatus::BelowOneRequest));
        const std::string text = servingFailureText(tooLong);
        QVERIFY2(text.find("To serve at least one request with the models's max seq len (29000)") !=
                     std::string::npos,
                 text.c_str());
        QVERIFY(tooLong.longestRequest < 29000 && tooLong.longestRequest % 16 == 0);

        const ServingPlan none = planServing(servingScenario(
            "llama-3.1-8b", "rtx-3090", R"({"gpu_memory_utilization":0.5})"));
        QCOMPARE(int(none.status), int(ServingStatus::NoKvMemory));
        QVERIFY(none.kvCacheBytes < 0);
        QVERIFY(servingFailureText(none).find("No available memory for the cache blocks") !=
                std::string::npos);

        // The estimate carries the engine's message as a warning.
        const Scenario s = servingScenario("llama-3.1-8b", "rtx-3090", R"({"gpu_memory_utilization":0.5})");
        const auto json = estimateToJson(estimate(s), s);
        bool found = false;
        for (const auto &w : json["warnings"])
            found = found || w.get<std::string>().find("No available memory") != std::string::npos;
        QVERIFY(found);
        QCOMPARE(json["serving"]["starts"].get<bool>(), false);
    }

    void slidingWindowHybridGroups()
    {
        // gpt-oss: 18 sliding + 18 full layers make two groups of 18 sharing block ids.
        const ServingPlan p = planServing(
            servingScenario("gpt-oss-20b", "h100-80gb", R"({"quantization":"mxfp4"})"));
        QCOMPARE(p.kvGroups, int64_t(2));
        QCOMPARE(p.kvCacheTokens, p.kvBlocks / 2 * 16);
    }

    void transformersGenerate()
    {
        const Scenario s = parseOrFail(
            R"({"format":"vramplan-scenario","model":{"preset":"llama-3.1-8b"},)"
            R"("training":{"mode":"inference","micro_batch_size":4,"sequence_length":1000,"precision":"bf16"},)"
            R"("gpu":{"preset":"h100-80gb"},"serving":{"engine":"transformers","max_new_tokens":24}})");
        const ServingPlan p = planServing(s);
        QCOMPARE(p.kvCacheBytes, 4.0 * 1024 * 131072);
        QCOMPARE(p.kvCacheTokens, int64_t(4 * 1024));
        QCOMPARE(p.maxConcurrency, 4.0);
        QCOMPARE(int(p.status), int(ServingStatus::Ok));
    }

    void estimateHook()
    {
        const Scenario s = servingScenario("llama-3.1-8b", "h100-80gb", R"({"max_model_len":8192})");
        const Estimate e = estimate(s);
        QVERIFY(e.serving.present);
        QCOMPARE(e.componentBytes(Component::KvCache), e.serving.kvCacheBytes);
        double sum = 0;
        for (double v : e.perGpu)
            sum += v;
        QVERIFY(std::abs(sum - e.peak.device) < 1.0);
        const auto json = estimateToJson(e, s);
        for (const char *key : {"weights_bytes", "activation_bytes", "non_torch_bytes",
                                "cuda_graph_bytes", "cuda_graph_estimate_bytes", "kv_cache_bytes",
                                "kv_cache_tokens", "max_concurrency"})
            QVERIFY2(json["serving"].contains(key), key);
        QCOMPARE(json["serving"]["cuda_graph_estimate_bytes"].get<int64_t>(),
                 int64_t(std::llround(e.serving.cudaGraphEstimateBytes)));
        QCOMPARE(json["per_gpu_bytes"]["kv_cache"].get<int64_t>(),
                 int64_t(std::llround(e.serving.kvCacheBytes)));
        // Without a serving section inference means what it meant: no kv_cache component.
        Scenario naive = s;
        naive.serving = {};
        const Estimate n = estimate(naive);
        QVERIFY(!n.serving.present);
        QCOMPARE(n.componentBytes(Component::KvCache), 0.0);
        QVERIFY(itemBytes(n, "KV cache") > 0);
    }

    // vLLM 0.21+ (engine_version; also the current release when it is absent) subtracts its
    // CUDA-graph estimate from the KV budget (gpu_worker.py determine_available_memory):
    // capture sizes 1, 2, 4, 8..248 by 8, 256..512 by 16; PIECEWISE up to
    // min(2 x max_num_seqs, 512), FULL up to max_num_seqs; estimate = the largest batch's pool
    // + one graph's nodes x (graphs - 1), a graph being 0.25 MiB per layer
    // (gpu_model_runner.py profile_cudagraph_memory). Llama-3.1-8B: 32 layers, so 8 MiB a
    // graph; the pool is tokens x (3h + 3f) x 2 = 110592 bytes per token.
    void cudaGraphEstimateByVersion_data()
    {
        QTest::addColumn<QString>("serving");
        QTest::addColumn<double>("estimate");
        QTest::addColumn<double>("graphs");
        const double graph = 8.0 * 1048576, perToken = 110592;
        // Before 0.21 nothing is subtracted; the graphs (1, 2, 4 and 8..512 by 8: 67, one
        // mode) are captured after the KV cache, outside the budget.
        QTest::newRow("0.20: none in the budget")
            << R"({"engine_version":"0.20"})" << 0.0 << 512 * perToken + 67 * graph;
        // H100 defaults: max_num_seqs 1024, so PIECEWISE 51 and FULL 51 sizes up to 512.
        QTest::newRow("0.21 H100 defaults") << R"({"engine_version":"0.21.1"})"
                                            << 512 * perToken + 101 * graph
                                            << 512 * perToken + 102 * graph;
        QTest::newRow("current release") << R"({})" << 512 * perToken + 101 * graph
                                         << 512 * perToken + 102 * graph;
        // max_num_seqs 256: PIECEWISE 51 (largest 512), FULL 35 (largest 256), as vLLM logs.
        QTest::newRow("0.21 256 sequences") << R"({"engine_version":"vllm 0.21","max_num_seqs":256})"
                                            << 512 * perToken + 85 * graph
                                            << 512 * perToken + 86 * graph;
        // max_num_seqs 8: PIECEWISE 1, 2, 4, 8, 16; FULL 1, 2, 4, 8.
        QTest::newRow("0.21 8 sequences") << R"({"engine_version":"0.22","max_num_seqs":8})"
                                          << 16 * perToken + 8 * graph << 16 * perToken + 9 * graph;
        QTest::newRow("0.21 enforce_eager") << R"({"engine_version":"0.21","enforce_eager":true})"
                                            << 0.0 << 0.0;
    }
    void cudaGraphEstimateByVersion()
    {
        QFETCH(QString, serving);
        QFETCH(double, estimate);
        QFETCH(double, graphs);
        const ServingPlan p =
            planServing(servingScenario("llama-3.1-8b", "h100-80gb", serving.toStdString()));
        QCOMPARE(p.cudaGraphEstimateBytes, estimate);
        QCOMPARE(p.cudaGraphBytes, graphs);
        // The KV cache is what the budget leaves after the estimate too, in whole blocks.
        const double available = p.budgetBytes - p.weightsBytes - p.activationBytes -
                                 p.nonTorchBytes - p.cudaGraphEstimateBytes;
        QCOMPARE(double(p.kvBlocks), std::floor(available / (16 * p.kvBytesPerToken)));
    }

    // The V0 engine (before 0.8) schedules whole prompts up to 32k tokens
    // (max_num_batched_tokens = max(max_model_len, 2048)), 512 with the chunked prefill it
    // turns on beyond, and 256 sequences on every GPU.
    void defaultsByVersion_data()
    {
        QTest::addColumn<QString>("serving");
        QTest::addColumn<qint64>("batchedTokens");
        QTest::addColumn<qint64>("sequences");
        QTest::newRow("0.6 20k") << R"({"engine_version":"0.6.4","max_model_len":20000})"
                                 << qint64(20000) << qint64(256);
        QTest::newRow("0.6 1k") << R"({"engine_version":"0.6","max_model_len":1000})"
                                << qint64(2048) << qint64(256);
        QTest::newRow("0.7 64k") << R"({"engine_version":"0.7.3","max_model_len":65536})"
                                 << qint64(512) << qint64(256);
        QTest::newRow("0.6 given") << R"({"engine_version":"0.6","max_num_batched_tokens":4096,"max_num_seqs":64})"
                                   << qint64(4096) << qint64(64);
        // V1 on an H100: 8192 and 1024 (arg_utils.py get_batch_defaults).
        QTest::newRow("0.8 20k") << R"({"engine_version":"0.8","max_model_len":20000})"
                                 << qint64(8192) << qint64(1024);
        QTest::newRow("current") << R"({"max_model_len":20000})" << qint64(8192) << qint64(1024);
    }
    void defaultsByVersion()
    {
        QFETCH(QString, serving);
        QFETCH(qint64, batchedTokens);
        QFETCH(qint64, sequences);
        const ResolvedServing r =
            resolveServing(servingScenario("llama-3.1-8b", "h100-80gb", serving.toStdString()));
        QCOMPARE(qint64(r.maxNumBatchedTokens), batchedTokens);
        QCOMPARE(qint64(r.maxNumSeqs), sequences);
    }

    void parsing_data()
    {
        QTest::addColumn<QString>("serving");
        QTest::addColumn<QString>("error");
        QTest::newRow("util above 1") << R"({"gpu_memory_utilization":1.5})"
                                      << "serving.gpu_memory_utilization: must be > 0 and <= 1, got 1.5";
        QTest::newRow("util zero") << R"({"gpu_memory_utilization":0})"
                                   << "serving.gpu_memory_utilization: must be > 0";
        QTest::newRow("negative length") << R"({"max_model_len":-1})" << "serving.max_model_len: must be >= 1";
        QTest::newRow("engine") << R"({"engine":"tgi"})" << "serving.engine: must be one of vllm, sglang or transformers";
        QTest::newRow("kv dtype") << R"({"kv_cache_dtype":"int4"})" << "serving.kv_cache_dtype: must be one of auto or fp8";
        QTest::newRow("quantization") << R"({"quantization":"int3"})" << "serving.quantization: must be one of";
        QTest::newRow("unknown key") << R"({"gpu_util":0.9})" << "serving.gpu_util: unknown key";
        QTest::newRow("eager contradicts graphs") << R"({"cuda_graphs":true,"enforce_eager":true})"
                                                  << "serving.enforce_eager: contradicts";
        QTest::newRow("both fractions") << R"({"gpu_memory_utilization":0.9,"mem_fraction_static":0.8})"
                                        << "serving.mem_fraction_static: give either";
        QTest::newRow("not an object") << R"(3)" << "serving: must be a JSON object";
        QTest::newRow("engine_version word")
            << R"({"engine_version":"latest"})"
            << R"(serving.engine_version: expected a release such as "0.21" or "vllm 0.21", got "latest")";
        QTest::newRow("engine_version major only")
            << R"({"engine_version":"1"})"
            << R"(serving.engine_version: expected a release such as "0.21" or "vllm 0.21", got "1")";
        QTest::newRow("engine_version other engine")
            << R"({"engine":"vllm","engine_version":"sglang 0.4"})"
            << R"(serving.engine_version: "sglang 0.4" names another engine than "vllm")";
        QTest::newRow("engine_version number") << R"({"engine_version":0.21})"
                                               << "serving.engine_version: must be a string";
    }
    void parsing()
    {
        QFETCH(QString, serving);
        QFETCH(QString, error);
        const std::string text =
            R"({"format":"vramplan-scenario","training":{"mode":"inference"},"serving":)" +
            serving.toStdString() + "}";
        const auto parsed = scenarioFromText(text);
        QVERIFY(!parsed);
        QVERIFY2(parsed.error.find(error.toStdString()) == 0, parsed.error.c_str());
    }

    void roundTrip()
    {
        const Scenario s = servingScenario(
            "llama-3.1-8b", "h100-80gb",
            R"({"engine":"sglang","mem_fraction_static":0.8,"max_model_len":4096,"max_num_seqs":64,)"
            R"("max_num_batched_tokens":2048,"kv_cache_dtype":"fp8","block_size":32,"enforce_eager":true,)"
            R"("quantization":"awq","engine_version":"sglang 0.4.9"})");
        QVERIFY(s.serving.present && !s.serving.cudaGraphs);
        QCOMPARE(s.serving.engineVersion.minor, 4);
        QCOMPARE(s.serving.engineVersion.patch, 9);
        QCOMPARE(QString::fromStdString(scenarioToJson(s)["serving"]["engine_version"].get<std::string>()),
                 QStringLiteral("0.4.9"));
        const auto again = scenarioFromJson(scenarioToJson(s));
        QVERIFY2(bool(again), again.error.c_str());
        QVERIFY(again.value->serving == s.serving);
        // A file without the section writes none and reads back without it.
        Scenario plain = s;
        plain.serving = {};
        QVERIFY(!scenarioToJson(plain).contains("serving"));
        // engine_version is written back only when the file gives it.
        const Scenario noVersion = servingScenario("llama-3.1-8b", "h100-80gb", "{}");
        QVERIFY(!scenarioToJson(noVersion)["serving"].contains("engine_version"));
    }

    void extremesStayFinite()
    {
        for (const char *serving :
             {R"({"max_model_len":1073741824,"max_num_batched_tokens":1073741824,"max_num_seqs":1048576})",
              R"({"gpu_memory_utilization":1e-9})", R"({"engine":"transformers","max_new_tokens":1073741824})",
              R"({"engine":"sglang","max_model_len":1})", R"({"block_size":4096,"max_model_len":1})"}) {
            const Scenario s = servingScenario("deepseek-v3", "h100-80gb", serving, 64);
            const ServingPlan p = planServing(s);
            for (double v : {p.weightsBytes, p.activationBytes, p.kvCacheBytes, p.cudaGraphBytes,
                             p.maxConcurrency, p.budgetBytes})
                QVERIFY2(std::isfinite(v), serving);
            const auto json = estimateToJson(estimate(s), s);
            QVERIFY(json["serving"]["max_concurrency"].is_number());
        }
    }

    // The published start-up logs: KV-cache GiB per GPU and weights as the engines printed
    // them (tests/data/measured/serving_scenarios.json says which scenario each record is,
    // what was assumed, and which records are skipped and why).
    void publishedStartupLogs()
    {
        const auto doc = nlohmann::json::parse(readFile(dataPath("measured/serving_scenarios.json")));
        std::vector<double> kvErrors, weightErrors;
        for (const auto &r : doc["records"]) {
            const auto parsed = scenarioFromJson(r["scenario"]);
            QVERIFY2(bool(parsed), (r["record"].get<std::string>() + ": " + parsed.error).c_str());
            const ServingPlan p = planServing(*parsed.value);
            const auto &m = r["measured"];
            if (m.contains("kv_cache_gib")) {
                const double measured = m["kv_cache_gib"].get<double>();
                kvErrors.push_back(std::abs(p.kvCacheBytes / GiB - measured) / std::abs(measured));
                qInfo("%s KV %.2f GiB, logged %.2f (%+.1f%%)", r["record"].get<std::string>().c_str(),
                      p.kvCacheBytes / GiB, measured, 100 * (p.kvCacheBytes / GiB - measured) / std::abs(measured));
            }
            if (m.contains("weights_gib")) {
                const double measured = m["weights_gib"].get<double>();
                weightErrors.push_back(std::abs(p.weightsBytes / GiB - measured) / measured);
            }
        }
        const double kvMedian = quantile(kvErrors, 0.5), kvP90 = quantile(kvErrors, 0.9);
        const double weightsMedian = quantile(weightErrors, 0.5);
        qInfo("KV cache: %zu records, median |error| %.2f%%, p90 %.2f%%; weights: %zu records, "
              "median %.2f%%",
              kvErrors.size(), 100 * kvMedian, 100 * kvP90, weightErrors.size(), 100 * weightsMedian);
        QVERIFY(kvErrors.size() >= 25);
        QVERIFY(weightErrors.size() >= 15);
        // Issue 14's bounds: KV median <= 5% and 90th percentile <= 15%, weights median <= 3%.
        // Three records stay above 15% and are explained in docs/serving.md (R03 +26%,
        // R06 +22%, C03 -18%).
        QVERIFY2(kvMedian <= 0.05, qPrintable(QString::number(kvMedian)));
        QVERIFY2(kvP90 <= 0.15, qPrintable(QString::number(kvP90)));
        QVERIFY2(weightsMedian <= 0.03, qPrintable(QString::number(weightsMedian)));
    }

    // The copy of the shared logs is kept in step with ../shared/validation.
    void logsInStepWithShared()
    {
        const std::string shared =
            readFile(QStringLiteral(VRAMPLAN_SHARED_DIR) + "/validation/serving_logs.json");
        if (shared.empty())
            QSKIP("../shared/validation/serving_logs.json is not beside this checkout");
        QVERIFY(nlohmann::json::parse(readFile(dataPath("measured/serving_logs.json"))) ==
                nlohmann::json::parse(shared));
    }
};

QTEST_APPLESS_MAIN(TestServing)
#include "tst_serving.moc"
