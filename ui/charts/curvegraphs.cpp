#include "charts/curvegraphs.h"

#include "charts/componentstyle.h"

#include <qcustomplot.h>

#include <QCoreApplication>

#include <cmath>

namespace vramplan::ui {
namespace {

// The expert-imbalance band is teal hatching (imbalanceColor), apart from this grey veil of the
// likely range.
const QColor bandColor(0x42, 0x42, 0x42);

} // namespace

QVector<QCPGraphData> cutAtCeiling(const std::vector<double> &x, const std::vector<double> &y,
                                   double ceiling, bool logX)
{
    QVector<QCPGraphData> out;
    const size_t n = std::min(x.size(), y.size());
    out.reserve(int(n) * 2);
    auto along = [logX](double a, double b, double t) {
        return logX ? std::exp2(std::log2(a) + t * (std::log2(b) - std::log2(a))) : a + t * (b - a);
    };
    for (size_t i = 0; i < n; ++i) {
        if (i > 0 && (y[i - 1] > ceiling) != (y[i] > ceiling)) {
            const double t = (ceiling - y[i - 1]) / (y[i] - y[i - 1]);
            out.append(QCPGraphData(along(x[i - 1], x[i], t), ceiling));
        }
        out.append(QCPGraphData(x[i], std::min(y[i], ceiling)));
    }
    return out;
}

CurveGraphs::CurveGraphs(QCustomPlot *plot) : m_plot(plot)
{
    set(0);
}

CurveGraphs::Set &CurveGraphs::set(size_t index)
{
    while (m_sets.size() <= index) {
        Set graphs{};
        for (int i = 0; i < componentCount; ++i) {
            const auto c = static_cast<Component>(i);
            auto *graph = m_plot->addGraph();
            graph->setName(componentName(c));
            QColor fill = componentColor(c);
            fill.setAlpha(220);
            graph->setBrush(fill);
            graph->setPen(QPen(componentColor(c).darker(125), 1));
            // Each area fills down to the one below it: the areas stack like the bars do.
            if (i > 0)
                graph->setChannelFillGraph(graphs[size_t(i - 1)]);
            graphs[size_t(i)] = graph;
        }
        // The likely range: dashed edges and a light veil between them, over the areas.
        for (size_t edge : {bandLow, bandHigh}) {
            graphs[edge] = m_plot->addGraph();
            graphs[edge]->setPen(QPen(bandColor, 1, Qt::DashLine));
        }
        graphs[bandHigh]->setName(
            QCoreApplication::translate("vramplan::ui::CurveGraphs", "Likely range"));
        graphs[bandHigh]->setBrush(
            QColor(bandColor.red(), bandColor.green(), bandColor.blue(), 40));
        graphs[bandHigh]->setChannelFillGraph(graphs[bandLow]);
        // The expert-imbalance band: from the balanced total (a solid teal edge) up to the
        // total, hatched.
        for (size_t edge : {balanced, imbalanced}) {
            graphs[edge] = m_plot->addGraph();
            graphs[edge]->setPen(QPen(imbalanceColor(), edge == balanced ? 1.5 : 1));
        }
        graphs[imbalanced]->setBrush(QBrush(imbalanceColor(), Qt::BDiagPattern));
        graphs[imbalanced]->setChannelFillGraph(graphs[balanced]);
        for (QCPGraph *graph : graphs) {
            graph->setSelectable(QCP::stNone);
            graph->removeFromLegend();
        }
        if (m_sets.empty()) {
            // Legend rows top-down in stacking order, level with each colour's place. No KV
            // cache: a server's curves are the serving charts (servingcurvechart.h), and these
            // sweeps of training and naive inference never have one.
            for (int i = componentCount - 1; i >= 0; --i)
                if (Component(i) != Component::KvCache)
                    graphs[size_t(i)]->addToLegend();
            graphs[bandHigh]->addToLegend();
        }
        m_sets.push_back(graphs);
    }
    return m_sets[index];
}

void CurveGraphs::set(const std::vector<Run> &runs, double ceiling, bool logX,
                      const QString &imbalanceName)
{
    bool drewImbalance = false;
    for (size_t r = 0; r < runs.size(); ++r) {
        const Run &run = runs[r];
        Set &graphs = set(r + 1);
        for (size_t g = 0; g < graphCount; ++g) {
            const bool drawn = !run.values[g].empty();
            graphs[g]->data()->set(drawn ? cutAtCeiling(run.x, run.values[g], ceiling, logX)
                                         : QVector<QCPGraphData>(),
                                   true);
            graphs[g]->setVisible(drawn);
            if (g < size_t(componentCount)) {
                // A run of one sample has no area: dots, so that it is not lost.
                graphs[g]->setScatterStyle(run.x.size() == 1
                                               ? QCPScatterStyle(QCPScatterStyle::ssDisc, 6)
                                               : QCPScatterStyle(QCPScatterStyle::ssNone));
            }
        }
        drewImbalance = drewImbalance || !run.values[imbalanced].empty();
    }
    for (size_t s = runs.size() + 1; s < m_sets.size(); ++s) {
        for (QCPGraph *graph : m_sets[s]) {
            graph->data()->clear();
            graph->setVisible(false);
        }
    }
    QCPGraph *entry = m_sets[0][imbalanced];
    entry->setName(imbalanceName);
    if (drewImbalance)
        entry->addToLegend(); // does nothing when the entry is there already
    else
        entry->removeFromLegend();
    applyFonts();
}

void CurveGraphs::applyFonts()
{
    // QCustomPlot sizes an entry to the font's height and clips it there, which shaves off
    // antialiased descenders; a pixel above and below keeps "g" and "y" whole.
    QCPLegend *legend = m_plot->legend;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = legend->item(i)) // empty cells of a wrapped grid
            item->setMargins(QMargins(0, 1, 0, 1));
    }
}

} // namespace vramplan::ui
