// `vramplan-cli import` as scripts use it (SPEC §3 "Command line", issue 24): the program is run
// with QProcess and judged by its exit status, stdout and stderr only. Fixtures: the tools' real
// files under tests/data/imports/ (README.md there names their sources).
//
// The contract: the scenario file alone on stdout (it reads back into `estimate -`), warnings and
// the count of keys not modelled on stderr; --explain one line per field with its origin; bad
// input or a missing fact exits 2 with one line on stderr naming the file and line, or the flag.

#include "clirun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString fixture(const char *name)
{
    return QStringLiteral(VRAMPLAN_TEST_DATA "/imports/") + QLatin1String(name);
}

using Result = vramplan::test::CliRun;
using vramplan::test::cli;

} // namespace

class TestImportCli : public QObject
{
    Q_OBJECT

private slots:
    void scenarioOnStdout();
    void readsBackIntoEstimate();
    void explainShowsOrigins();
    void launchScripts();
    void exportBack();
    void refusals_data();
    void refusals();
};

// Axolotl's examples/llama-3/lora-1b.yml: micro-batch 2, accumulation 2, 2048 tokens, LoRA r16.
void TestImportCli::scenarioOnStdout()
{
    const Result r = cli({"import", fixture("axolotl/lora-1b.yml"), "--gpus", "1", "--gpu",
                          "h100-80gb"});
    QVERIFY2(!r.crashed && r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject s = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(s["format"].toString(), QString("vramplan-scenario"));
    QCOMPARE(s["model"].toObject()["preset"].toString(), QString("llama-3.2-1b"));
    const QJsonObject t = s["training"].toObject();
    QCOMPARE(t["micro_batch_size"].toInt(), 2);
    QCOMPARE(t["gradient_accumulation_steps"].toInt(), 2);
    QCOMPARE(t["sequence_length"].toInt(), 2048);
    QCOMPARE(t["optimizer"].toString(), QString("adamw_8bit"));
    QCOMPARE(t["finetune"].toObject()["lora_rank"].toInt(), 16);
    QCOMPARE(s["parallelism"].toObject()["gpus"].toInt(), 1);
    // 22 keys of the file are not modelled (datasets, learning rate, logging, wandb, ...).
    QCOMPARE(QString::fromUtf8(r.err),
             QString("ignored (not modelled): 22 keys; --explain lists them\n"));
}

// The imported scenario is a scenario file: `estimate -` reads it from stdin.
void TestImportCli::readsBackIntoEstimate()
{
    const Result imported =
        cli({"import", fixture("llamafactory/examples/train_full/qwen3_full_sft.yaml"), "--gpus",
             "4", "--gpu", "a100-80gb"});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.describe()));
    const Result estimate = cli({"estimate", "-"}, imported.out);
    QVERIFY2(!estimate.crashed && estimate.exitCode == 0, qPrintable(estimate.describe()));
    const QJsonObject e = QJsonDocument::fromJson(estimate.out).object();
    QCOMPARE(e["format"].toString(), QString("vramplan-estimate"));
    QCOMPARE(e["gpu"].toObject()["name"].toString(), QString("NVIDIA A100-SXM4-80GB"));
}

