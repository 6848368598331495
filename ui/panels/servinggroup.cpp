#include "panels/servinggroup.h"

#include "charts/componentstyle.h"
#include "charts/curvesamples.h"
#include "panels/fitwording.h"
#include "panels/formcontrols.h"
#include "formats/scenario_json.h"
#include "advice/serving_advice.h"
#include "advice/serving_advice_start.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace vramplan::ui {
namespace {

// The engine box's entry for no serving section: inference as one naive forward pass.
constexpr int noEngine = -1;
// The bounds a scenario file accepts (serving_json.cpp), so that every file's value shows.
constexpr int mostTokens = 1 << 30;
constexpr int mostSequences = 1 << 20;
constexpr int largestBlock = 4096;
// Below this a server keeps nothing for the KV cache of any model worth serving.
constexpr double leastUtilization = 0.05;
constexpr double utilizationStep = 0.01;
// The arrows step max_model_len by whole thousands, as context lengths are given (8k, 32k).
constexpr int contextStep = 1024;

QDoubleSpinBox *utilizationSpin()
{
    auto *box = new QDoubleSpinBox;
    box->setRange(leastUtilization, 1.0);
    box->setSingleStep(utilizationStep);
    box->setDecimals(2);
    box->setKeyboardTracking(false);
    return box;
}

} // namespace

