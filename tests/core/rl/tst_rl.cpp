// Post-training with a rollout engine (core/rl/, docs/rl.md): hand-derived bytes of the terms
// (logits, reference, sleep), the phases' sanity, the `rl` section's parsing, errors and round
// trip, scenarios without `rl` unchanged, and the published RL runs
// (tests/data/measured/rl_runs.json) reported with their errors and held as a ratchet.

#include "estimate.h"
#include "formats/estimate_json.h"
#include "formats/scenario_json.h"
#include "testhelpers.h"

#include <QDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

using namespace vramplan;
using namespace vramplan::test;

namespace {

constexpr double GiB = 1073741824.0;

Scenario scenarioFile(const QString &name)
{
    return parseOrFail(readFile(dataPath(QStringLiteral("scenarios/") + name)));
}

const RlPhase &phaseOf(const Estimate &e, RlPhaseKind kind)
{
    return e.rl.phase(kind);
}

double phaseItem(const Estimate &e, RlPhaseKind kind, std::string_view name)
{
    double total = 0;
    for (const auto &item : phaseOf(e, kind).items)
        if (item.name == name)
            total += item.bytes();
    return total;
}

// verl's GRPO-LoRA tuning scripts (examples/tuning/<size>/qwen2-<size>_grpo-lora_<n>_h100_
// fsdp_vllm.sh): Qwen2.5 dense models from their config.json fields, LoRA rank 32 on all
// linear layers, fp32 actor under FSDP (fsdp_workers.py), all offloads on, GSM8K lengths
// 512 + 1024, n 5.
std::string verlLoraScenario(int layers, int ffn, int gpus, int microBatch, double utilization,
                             int rolloutTp)
{
    char text[2048];
    std::snprintf(
        text, sizeof text,
        R"({"format": "vramplan-scenario",
            "model": {"family": "qwen2", "layers": %d, "hidden_size": 5120, "attention_heads": 40,
                      "kv_heads": 8, "head_dim": 128, "ffn_hidden_size": %d, "ffn_type": "swiglu",
                      "vocab_size": 152064, "norm": "rmsnorm", "tied_embeddings": false,
                      "qkv_bias": true, "max_positions": 32768},
            "training": {"micro_batch_size": %d, "precision": "amp_bf16", "optimizer": "adamw",
                         "activation_recompute": "full", "attention": "flash",
                         "finetune": {"method": "lora", "lora_rank": 32,
                                      "lora_targets": ["all-linear"]}},
            "parallelism": {"gpus": %d, "zero_stage": 3, "fsdp_version": 1},
            "framework": "transformers", "gpu": {"preset": "h100-80gb"},
            "rl": {"algorithm": "grpo", "framework": "verl", "framework_version": "0.4",
                   "group_size": 5, "prompt_tokens": 512, "response_tokens": 1024,
                   "rollout": {"engine": "vllm", "engine_version": "0.8",
                               "gpu_memory_utilization": %.2f, "tensor_parallel": %d,
                               "max_num_seqs": 512},
                   "offload": {"policy_parameters": true, "policy_optimizer": true,
                               "reference": true},
                   "entropy": true}})",
        layers, ffn, microBatch, gpus, utilization, rolloutTp);
    return text;
}

} // namespace