void TestImportCli::explainShowsOrigins()
{
    const QString file = fixture("torchtune/8B_lora_single_device.yaml");
    const Result r = cli({"import", file, "--gpus", "1", "--gpu", "h100-80gb", "--explain"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QStringList lines = QString::fromUtf8(r.out).split('\n');
    QCOMPARE(lines.first(), QString("formats: torchtune"));
    QVERIFY2(lines.contains("training.micro_batch_size = 2    <- " + file + ":batch_size"),
             qPrintable(r.describe()));
    QVERIFY2(lines.contains("training.sequence_length = 4096    <- not in the file (vramplan "
                            "default)"),
             qPrintable(r.describe()));
    QVERIFY2(lines.contains("parallelism.gpus = 1    <- --gpus"), qPrintable(r.describe()));
    QVERIFY2(lines.contains("ignored: " + file + ":optimizer.lr"), qPrintable(r.describe()));
    QVERIFY2(lines.contains("warning: " + file +
                            ": tokenizer.max_seq_len is null: samples keep their length; the "
                            "sequence length is vramplan's default"),
             qPrintable(r.describe()));
}

// Megatron-LM's Llama-3 8B script: the GPUs from its torchrun line, the model from its flags;
// a verl script's rl section; a torchtitan TOML (issue 24, tests/data/imports/README.md).
void TestImportCli::launchScripts()
{
    const QString megatron = fixture("megatron/train_llama3_8b_h100_fp8.sh");
    Result r = cli({"import", megatron, "--gpu", "h100-80gb", "--explain"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QStringList lines = QString::fromUtf8(r.out).split('\n');
    QCOMPARE(lines.first(), QString("formats: megatron"));
    QVERIFY2(lines.contains("parallelism.gpus = 8    <- " + megatron +
                            ":187: torchrun --nproc_per_node 8 x --nnodes 1"),
             qPrintable(r.describe()));
    QVERIFY2(lines.contains("model.layers = 32    <- " + megatron + ":--num-layers"),
             qPrintable(r.describe()));
    QVERIFY2(lines.contains("ignored: " + megatron + ":--lr"), qPrintable(r.describe()));

    const QString verl = fixture("verl/run_qwen2-7b.sh");
    r = cli({"import", verl, "--gpu", "h100-80gb", "--model", "qwen2.5-7b"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject rl = QJsonDocument::fromJson(r.out).object()["rl"].toObject();
    QCOMPARE(rl["algorithm"].toString(), QString("grpo"));
    QCOMPARE(rl["group_size"].toInt(), 5);
    QCOMPARE(rl["rollout"].toObject()["gpu_memory_utilization"].toDouble(), 0.6);

    r = cli({"import", fixture("torchtitan/llama3_70b.toml"), "--gpus", "64", "--gpu", "h100-80gb"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject p = QJsonDocument::fromJson(r.out).object()["parallelism"].toObject();
    QCOMPARE(p["tensor_parallel"].toInt(), 8);
    QCOMPARE(p["zero_stage"].toInt(), 3);
}

// `export FILE --to FORMAT`: the imported Axolotl setup written as a DeepSpeed JSON (stdout) with
// notes (stderr); a bad --to or file is exit 2 naming it.
void TestImportCli::exportBack()
{
    QTemporaryDir dir;
    const QString scenario = dir.path() + "/lora.vramplan.json";
    const Result imported = cli({"import", fixture("axolotl/lora-1b.yml"), "--gpus", "1", "--gpu",
                                 "h100-80gb"});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.describe()));
    QFile f(scenario);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(imported.out);
    f.close();
    Result r = cli({"export", scenario, "--to", "deepspeed"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject ds = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(ds["train_micro_batch_size_per_gpu"].toInt(), 2);
    QCOMPARE(ds["gradient_accumulation_steps"].toInt(), 2);
    QCOMPARE(ds["zero_optimization"].toObject()["stage"].toInt(), 0);
    QVERIFY2(QString::fromUtf8(r.err).startsWith("note: training.precision: DeepSpeed's bf16"),
             qPrintable(r.describe()));
    r = cli({"export", scenario, "--to", "nemo"});
    QVERIFY2(r.exitCode == 2 && r.out.isEmpty(), qPrintable(r.describe()));
    QCOMPARE(QString::fromUtf8(r.err),
             QString("--to: 'nemo' is not deepspeed, axolotl, llamafactory, torchtune, megatron, "
                     "accelerate, trl, verl, torchtitan or swift\n"));
    r = cli({"export", dir.path() + "/missing.json", "--to", "axolotl"});
    QVERIFY2(r.exitCode == 2 && r.err.contains("missing.json"), qPrintable(r.describe()));
}

void TestImportCli::refusals_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("yaml"); // written to setup.yaml and appended, or ""
    QTest::addColumn<QString>("error");
    const QString lora = fixture("axolotl/lora-1b.yml");
    QTest::newRow("no --gpus") << QStringList{"import", lora, "--gpu", "h100-80gb"} << QString()
                               << QString("--gpus: the GPU count is not in the files; give --gpus N");
    QTest::newRow("no --gpu") << QStringList{"import", lora, "--gpus", "2"} << QString()
                              << QString("--gpu: the GPU is not in the files; give --gpu PRESET "
                                         "(vramplan-cli gpus)");
    QTest::newRow("bad --gpus") << QStringList{"import", lora, "--gpus", "0"} << QString()
                                << QString("vramplan-cli: --gpus: must be a whole number from 1 "
                                           "to 65536, got '0'");
    QTest::newRow("no preset")
        << QStringList{"import", fixture("axolotl/qlora.yml"), "--gpus", "1", "--gpu", "l4"}
        << QString()
        << fixture("axolotl/qlora.yml") +
               ":1: base_model: 'NousResearch/Meta-Llama-3-8B' is no bundled preset; give "
               "--model PRESET|CONFIG|DIR (its config.json or checkpoint folder)";
    QTest::newRow("bad value") << QStringList{"import", "--gpus", "1", "--gpu", "l4"}
                               << QString("base_model: Qwen/Qwen3-8B\nmicro_batch_size: 0\n")
                               << QString("F:2: micro_batch_size: must be from 1 to 1048576, got 0");
    // Mixtral's NNODES=${SLURM_NNODES:-"1"} is not a literal of the script: the flag that
    // gives the count is named.
    QTest::newRow("launcher count unknown")
        << QStringList{"import", fixture("megatron/train_mixtral_8x7b_distributed.sh"), "--gpu",
                       "h100-80gb", "--model", "mixtral-8x7b"}
        << QString()
        << "--gpus: " + fixture("megatron/train_mixtral_8x7b_distributed.sh") +
               ":110: torchrun --nnodes 1 depends on SLURM_NNODES, which the script does not "
               "set; give --gpus N";
    QTest::newRow("no file") << QStringList{"import", "--gpus", "1"} << QString()
                             << QString("vramplan-cli: import takes one or more FILEs; usage: "
                                        "vramplan-cli import FILE... [--model PRESET|CONFIG|DIR] "
                                        "[--gpus N] [--gpu PRESET] [--explain]");
}

void TestImportCli::refusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, yaml);
    QFETCH(QString, error);
    QTemporaryDir dir;
    if (!yaml.isEmpty()) {
        const QString path = dir.path() + "/setup.yaml";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(yaml.toUtf8());
        f.close();
        arguments.append(path);
        error.replace(0, 1, path);
    }
    const Result r = cli(arguments);
    QVERIFY2(!r.crashed && r.exitCode == 2, qPrintable(r.describe()));
    QVERIFY(r.out.isEmpty());
    QCOMPARE(QString::fromUtf8(r.err), error + "\n"); // one line
}

QTEST_APPLESS_MAIN(TestImportCli)
#include "tst_importcli.moc"
