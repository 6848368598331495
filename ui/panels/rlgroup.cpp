#include "panels/rlgroup.h"

#include "formats/scenario_json.h"
#include "panels/formcontrols.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLineEdit>

#include <algorithm>
#include <tuple>

namespace vramplan::ui {
namespace {

// The bounds a scenario file accepts (scenario_rl_reader.cpp), so that every file's value shows.
constexpr int mostTokens = 1 << 24;
constexpr int largestGroup = 1 << 16;
constexpr int mostSequences = 1 << 20;
constexpr int mostGpus = 1 << 20;
// The value a setting left to the framework shows as ("framework default").
constexpr int frameworkDefault = -1;

} // namespace

RlConfig RlGroup::defaultRl()
{
    // SPEC §3's example: GRPO in verl with vLLM colocated; the budget, the sleep level and the
    // CUDA graphs left to verl's release (rl_config.h).
    RlConfig rl;
    rl.given = true;
    return rl;
}

RlGroup::RlGroup(QWidget *parent)
    : ControlGroup(tr("Post-training (RL)"), parent),
      m_enabled(new QCheckBox(tr("plan phase by phase"))), m_algorithm(new QComboBox),
      m_framework(new QComboBox), m_version(new QLineEdit),
      m_reference(new QCheckBox(tr("Reference model"))),
      m_rewardModel(new QCheckBox(tr("Reward model"))), m_critic(new QCheckBox(tr("Critic"))),
      m_groupSize(spinBox(1, largestGroup)), m_prompt(spinBox(1, mostTokens)),
      m_response(spinBox(1, mostTokens)), m_engine(new QComboBox), m_placement(new QComboBox),
      m_engineGpus(spinBox(1, mostGpus)), m_engineTp(spinBox(1, 1024)),
      m_utilization(new QDoubleSpinBox), m_sleep(new QComboBox),
      m_offloadParameters(new QCheckBox(tr("policy parameters"))),
      m_offloadOptimizer(new QCheckBox(tr("policy optimizer"))),
      m_offloadReference(new QCheckBox(tr("reference model"))),
      m_logProb(spinBox(0, mostSequences))
{
    fillEnum<RlAlgorithm>(
        m_algorithm,
        {{RlAlgorithm::Grpo, tr("GRPO: a group of responses per prompt, the group's mean as the "
                                "baseline; no critic")},
         {RlAlgorithm::Ppo, tr("PPO: a critic (value model) gives the baseline")},
         {RlAlgorithm::Dpo, tr("DPO: preference pairs from the data set, no generation")},
         {RlAlgorithm::Orpo, tr("ORPO: preference pairs, no reference model")},
         {RlAlgorithm::Kto, tr("KTO: desirable and undesirable examples, no generation")},
         {RlAlgorithm::Rloo, tr("RLOO: leave-one-out baseline within the group")},
         {RlAlgorithm::ReinforcePp, tr("REINFORCE++: a global baseline, no critic")}});
    fillEnum<RlFramework>(
        m_framework,
        {{RlFramework::Verl, tr("verl: FSDP actor, vLLM or SGLang rollout that sleeps between "
                                "phases")},
         {RlFramework::Trl, tr("TRL: the trainers of Hugging Face (GRPOTrainer, DPOTrainer)")},
         {RlFramework::Openrlhf, tr("OpenRLHF: planned with verl's rules")},
         {RlFramework::MsSwift, tr("ms-swift: planned with TRL's rules (built on GRPOTrainer)")}});
    fillEnum<ServingEngine>(
        m_engine, {{ServingEngine::Vllm, tr("vLLM generates the rollouts")},
                   {ServingEngine::Sglang, tr("SGLang generates the rollouts (planned as vLLM)")},
                   {ServingEngine::Transformers,
                    tr("generate() in the training process, with the policy's own weights")}});
    fillEnum<RolloutPlacement>(
        m_placement,
        {{RolloutPlacement::Colocated, tr("The engine shares the training GPUs and sleeps "
                                          "between phases")},
         {RolloutPlacement::Separate, tr("The engine has GPUs of its own: the training GPUs "
                                         "hold none of it")}});
    for (const auto &[text, level, about] :
         {std::tuple{tr("framework default"), frameworkDefault,
                     tr("The framework's own: verl sleeps at level 1, TRL and the others not at "
                        "all")},
          std::tuple{tr("0: stays awake"), 0,
                     tr("The engine keeps its weights and KV cache through the experience and "
                        "training phases")},
          std::tuple{tr("1: weights to CPU"), 1,
                     tr("Sleep frees the engine's weights (copied to pinned CPU memory) and its "
                        "KV cache between generations")},
          std::tuple{tr("2: weights discarded"), 2,
                     tr("Sleep discards the engine's weights and frees its KV cache; the weights "
                        "are sent again before each generation")}}) {
        m_sleep->addItem(text, level);
        m_sleep->setItemData(m_sleep->count() - 1, about, Qt::ToolTipRole);
    }
    m_utilization->setRange(0.0, 1.0);
    m_utilization->setSingleStep(0.05);
    m_utilization->setDecimals(2);
    m_utilization->setKeyboardTracking(false);
    m_utilization->setSpecialValueText(tr("framework default"));
    m_logProb->setSpecialValueText(tr("micro-batch"));

    addRow(tr("Rollout engine"), m_enabled, QStringLiteral("rl"), tr("RL"),
           tr("Plan post-training with a rollout engine phase by phase: generation, experience, "
              "training"));
    addRow(tr("Algorithm"), m_algorithm, QStringLiteral("rl.algorithm"), tr("RL algorithm"),
           tr("What the step computes; each choice's tooltip says what it keeps"));
    addRow(tr("RL framework"), m_framework, QStringLiteral("rl.framework"), tr("RL framework"),
           tr("Whose defaults and code paths are planned"));
    addRow(tr("Its release"), m_version, QStringLiteral("rl.framework_version"),
           tr("RL framework release"), tr("The framework's release, such as 0.5 (empty: the "
                                          "release planned by default)"));
    addRow(QString(), m_reference, QStringLiteral("rl.reference_model"), tr("reference model"),
           tr("A frozen copy of the policy for the KL term (off: beta 0)"));
    addRow(QString(), m_rewardModel, QStringLiteral("rl.reward_model"), tr("reward model"),
           tr("A reward model of the policy's architecture beside it (off: a rule-based "
              "reward)"));
    addRow(QString(), m_critic, QStringLiteral("rl.critic"), tr("critic"),
           tr("A value model trained beside the policy (PPO)"));
    addRow(tr("Group size"), m_groupSize, QStringLiteral("rl.group_size"), tr("group size"),
           tr("Responses generated per prompt"));
    addRow(tr("Prompt tokens"), m_prompt, QStringLiteral("rl.prompt_tokens"), tr("prompt tokens"),
           tr("The longest prompt; the sequence is prompt + response"));
    addRow(tr("Response tokens"), m_response, QStringLiteral("rl.response_tokens"),
           tr("response tokens"), tr("The longest response generated"));
    addRow(tr("Engine"), m_engine, QStringLiteral("rl.rollout.engine"),
           tr("rollout engine"), tr("What generates the rollouts"));
    addRow(tr("Placement"), m_placement, QStringLiteral("rl.rollout.placement"),
           tr("placement"), tr("Whether the engine shares the training GPUs"));
    addRow(tr("Engine GPUs"), m_engineGpus, QStringLiteral("rl.rollout.gpus"), tr("engine GPUs"),
           tr("The engine's own GPUs (separate placement)"));
    addRow(tr("Engine TP"), m_engineTp, QStringLiteral("rl.rollout.tensor_parallel"),
           tr("engine tensor parallelism"), tr("The engine's tensor parallelism"));
    addRow(tr("Engine memory"), m_utilization, QStringLiteral("rl.rollout.gpu_memory_utilization"),
           tr("engine memory utilization"),
           tr("gpu_memory_utilization: the engine's share of the GPU (its weights, KV cache and "
              "activations)"));
    addRow(tr("Sleep level"), m_sleep, QStringLiteral("rl.rollout.sleep_level"), tr("sleep level"),
           tr("What the engine frees between generations: 1 keeps its weights in CPU memory, 2 "
              "discards them"));
    addRow(tr("Offload"), m_offloadParameters, QStringLiteral("rl.offload.policy_parameters"),
           tr("policy parameter offload"), tr("The policy's weights leave the GPU while the "
                                              "engine generates"));
    addRow(QString(), m_offloadOptimizer, QStringLiteral("rl.offload.policy_optimizer"),
           tr("policy optimizer offload"),
           tr("The optimizer states stay in CPU memory outside the update"));
    addRow(QString(), m_offloadReference, QStringLiteral("rl.offload.reference"),
           tr("reference offload"), tr("The reference's weights in CPU memory, one layer on the "
                                       "GPU while it runs"));
    addRow(tr("Log-prob micro-batch"), m_logProb, QStringLiteral("rl.log_prob_micro_batch_size"),
           tr("log-prob micro-batch"),
           tr("Sequences per no-grad forward of the experience phase (log_prob_micro_batch_size)"));

    connect(m_enabled, &QCheckBox::toggled, this, [this](bool on) {
        request(m_enabled, [on](Scenario &s) {
            // Off drops the section: the scenario plans plain training again.
            s.rl = on ? defaultRl() : RlConfig{};
            if (on)
                s.training.mode = Mode::Train;
        });
    });
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, [this] {
        requestRl(m_algorithm, [a = enumAt<RlAlgorithm>(m_algorithm)](Scenario &s) {
            s.rl.algorithm = a;
            // PPO trains a critic beside the policy; the others have none.
            s.rl.critic = a == RlAlgorithm::Ppo;
        });
    });
    connect(m_framework, &QComboBox::currentIndexChanged, this, [this] {
        requestRl(m_framework, [f = enumAt<RlFramework>(m_framework)](Scenario &s) {
            s.rl.framework = f;
            s.rl.frameworkVersion = {}; // another framework's release means nothing here
        });
    });
    connect(m_version, &QLineEdit::editingFinished, this, &RlGroup::requestVersion);
    const auto toggle = [this](QCheckBox *box, auto set) {
        connect(box, &QCheckBox::toggled, this,
                [this, box, set](bool on) { requestRl(box, [set, on](Scenario &s) { set(s, on); }); });
    };
    toggle(m_reference, [](Scenario &s, bool on) { s.rl.referenceModel = on; });
    toggle(m_rewardModel, [](Scenario &s, bool on) {
        s.rl.hasRewardModel = on;
        s.rl.rewardModel = on ? s.model : ModelConfig{};
    });
    toggle(m_critic, [](Scenario &s, bool on) { s.rl.critic = on; });
    toggle(m_offloadParameters, [](Scenario &s, bool on) { s.rl.offload.policyParameters = on; });
    toggle(m_offloadOptimizer, [](Scenario &s, bool on) { s.rl.offload.policyOptimizer = on; });
    toggle(m_offloadReference, [](Scenario &s, bool on) { s.rl.offload.reference = on; });
    const auto number = [this](QSpinBox *box, auto set) {
        connect(box, &QSpinBox::valueChanged, this,
                [this, box, set](int v) { requestRl(box, [set, v](Scenario &s) { set(s, v); }); });
    };
    number(m_groupSize, [](Scenario &s, int v) { s.rl.groupSize = v; });
    number(m_prompt, [](Scenario &s, int v) { s.rl.promptTokens = v; });
    number(m_response, [](Scenario &s, int v) { s.rl.responseTokens = v; });
    number(m_engineGpus, [](Scenario &s, int v) { s.rl.rollout.gpus = v; });
    number(m_engineTp, [](Scenario &s, int v) { s.rl.rollout.tensorParallel = v; });
    number(m_logProb, [](Scenario &s, int v) { s.rl.logProbMicroBatchSize = v; });
    connect(m_engine, &QComboBox::currentIndexChanged, this, [this] {
        requestRl(m_engine, [e = enumAt<ServingEngine>(m_engine)](Scenario &s) {
            s.rl.rollout.engine = e;
            s.rl.rollout.engineVersion = {};
        });
    });
    connect(m_placement, &QComboBox::currentIndexChanged, this, [this] {
        requestRl(m_placement, [p = enumAt<RolloutPlacement>(m_placement)](Scenario &s) {
            s.rl.rollout.placement = p;
            // A separate engine needs GPUs of its own (the reader requires rollout.gpus): as
            // many as its tensor parallelism, until the user says more.
            if (p == RolloutPlacement::Separate && s.rl.rollout.gpus == 0)
                s.rl.rollout.gpus = std::max<int64_t>(1, s.rl.rollout.tensorParallel);
        });
    });
    connect(m_utilization, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        requestRl(m_utilization, [v](Scenario &s) { s.rl.rollout.gpuMemoryUtilization = v; });
    });
    connect(m_sleep, &QComboBox::currentIndexChanged, this, [this] {
        requestRl(m_sleep, [l = m_sleep->currentData().toInt()](Scenario &s) {
            s.rl.rollout.sleepLevel = l;
        });
    });
}