ServingGroup::ServingGroup(QWidget *parent)
    : ControlGroup(tr("Serving"), parent), m_engine(new QComboBox), m_kvDtype(new QComboBox),
      m_quantization(new QComboBox), m_utilization(utilizationSpin()),
      m_maxModelLen(spinBox(1, mostTokens)), m_maxNumSeqs(spinBox(1, mostSequences)),
      m_blockSize(spinBox(1, largestBlock)), m_maxBatched(spinBox(1, mostTokens)),
      m_targetRequests(spinBox(1, mostSequences)), m_targetTokens(spinBox(0, mostTokens)),
      m_cudaGraphs(new QCheckBox(tr("CUDA graphs"))), m_version(new QLineEdit),
      m_plan(new QLabel)
{
    m_engine->addItem(tr("none"), noEngine);
    m_engine->setItemData(0,
                          tr("No server: one naive forward pass over the batch, as inference "
                             "was planned before engines"),
                          Qt::ToolTipRole);
    fillEnum<ServingEngine>(
        m_engine,
        {{ServingEngine::Vllm, tr("vLLM: a budget of gpu_memory_utilization x the GPU; what the "
                                  "weights, the profiling run and memory outside PyTorch leave is "
                                  "the paged KV cache")},
         {ServingEngine::Sglang, tr("SGLang: mem_fraction_static x the free memory at start, less "
                                    "the weights, is the token pool")},
         {ServingEngine::Transformers, tr("transformers generate: the cache grows with the batch's "
                                          "tokens; no budget, it fits or runs out of memory")}});
    fillEnum<KvCacheDtype>(m_kvDtype,
                           {{KvCacheDtype::Auto, tr("The model's dtype (2 bytes per element)")},
                            {KvCacheDtype::Fp8, tr("fp8 e4m3: one byte per element, twice the "
                                                   "tokens")}});
    fillEnum<WeightQuantization>(
        m_quantization,
        {{WeightQuantization::None, tr("16-bit weights as the checkpoint ships them")},
         {WeightQuantization::Fp8, tr("fp8 e4m3 weights with an fp32 scale per 128 x 128 block")},
         {WeightQuantization::Awq, tr("4-bit AWQ: groups of 128 with fp16 scales and zeros")},
         {WeightQuantization::Gptq, tr("4-bit GPTQ: as AWQ, plus g_idx")},
         {WeightQuantization::Mxfp4, tr("MXFP4 experts (gpt-oss): fp4 with a scale per 32")},
         {WeightQuantization::Bitsandbytes, tr("bitsandbytes NF4: 4-bit blocks of 64")}});

    addRow(tr("Engine"), m_engine, QStringLiteral("serving.engine"), tr("serving engine"),
           tr("The inference server whose allocation is planned; none is one naive forward "
              "pass"));
    addRow(tr("GPU memory use"), m_utilization, QStringLiteral("serving.gpu_memory_utilization"),
           tr("GPU memory utilization"),
           tr("vLLM's gpu_memory_utilization (SGLang's mem_fraction_static): the share of the "
              "GPU the engine may take; the KV cache gets what the rest leaves of it"));
    addRow(tr("max_model_len"), m_maxModelLen, QStringLiteral("serving.max_model_len"),
           tr("max_model_len"),
           tr("The longest request in tokens (prompt and output): the KV cache must hold at "
              "least one request of it for the engine to start"));
    addRow(tr("max_num_seqs"), m_maxNumSeqs, QStringLiteral("serving.max_num_seqs"),
           tr("max_num_seqs"),
           tr("The most requests scheduled at once; the sampler's profiling run grows with it"));
    addRow(tr("max_num_batched_tokens"), m_maxBatched,
           QStringLiteral("serving.max_num_batched_tokens"), tr("max_num_batched_tokens"),
           tr("The most tokens in one scheduler step: the profiling run's activations grow with "
              "it, out of the same budget as the KV cache (at least max_num_seqs)"));
    addRow(tr("KV cache dtype"), m_kvDtype, QStringLiteral("serving.kv_cache_dtype"),
           tr("KV cache dtype"), tr("How cached keys and values are stored"));
    addRow(tr("Quantization"), m_quantization, QStringLiteral("serving.quantization"),
           tr("weight quantization"),
           tr("How the linear weights are stored on the GPU (vLLM --quantization)"));
    addRow(tr("Block size"), m_blockSize, QStringLiteral("serving.block_size"), tr("block size"),
           tr("Tokens per KV-cache block (SGLang: page size); the cache is allocated in whole "
              "blocks"));
    addRow(QString(), m_cudaGraphs, QStringLiteral("serving.cuda_graphs"), tr("CUDA graphs"),
           tr("Captured decode graphs (off: vLLM --enforce-eager). vLLM up to 0.20 captures "
              "them after the KV cache, outside its budget; from 0.21 its estimate of them comes "
              "out of the budget first"));
    m_version->setPlaceholderText(tr("current release"));
    m_version->setClearButtonEnabled(true);
    addRow(tr("Release"), m_version, QStringLiteral("serving.engine_version"), tr("engine release"),
           tr("The engine's release where its accounting changed (\"0.21\", \"vllm 0.6.4\"): "
              "vLLM from 0.21 takes its CUDA-graph estimate out of the KV budget, and before 0.8 "
              "ran the V0 engine's batch defaults. Empty: the current release"));
    // The load "Make it fit" searches for, as `vramplan-cli advise --requests --tokens`.
    addRow(tr("Target requests"), m_targetRequests, QStringLiteral("serving.target_requests"),
           tr("target requests"),
           tr("How many requests the server must hold at once: what \"Make it fit\" searches "
              "for (max_num_seqs is only the scheduler's cap)"));
    addRow(tr("Target tokens"), m_targetTokens, QStringLiteral("serving.target_tokens"),
           tr("target tokens"),
           tr("The tokens of each of those requests (prompt and output); at its lowest, "
              "max_model_len"));
    m_targetTokens->setSpecialValueText(tr("max_model_len"));
    m_targetTokens->setSingleStep(contextStep);
    m_maxBatched->setSingleStep(contextStep);
    m_maxModelLen->setSingleStep(contextStep);
    m_plan->setWordWrap(true);
    m_plan->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form()->addRow(m_plan);

    connect(m_engine, &QComboBox::currentIndexChanged, this, [this] {
        const int engine = m_engine->currentData().toInt();
        request(m_engine, [engine](Scenario &s) {
            if (engine == noEngine) {
                s.serving = ServingConfig{};
                return;
            }
            s.serving.present = true;
            s.serving.engine = static_cast<ServingEngine>(engine);
        });
    });
    connect(m_utilization, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        requestServing(m_utilization, [v](ServingConfig &c) { c.gpuMemoryUtilization = v; });
    });
    connect(m_maxModelLen, &QSpinBox::valueChanged, this, [this](int v) {
        requestServing(m_maxModelLen, [v](ServingConfig &c) { c.maxModelLen = v; });
    });
    connect(m_maxNumSeqs, &QSpinBox::valueChanged, this, [this](int v) {
        requestServing(m_maxNumSeqs, [v](ServingConfig &c) { c.maxNumSeqs = v; });
    });
    connect(m_maxBatched, &QSpinBox::valueChanged, this, [this](int v) {
        requestServing(m_maxBatched, [v](ServingConfig &c) { c.maxNumBatchedTokens = v; });
    });
    connect(m_targetRequests, &QSpinBox::valueChanged, this, [this](int v) {
        requestServing(m_targetRequests, [v](ServingConfig &c) { c.targetRequests = v; });
    });
    connect(m_targetTokens, &QSpinBox::valueChanged, this, [this](int v) {
        requestServing(m_targetTokens, [v](ServingConfig &c) { c.targetTokens = v; });
    });
    connect(m_kvDtype, &QComboBox::currentIndexChanged, this, [this] {
        requestServing(m_kvDtype, [d = enumAt<KvCacheDtype>(m_kvDtype)](ServingConfig &c) {
            c.kvCacheDtype = d;
        });
    });
    connect(m_quantization, &QComboBox::currentIndexChanged, this, [this] {
        requestServing(m_quantization, [q = enumAt<WeightQuantization>(m_quantization)](
                                           ServingConfig &c) { c.quantization = q; });
    });
    connect(m_blockSize, &QSpinBox::valueChanged, this, [this](int v) {
        requestServing(m_blockSize, [v](ServingConfig &c) { c.blockSize = v; });
    });
    connect(m_cudaGraphs, &QCheckBox::toggled, this, [this](bool on) {
        requestServing(m_cudaGraphs, [on](ServingConfig &c) { c.cudaGraphs = on; });
    });
    connect(m_version, &QLineEdit::editingFinished, this, &ServingGroup::requestVersion);
}

