#include "charts/componentstyle.h"

#include <QCoreApplication>

#include <array>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::ComponentStyle)
};

} // namespace

QColor componentColor(Component component)
{
    // A qualitative palette (ColorBrewer Set2/Dark2 family) that stays apart for colour-blind
    // readers and on white; framework overhead is grey: it is not the user's tensors.
    static const std::array<QColor, componentCount> colors = {
        QColor(0x1f, 0x77, 0xb4), // parameters: blue
        QColor(0xff, 0x7f, 0x0e), // gradients: orange
        QColor(0x2c, 0xa0, 0x2c), // optimizer states: green
        QColor(0x94, 0x67, 0xbd), // activations: purple
        QColor(0xe3, 0x77, 0xc2), // logits and loss: pink
        QColor(0x8c, 0x56, 0x4b), // temporary: brown
        QColor(0x9e, 0x9e, 0x9e), // framework: grey
        QColor(0xbc, 0xbd, 0x22), // KV cache (serving): olive; cyan would read as the
                                  // expert-imbalance band's teal
    };
    return colors[static_cast<size_t>(component)];
}

QString componentName(Component component)
{
    // The core's componentLabel() words, in the window's language.
    switch (component) {
    case Component::Parameters:
        return Words::tr("Parameters");
    case Component::Gradients:
        return Words::tr("Gradients");
    case Component::OptimizerStates:
        return Words::tr("Optimizer states");
    case Component::Activations:
        return Words::tr("Activations");
    case Component::LogitsAndLoss:
        return Words::tr("Logits and loss");
    case Component::Temporary:
        return Words::tr("Temporary");
    case Component::Framework:
        return Words::tr("Framework");
    case Component::KvCache:
        return Words::tr("KV cache");
    }
    return QString::fromUtf8(componentLabel(component).data(),
                             int(componentLabel(component).size()));
}

QColor capacityColor()
{
    return QColor(0x21, 0x21, 0x21);
}
QColor overflowColor()
{
    return QColor(0xd3, 0x2f, 0x2f);
}

QColor imbalanceColor()
{
    return QColor(0x00, 0x83, 0x8f);
}

} // namespace vramplan::ui