void RlGroup::requestRl(QWidget *control, std::function<void(Scenario &)> edit)
{
    request(control, [edit = std::move(edit)](Scenario &s) {
        if (s.rl.present())
            edit(s);
    });
}

// Through the scenario parser, as the Training stack's release: the window accepts exactly what
// a file may say, and text it refuses reaches the field as checkScenario's refusal.
void RlGroup::requestVersion()
{
    const std::string text = m_version->text().trimmed().toStdString();
    requestRl(m_version, [text](Scenario &s) {
        s.rl.frameworkVersion =
            releaseOrRefused(text, toString(s.rl.framework), "rl.framework_version");
    });
}

void RlGroup::display(const Scenario &s)
{
    const RlConfig &rl = s.rl;
    {
        const QSignalBlocker blocker(m_enabled);
        m_enabled->setChecked(rl.present());
    }
    showEnum(m_algorithm, rl.algorithm);
    showEnum(m_framework, rl.framework);
    {
        const QSignalBlocker blocker(m_version);
        m_version->setText(rl.frameworkVersion.given && rl.frameworkVersion.major >= 0
                               ? QString::fromStdString(frameworkVersionText(rl.frameworkVersion))
                               : QString());
    }
    for (auto [box, on] : {std::pair{m_reference, rl.referenceModel},
                           std::pair{m_rewardModel, rl.hasRewardModel}, std::pair{m_critic, rl.critic},
                           std::pair{m_offloadParameters, rl.offload.policyParameters},
                           std::pair{m_offloadOptimizer, rl.offload.policyOptimizer},
                           std::pair{m_offloadReference, rl.offload.reference}}) {
        const QSignalBlocker blocker(box);
        box->setChecked(on);
    }
    showInt(m_groupSize, rl.groupSize);
    showInt(m_prompt, rl.promptTokens);
    showInt(m_response, rl.responseTokens);
    showEnum(m_engine, rl.rollout.engine);
    showEnum(m_placement, rl.rollout.placement);
    showInt(m_engineGpus, std::max<int64_t>(1, rl.rollout.gpus));
    showInt(m_engineTp, rl.rollout.tensorParallel);
    {
        const QSignalBlocker blocker(m_utilization);
        m_utilization->setValue(rl.rollout.gpuMemoryUtilization);
    }
    showData(m_sleep, int(std::clamp<int64_t>(rl.rollout.sleepLevel, frameworkDefault, 2)));
    showInt(m_logProb, rl.logProbMicroBatchSize);
}