// As the Training stack's release: through the scenario parser, so the window accepts exactly
// what a file may say, and text it refuses reaches the field as checkScenario's refusal.
void ServingGroup::requestVersion()
{
    const std::string text = m_version->text().trimmed().toStdString();
    requestServing(m_version, [text](ServingConfig &c) {
        c.engineVersion = releaseOrRefused(text, toString(c.engine), "serving.engine_version");
    });
}

void ServingGroup::requestServing(QWidget *control, std::function<void(ServingConfig &)> edit)
{
    request(control, [edit = std::move(edit)](Scenario &s) {
        s.serving.present = true;
        edit(s.serving);
    });
}

void ServingGroup::display(const Scenario &s)
{
    // What the engine would run with: a setting the file leaves out shows its default.
    const ResolvedServing r = resolveServing(s);
    showData(m_engine, s.serving.present ? int(s.serving.engine) : noEngine);
    {
        const QSignalBlocker blocker(m_utilization);
        m_utilization->setValue(r.utilization);
    }
    showInt(m_maxModelLen, r.maxModelLen);
    showInt(m_maxNumSeqs, r.maxNumSeqs);
    showInt(m_maxBatched, r.maxNumBatchedTokens);
    const ServingTarget target = resolveTarget(s, {});
    showInt(m_targetRequests, target.requests);
    // 0 reads "max_model_len": the target follows it until one is given.
    showInt(m_targetTokens, s.serving.targetTokens);
    showEnum(m_kvDtype, s.serving.kvCacheDtype);
    showEnum(m_quantization, s.serving.quantization);
    showInt(m_blockSize, r.blockSize);
    {
        const QSignalBlocker blocker(m_cudaGraphs);
        m_cudaGraphs->setChecked(s.serving.cudaGraphs);
    }
    const QSignalBlocker blocker(m_version);
    m_version->setText(s.serving.engineVersion.given && s.serving.engineVersion.major >= 0
                           ? QString::fromStdString(frameworkVersionText(s.serving.engineVersion))
                           : m_version->text());
    if (!s.serving.engineVersion.given)
        m_version->clear();
    m_scenario = s;
    showPlan();
}