class TestRl : public QObject
{
    Q_OBJECT

private slots:
    // The logits of a no-grad forward over the vocabulary, by hand:
    // verl (dp_actor.py): b * (P + R) * V * 2, its entropy 2 * b * R * V * 2;
    // TRL (grpo_trainer.py): b * (R + 1) * V * 2, the division's copy, one sequence's log-softmax.
    void logitsTerm_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("item");
        QTest::addColumn<double>("bytes");
        const QString verl = QStringLiteral("rl_grpo_verl_qwen2.5-7b.vramplan.json");
        const QString trl = QStringLiteral("rl_grpo_trl_qwen2.5-7b.vramplan.json");
        const QString dpo = QStringLiteral("rl_dpo_trl_llama-3.1-8b.vramplan.json");
        QTest::newRow("verl policy logits") << verl << "policy log-probs: logits"
                                            << 16.0 * 2048 * 152064 * 2;
        QTest::newRow("verl entropy") << verl << "policy log-probs: entropy (softmax, p*logits)"
                                      << 2.0 * 16 * 1024 * 152064 * 2;
        QTest::newRow("trl reference logits") << trl << "reference log-probs: logits"
                                              << 8.0 * 1025 * 152064 * 2;
        QTest::newRow("trl division copy") << trl
                                           << "reference log-probs: logits / temperature (copy)"
                                           << 8.0 * 1025 * 152064 * 2;
        QTest::newRow("trl one sequence") << trl
                                          << "reference log-probs: log-softmax of one sequence"
                                          << 1025.0 * 152064 * 2;
        // DPO: chosen and rejected concatenated, 2 x 2 sequences of 2048 tokens, V = 128256.
        QTest::newRow("dpo reference logits") << dpo << "reference log-probs: logits"
                                              << 4.0 * 2048 * 128256 * 2;
    }
    void logitsTerm()
    {
        QFETCH(QString, file);
        QFETCH(QString, item);
        QFETCH(double, bytes);
        const Estimate e = estimate(scenarioFile(file));
        QVERIFY(e.rl.present);
        QCOMPARE(phaseItem(e, RlPhaseKind::Experience, item.toStdString()), bytes);
    }

    // The update's logits of the RL loss: verl b*T*V*c (flash-attn's in-place cross-entropy),
    // TRL 3*b*(R+1)*V*c, DPO 3*(2b)*T*V*c.
    void updateLogits_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("bytes");
        QTest::newRow("verl") << "rl_grpo_verl_qwen2.5-7b.vramplan.json" << 16.0 * 2048 * 152064 * 2;
        QTest::newRow("trl") << "rl_grpo_trl_qwen2.5-7b.vramplan.json"
                             << 3.0 * 8 * 1025 * 152064 * 2;
        QTest::newRow("dpo") << "rl_dpo_trl_llama-3.1-8b.vramplan.json"
                             << 3.0 * 4 * 2048 * 128256 * 2;
    }
    void updateLogits()
    {
        QFETCH(QString, file);
        QFETCH(double, bytes);
        const Estimate e = estimate(scenarioFile(file));
        QCOMPARE(itemBytes(e, "policy update: logits of the RL loss"), bytes);
    }

    // The reference: a 16-bit copy sharded like the policy (DPO under ZeRO-3 on 8 GPUs), none
    // for a LoRA policy (the base with adapters disabled) or at beta 0.
    void referenceWeights()
    {
        const Estimate dpo = estimate(scenarioFile("rl_dpo_trl_llama-3.1-8b.vramplan.json"));
        QCOMPARE(dpo.parameters.total, int64_t(8030261248));
        QCOMPARE(phaseItem(dpo, RlPhaseKind::Training, "reference model weights"),
                 8030261248.0 * 2 / 8);
        const Estimate lora = estimate(scenarioFile("rl_grpo_trl_qwen2.5-7b.vramplan.json"));
        QCOMPARE(phaseItem(lora, RlPhaseKind::Training, "reference model weights"), 0.0);
        QVERIFY(phaseItem(lora, RlPhaseKind::Experience, "reference log-probs: logits") > 0);
        Scenario noKl = scenarioFile("rl_grpo_trl_qwen2.5-7b.vramplan.json");
        noKl.rl.beta = 0;
        QCOMPARE(phaseItem(estimate(noKl), RlPhaseKind::Experience, "reference log-probs: logits"),
                 0.0);
        // DPO with precomputed reference log-probabilities keeps no reference model.
        Scenario precomputed = scenarioFile("rl_dpo_trl_llama-3.1-8b.vramplan.json");
        precomputed.rl.precomputeRefLogProbs = true;
        const Estimate p = estimate(precomputed);
        QCOMPARE(phaseItem(p, RlPhaseKind::Training, "reference model weights"), 0.0);
        QVERIFY(p.rl.phase(RlPhaseKind::Training).device <
                dpo.rl.phase(RlPhaseKind::Training).device);
    }

    // Sleep: level 1 and 2 free the engine's weights and KV cache for the training phases
    // (level 1 keeps the weights in CPU memory); no sleep keeps them there.
    void sleepFreeing()
    {
        Scenario s = scenarioFile("rl_grpo_verl_qwen2.5-7b.vramplan.json");
        const Estimate one = estimate(s);
        const double weights =
            phaseItem(one, RlPhaseKind::Generation, "engine weights (a copy of the policy)");
        const double kv =
            phaseItem(one, RlPhaseKind::Generation, "engine KV cache (what remains of the budget)");
        QVERIFY(weights > 0 && kv > 0);
        QCOMPARE(one.rl.sleepFreedBytes, weights + kv);
        QCOMPARE(one.rl.sleepCpuBytes, weights);
        QCOMPARE(phaseItem(one, RlPhaseKind::Training, "engine weights (engine awake)"), 0.0);
        s.rl.rollout.sleepLevel = 2;
        const Estimate two = estimate(s);
        QCOMPARE(two.rl.sleepFreedBytes, weights + kv);
        QCOMPARE(two.rl.sleepCpuBytes, 0.0);
        s.rl.rollout.sleepLevel = 0;
        const Estimate awake = estimate(s);
        QCOMPARE(awake.rl.sleepFreedBytes, 0.0);
        QCOMPARE(phaseItem(awake, RlPhaseKind::Training, "engine weights (engine awake)"), weights);
        QCOMPARE(awake.rl.phase(RlPhaseKind::Training).device -
                     one.rl.phase(RlPhaseKind::Training).device,
                 weights + kv);
        // The engine budget: utilization x what CUDA reports (serving/).
        QVERIFY(relativelyClose(one.rl.engineBudgetBytes, 0.6 * 79.22 * GiB, 0.02));
    }

    // An engine whose budget holds no KV cache for one request would not start: the estimate
    // says so in its warnings (and rl.engine_starts), not only in a flag.
    void engineThatCannotStartWarns()
    {
        Scenario s = scenarioFile("rl_grpo_verl_qwen2.5-7b.vramplan.json");
        const auto serverFails = [](const Estimate &e) {
            for (const auto &w : e.warnings)
                if (w.code == WarningCode::ServingFails)
                    return true;
            return false;
        };
        const Estimate fine = estimate(s);
        QVERIFY(fine.rl.engineStarts);
        QVERIFY(!serverFails(fine));
        s.rl.rollout.gpuMemoryUtilization = 0.1; // 8 GiB: less than the 7B policy's weights
        const Estimate starved = estimate(s);
        QVERIFY(!starved.rl.engineStarts);
        QVERIFY(serverFails(starved));
    }

    // Phases: totals add up, the overall peak is the largest phase, the holder is named, DPO has
    // no generation, an engine on GPUs of its own leaves the trainer's generation light.
    void phaseSanity_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("verl") << "rl_grpo_verl_qwen2.5-7b.vramplan.json";
        QTest::newRow("trl") << "rl_grpo_trl_qwen2.5-7b.vramplan.json";
        QTest::newRow("dpo") << "rl_dpo_trl_llama-3.1-8b.vramplan.json";
    }
    void phaseSanity()
    {
        QFETCH(QString, file);
        const Estimate e = estimate(scenarioFile(file));
        double largest = 0;
        for (const RlPhase &p : e.rl.phases) {
            if (!p.present)
                continue;
            QVERIFY(p.allocated > 0);
            QVERIFY(p.reserved >= p.allocated);
            QVERIFY(p.device >= p.reserved);
            double sum = 0;
            for (double b : p.byComponent)
                sum += b;
            QVERIFY(relativelyClose(sum, p.device, 1e-9));
            QVERIFY(!p.holder.empty());
            largest = std::max(largest, p.device);
        }
        QCOMPARE(e.peak.device, largest);
        QCOMPARE(e.rl.phase(e.rl.peak).device, largest);
        QCOMPARE(e.fits, e.peak.device <= e.capacityBytes);
        const bool offline = file.contains(QLatin1String("dpo"));
        QCOMPARE(e.rl.phase(RlPhaseKind::Generation).present, !offline);
        if (!offline) {
            QCOMPARE(e.rl.phase(RlPhaseKind::Generation).holder, std::string_view("rollout engine"));
            Scenario separate = scenarioFile(file);
            separate.rl.rollout.placement = RolloutPlacement::Separate;
            separate.rl.rollout.gpus = 1;
            const Estimate s = estimate(separate);
            QVERIFY(s.rl.phase(RlPhaseKind::Generation).device <
                    e.rl.phase(RlPhaseKind::Generation).device);
            QCOMPARE(s.rl.sleepFreedBytes, 0.0);
        }
    }

    // A scenario without `rl` estimates as before: no plan, no `rl_phases`, no `rl` written
    // back; and the policy's update of an RL scenario is the training estimator's.
    void absentRlUnchanged()
    {
        const QDir dir(dataPath(QStringLiteral("scenarios")));
        int checked = 0;
        for (const QString &name : dir.entryList({QStringLiteral("*.json")})) {
            if (name.startsWith(QLatin1String("rl_")))
                continue;
            auto parsed = scenarioFromText(readFile(dir.filePath(name)));
            if (!parsed)
                continue;
            const Estimate e = estimate(*parsed.value);
            QVERIFY(!e.rl.present);
            const nlohmann::json j = estimateToJson(e, *parsed.value);
            QVERIFY2(!j.contains("rl_phases") && !j.contains("rl"), qPrintable(name));
            QVERIFY(!scenarioToJson(*parsed.value).contains("rl"));
            ++checked;
        }
        QVERIFY(checked >= 3);
        Scenario s = scenarioFile("rl_dpo_trl_llama-3.1-8b.vramplan.json");
        const Estimate withRl = estimate(s);
        s.rl = RlConfig{};
        s.training.sequenceLength = 2048;
        s.training.microBatchSize *= 2;
        s.training.loss = LossKind::FusedLinear;
        const Estimate step = estimate(s);
        QCOMPARE(withRl.parameters.total, step.parameters.total);
        QCOMPARE(itemBytes(withRl, "optimizer states"), itemBytes(step, "optimizer states"));
    }

    void jsonRoundTrip_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("verl") << "rl_grpo_verl_qwen2.5-7b.vramplan.json";
        QTest::newRow("trl") << "rl_grpo_trl_qwen2.5-7b.vramplan.json";
        QTest::newRow("dpo") << "rl_dpo_trl_llama-3.1-8b.vramplan.json";
    }
    void jsonRoundTrip()
    {
        QFETCH(QString, file);
        const Scenario s = scenarioFile(file);
        const nlohmann::json written = scenarioToJson(s);
        QVERIFY(written.contains("rl"));
        const Scenario again = parseOrFail(written.dump());
        QCOMPARE(scenarioToJson(again).dump(), written.dump());
        QCOMPARE(estimate(again).peak.device, estimate(s).peak.device);
        const nlohmann::json e = estimateToJson(estimate(s), s);
        QVERIFY(e.contains("rl_phases") && e["rl_phases"].is_array());
        QCOMPARE(e["peak"]["device_bytes"].get<int64_t>(),
                 int64_t(std::llround(estimate(s).peak.device)));
        for (const auto &phase : e["rl_phases"]) {
            QVERIFY(phase.contains("name") && phase.contains("device_bytes") &&
                    phase.contains("holder") && phase.contains("items"));
            for (const auto &item : phase["items"])
                QVERIFY(!item["source"].get<std::string>().empty());
        }
        QVERIFY(estimateTable(estimate(s), s).find("RL phases") != std::string::npos);
    }

    // A reward model as a preset id or a model object; its 16-bit weights resident.
    void rewardModel()
    {
        Scenario s = parseOrFail(R"({"format": "vramplan-scenario", "model": {"preset": "qwen2.5-0.5b"},
            "training": {"micro_batch_size": 4}, "parallelism": {"gpus": 1},
            "gpu": {"preset": "h100-80gb"},
            "rl": {"algorithm": "ppo", "framework": "verl", "critic": true,
                   "reward_model": "qwen2.5-0.5b", "prompt_tokens": 512, "response_tokens": 512}})");
        QVERIFY(s.rl.hasRewardModel);
        const Estimate e = estimate(s);
        QCOMPARE(phaseItem(e, RlPhaseKind::Training, "reward model weights"),
                 double(e.parameters.total) * 2);
        QVERIFY(phaseItem(e, RlPhaseKind::Training, "critic weights and optimizer states") > 0);
        const Scenario again = parseOrFail(scenarioToJson(s).dump());
        QVERIFY(again.rl.hasRewardModel);
        QCOMPARE(again.rl.rewardModel.layers, s.rl.rewardModel.layers);
    }

    void badValues_data()
    {
        QTest::addColumn<QString>("rl");
        QTest::addColumn<QString>("error");
        QTest::newRow("algorithm") << R"({"algorithm": "sft"})" << "rl.algorithm: must be one of";
        QTest::newRow("sleep level") << R"({"rollout": {"sleep_level": 3}})"
                                     << "rl.rollout.sleep_level: must be >= 0 and <= 2";
        QTest::newRow("separate without gpus") << R"({"rollout": {"placement": "separate"}})"
                                               << "rl.rollout.gpus: is required";
        QTest::newRow("utilization") << R"({"rollout": {"gpu_memory_utilization": 1.5}})"
                                     << "rl.rollout.gpu_memory_utilization: must be > 0";
        QTest::newRow("reward model type") << R"({"reward_model": 5})"
                                           << "rl.reward_model: must be null";
        QTest::newRow("reward model preset") << R"({"reward_model": "no-such-model"})"
                                             << "rl.reward_model";
        QTest::newRow("unknown key") << R"({"group": 8})" << "rl.group: unknown key";
        QTest::newRow("offload key") << R"({"offload": {"critic": true}})"
                                     << "rl.offload.critic: unknown key";
        QTest::newRow("engine version") << R"({"rollout": {"engine_version": "sglang 0.4"}})"
                                        << "rl.rollout.engine_version";
        QTest::newRow("group size") << R"({"group_size": 0})" << "rl.group_size: must be >= 1";
    }
    void badValues()
    {
        QFETCH(QString, rl);
        QFETCH(QString, error);
        const auto parsed = scenarioFromText(
            R"({"format": "vramplan-scenario", "model": {"preset": "qwen2.5-0.5b"}, "rl": )" +
            rl.toStdString() + "}");
        QVERIFY(!parsed);
        QVERIFY2(parsed.error.find(error.toStdString()) == 0, parsed.error.c_str());
    }
    void rlNeedsTraining()
    {
        const auto parsed = scenarioFromText(
            R"({"format": "vramplan-scenario", "training": {"mode": "inference"}, "rl": {}})");
        QVERIFY(!parsed);
        QVERIFY(parsed.error.find("rl: needs training.mode") == 0);
    }

    // The published runs (tests/data/measured/rl_runs.json), reported with the planner's error.
    // The planner sizes every sequence at prompt_tokens + response_tokens, while verl's tuning
    // runs use_remove_padding on GSM8K, whose sequences are several times shorter: it predicts
    // more than those runs hold. The ratchet below holds today's ratio (predicted device /
    // capacity) so that a change that worsens it fails; lower it as the model improves.
    void publishedRuns_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("ratchet"); // predicted device / capacity must stay <= this
        QTest::newRow("verl 7B 2xH800") << "verl-qwen2-7b-grpo-2xh800" << 1.0;
        QTest::newRow("verl 14B LoRA fits") << "verl-qwen2.5-14b-grpo-lora-2xh100-fits" << 2.1;
        QTest::newRow("verl 14B LoRA oom") << "verl-qwen2.5-14b-grpo-lora-2xh100-oom" << 2.1;
        QTest::newRow("verl 32B LoRA fits") << "verl-qwen2.5-32b-grpo-lora-4xh100-fits" << 2.2;
        QTest::newRow("verl 32B LoRA oom") << "verl-qwen2.5-32b-grpo-lora-4xh100-oom" << 2.2;
    }
    void publishedRuns()
    {
        QFETCH(QString, id);
        QFETCH(double, ratchet);
        const auto runs = nlohmann::json::parse(readFile(dataPath("measured/rl_runs.json")));
        const nlohmann::json *run = nullptr;
        for (const auto &r : runs["runs"])
            if (r["id"] == id.toStdString())
                run = &r;
        QVERIFY(run);
        Scenario s;
        if (run->contains("scenario_file"))
            s = parseOrFail(readFile(dataPath(QString::fromStdString((*run)["scenario_file"]))));
        else if (id.contains(QLatin1String("14b")))
            s = parseOrFail(verlLoraScenario(48, 13824, 2, (*run)["micro_batch_size"], 0.25, 2));
        else
            s = parseOrFail(verlLoraScenario(64, 27648, 4, (*run)["micro_batch_size"], 0.3, 4));
        const Estimate e = estimate(s);
        const double ratio = e.peak.device / e.capacityBytes;
        const bool oom = (*run)["metric"] == "oom";
        qInfo("%s: published %s; planned peak %.1f GiB in %s (held by the %s), %.2f x the GPU",
              qPrintable(id), oom ? "out of memory" : "runs",
              e.peak.device / GiB, std::string(rlPhaseKey(e.rl.peak)).c_str(),
              std::string(e.rl.phase(e.rl.peak).holder).c_str(), ratio);
        if (oom)
            QVERIFY2(!e.fits, "an out-of-memory report must be predicted not to fit");
        QVERIFY2(ratio <= ratchet, qPrintable(QStringLiteral("ratio %1 above the ratchet %2")
                                                  .arg(ratio)
                                                  .arg(ratchet)));
    }

    // A term an out-of-memory message names: NeMo-RL's fp32 logits of its log-prob pass, the
    // planner's b*T*V*c at c = 4.
    void publishedTerm()
    {
        const auto runs = nlohmann::json::parse(readFile(dataPath("measured/rl_runs.json")));
        for (const auto &r : runs["runs"]) {
            if (r["metric"] != "term_bytes" || r.value("asserted", true) == false)
                continue;
            const double planned = r["batch"].get<double>() * r["tokens"].get<double>() *
                                   r["vocab"].get<double>() * r["bytes_per_element"].get<double>();
            qInfo("%s: published %.2f GiB, planned %.2f GiB",
                  r["id"].get<std::string>().c_str(), r["figure"].get<double>() / GiB,
                  planned / GiB);
            QCOMPARE(planned, r["figure"].get<double>());
        }
    }
};

QTEST_APPLESS_MAIN(TestRl)
#include "tst_rl.moc"
