#include "document/servingnames.h"

#include "document/scenarioname.h"

#include "catalog.h"
#include "charts/curvesamples.h"
#include "panels/fitwording.h"
#include "formats/enum_names.h"
#include "model/model_weights.h"
#include "serving/serving.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

namespace vramplan::ui {
namespace {

class ServingNames
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::ServingNames)

public:
    static QString engine(ServingEngine e)
    {
        switch (e) {
        case ServingEngine::Vllm:
            return QStringLiteral("vLLM");
        case ServingEngine::Sglang:
            return QStringLiteral("SGLang");
        case ServingEngine::Transformers:
            return QStringLiteral("transformers");
        }
        return {};
    }

    // The preset's name as a model id is written (scenarioname.h presetModelId).
    static QString model(const ModelConfig &model)
    {
        if (const QString id = presetModelId(model); !id.isEmpty())
            return id;
        return tr("%1 custom model").arg(formatCount(double(countParameters(model).total)));
    }

    static QString label(const Scenario &s)
    {
        const ResolvedServing r = resolveServing(s);
        QStringList parts{model(s.model), engine(s.serving.engine)};
        parts << (s.serving.quantization == WeightQuantization::None
                      ? tr("%1 weights").arg(QString::fromStdString(
                            std::string(toString(s.training.precision))))
                      : tr("%1 weights").arg(QString::fromStdString(
                            std::string(toString(s.serving.quantization)))));
        parts << (s.serving.kvCacheDtype == KvCacheDtype::Fp8 ? tr("fp8 KV cache")
                                                               : tr("16-bit KV cache"));
        parts << tr("max_model_len %1").arg(formatX(double(r.maxModelLen), true));
        if (s.serving.engine != ServingEngine::Transformers)
            parts << tr("max_num_seqs %1").arg(groupedNumber(r.maxNumSeqs));
        if (s.parallelism.tensorParallel > 1)
            parts << tr("TP %1").arg(s.parallelism.tensorParallel);
        if (s.parallelism.pipelineParallel > 1)
            parts << tr("PP %1").arg(s.parallelism.pipelineParallel);
        parts << tr("%1 x %2").arg(s.parallelism.gpus).arg(QString::fromStdString(s.gpu.name));
        return parts.join(QStringLiteral(", "));
    }

    static QString summary(const Estimate &e, const Scenario &s, Unit unit)
    {
        const ServingPlan &p = e.serving;
        if (!p.present)
            return label(s);
        if (p.status != ServingStatus::Ok)
            return tr("%1: the engine would not start").arg(label(s));
        return tr("%1: KV cache %2, %3 tokens, %4 requests of %5 at once")
            .arg(label(s), formatSize(p.kvCacheBytes, unit), groupedNumber(p.kvCacheTokens),
                 QString::number(p.maxConcurrency, 'f', 2),
                 formatX(double(p.settings.maxModelLen), true));
    }
};

} // namespace

QString servingLabel(const Scenario &scenario)
{
    return ServingNames::label(scenario);
}

QString servingSummary(const Estimate &estimate, const Scenario &scenario, Unit unit)
{
    return ServingNames::summary(estimate, scenario, unit);
}

} // namespace vramplan::ui