void ServingGroup::refreshAvailability(const Scenario &s)
{
    setVisible(s.training.mode == Mode::Inference);
    const bool present = s.serving.present;
    const bool transformers = s.serving.engine == ServingEngine::Transformers;
    const QString noServer = tr("Choose an engine first: without one, inference is a single "
                                "forward pass");
    const QString noBudget = tr("transformers generate has no memory budget: it fits or runs "
                                "out of memory");
    setAvailable(m_utilization, present && !transformers, present ? noBudget : noServer);
    setAvailable(m_maxModelLen, present, noServer);
    setAvailable(m_maxNumSeqs, present && !transformers,
                 present ? tr("transformers generate: the batch is the micro-batch") : noServer);
    setAvailable(m_maxBatched, present && s.serving.engine == ServingEngine::Vllm,
                 present ? tr("Only vLLM's profiling run is sized by max_num_batched_tokens here")
                         : noServer);
    setAvailable(m_targetRequests, present, noServer);
    setAvailable(m_targetTokens, present, noServer);
    setAvailable(m_kvDtype, present, noServer);
    setAvailable(m_quantization, present, noServer);
    setAvailable(m_blockSize, present && !transformers,
                 present ? tr("transformers caches token by token, not in blocks") : noServer);
    setAvailable(m_cudaGraphs, present && !transformers,
                 present ? tr("transformers generate captures no CUDA graphs here") : noServer);
    setAvailable(m_version, present && s.serving.engine == ServingEngine::Vllm,
                 present ? tr("Only vLLM's accounting changes with its release here") : noServer);
    if (!present)
        m_plan->clear();
    m_plan->setVisible(present);
}

void ServingGroup::setPlan(const ServingPlan &plan, Unit unit)
{
    m_lastPlan = plan;
    m_unit = unit;
    showPlan();
}

namespace {

// A setting as the engine's flag is written, with its value: "max_num_seqs 64".
QString settingText(const StartingSetting &s)
{
    const QString name = QString::fromStdString(s.path.substr(s.path.rfind('.') + 1));
    QString value;
    if (s.value.is_number_integer())
        value = groupedNumber(s.value.get<int64_t>());
    else if (s.value.is_number())
        value = QString::number(s.value.get<double>(), 'f', 2);
    else
        value = QString::fromStdString(s.value.get<std::string>());
    return name + QLatin1Char(' ') + value;
}

} // namespace

void ServingGroup::showPlan()
{
    const ServingPlan &plan = m_lastPlan;
    if (!plan.present) {
        m_plan->clear();
        return;
    }
    const QString failure = QString::fromStdString(servingFailureText(plan));
    if (!failure.isEmpty()) {
        // The engine's message names gpu_memory_utilization whatever the cause; the settings
        // that would start it, each alone, are searched (issue 21 #6).
        QStringList settings;
        for (const StartingSetting &s : settingsThatStart(m_scenario))
            settings << settingText(s);
        const QString remedy =
            settings.isEmpty()
                ? tr("No one setting of this server starts it: a larger GPU, more of them or "
                     "quantized weights might (Make it fit).")
                : tr("It would start with any one of: %1.").arg(settings.join(QStringLiteral(", ")));
        m_plan->setText(tr("The engine would not start: %1").arg(failure) + QLatin1Char('\n') +
                        remedy);
        m_plan->setStyleSheet(
            QStringLiteral("color: %1; font-weight: bold").arg(overflowColor().name()));
        return;
    }
    m_plan->setStyleSheet(QString());
    QString text = tr("KV cache %1: %2 tokens, %3 requests of %4 tokens at once")
                       .arg(formatSize(plan.kvCacheBytes, m_unit), groupedNumber(plan.kvCacheTokens),
                            QString::number(plan.maxConcurrency, 'f', 2),
                            formatX(double(plan.settings.maxModelLen), true));
    if (isServingScenario(m_scenario)) {
        // Judged as "Make it fit" judges it (serving_advice.h): the engine starts, holds the
        // requests at once at max_model_len = the target's tokens, and fits the GPU.
        const ServingTarget t = resolveTarget(m_scenario, {});
        const ServingSuggestion now = evaluateServing(m_scenario, withTarget(m_scenario, t), t);
        text += QLatin1Char('\n') +
                (now.serves ? tr("Target %1 × %2 tokens at once: served (room for %3)")
                            : tr("Target %1 × %2 tokens at once: not served (room for %3)"))
                    .arg(groupedNumber(t.requests), groupedNumber(t.tokens),
                         QString::number(now.plan.maxConcurrency, 'f', 2));
    }
    m_plan->setText(text);
}

} // namespace vramplan::ui