void RlGroup::refreshAvailability(const Scenario &s)
{
    setVisible(s.training.mode == Mode::Train);
    const bool on = s.rl.present();
    const QString off = tr("Turn RL on first (Rollout engine: plan phase by phase)");
    const bool offline = s.rl.algorithm == RlAlgorithm::Dpo ||
                         s.rl.algorithm == RlAlgorithm::Orpo || s.rl.algorithm == RlAlgorithm::Kto;
    const QString noRollout = tr("%1 learns from pairs in the data set: nothing is generated")
                                  .arg(enumLabel(s.rl.algorithm));
    const bool engine = on && !offline;
    const bool server = engine && s.rl.rollout.engine != ServingEngine::Transformers;
    const bool colocated = server && s.rl.rollout.placement == RolloutPlacement::Colocated;
    const QString notColocated = !server ? tr("generate() in the training process has no engine "
                                              "budget or sleep mode")
                                         : tr("The engine has GPUs of its own");
    for (QWidget *w : std::initializer_list<QWidget *>{
             m_algorithm, m_framework, m_version, m_reference, m_rewardModel, m_critic, m_prompt,
             m_response, m_offloadOptimizer, m_offloadReference, m_logProb})
        setAvailable(w, on, off);
    for (QWidget *w : std::initializer_list<QWidget *>{m_groupSize, m_engine, m_placement,
                                                       m_engineTp, m_offloadParameters})
        setAvailable(w, engine, on ? noRollout : off);
    setAvailable(m_engineGpus,
                 engine && s.rl.rollout.placement == RolloutPlacement::Separate,
                 on ? tr("The engine shares the training GPUs (colocated)") : off);
    for (QWidget *w : std::initializer_list<QWidget *>{m_utilization, m_sleep})
        setAvailable(w, colocated, !on ? off : !engine ? noRollout : notColocated);
}

} // namespace vramplan::ui
