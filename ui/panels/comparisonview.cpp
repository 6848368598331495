#include "panels/comparisonview.h"

#include "charts/chartstyle.h"
#include "charts/componentstyle.h"
#include "charts/plotlayout.h"
#include "charts/sizeaxis.h"
#include "charts/ticklabels.h"

#include <QAction>
#include <QHBoxLayout>
#include <QImage>
#include <QHeaderView>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace vramplan::ui {

ComparisonView::ComparisonView(QWidget *parent)
    : QWidget(parent), m_list(new QListWidget), m_plot(new QCustomPlot), m_table(new QTableWidget),
      m_ticker(new QCPAxisTickerText)
{
    auto *buttons = new QHBoxLayout;
    // Short names: the page must fit a small window beside the controls.
    auto *up = new QPushButton(tr("Up"));
    auto *down = new QPushButton(tr("Down"));
    auto *remove = new QPushButton(tr("Remove"));
    up->setToolTip(tr("Move the selected scenario up"));
    down->setToolTip(tr("Move the selected scenario down"));
    remove->setToolTip(tr("Remove the selected scenario from the comparison"));
    for (QPushButton *b : {up, down, remove})
        buttons->addWidget(b);
    auto *side = new QWidget;
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_list, 1);
    sideLayout->addLayout(buttons);
    m_list->setToolTip(tr("Double-click a name to rename it; right-click for more (load an "
                          "entry back into the editor)"));
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);

    auto *top = new QSplitter;
    top->addWidget(side);
    top->addWidget(m_plot);
    top->setStretchFactor(1, 1);
    top->setSizes({220, 700});
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(top);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    m_plot->setAntialiasedElements(QCP::aeAll);
    m_plot->setMinimumSize(160, 160);
    applyChartColors(m_plot, chartColors(palette()));
    // The legend right of the plot, top-aligned: inside it, it would cover the first bar.
    auto *legendColumn = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 1, legendColumn);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    legendColumn->addElement(0, 0, m_plot->legend);
    legendColumn->addElement(1, 0, new QCPLayoutElement(m_plot));
    legendColumn->setRowStretchFactor(0, 0.001);
    m_plot->legend->setVisible(true);
    m_plot->legend->setBrush(Qt::NoBrush);
    m_plot->legend->setBorderPen(Qt::NoPen);
    for (int c = componentCount - 1; c >= 0; --c) {
        auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(componentName(Component(c)));
        bars->setBrush(componentColor(Component(c)));
        bars->setPen(QPen(Qt::white, 1));
        bars->setWidth(0.6);
        m_bars.insert(m_bars.begin(), bars);
    }
    for (int c = 1; c < componentCount; ++c)
        m_bars[size_t(c)]->moveAbove(m_bars[size_t(c - 1)]);
    m_plot->xAxis->setTicker(m_ticker);
    m_plot->xAxis->setTickLength(0, 0);
    m_plot->xAxis->grid()->setVisible(false);
    // Each column as wide as its heading (wrapped, comparisontable.cpp) and its cells: stretched
    // columns clipped long scenario names (issue 21 #13); a wide table scrolls instead.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    adaptToLayout(m_plot, [this] { return fitTickLabels(); });

    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        if (!m_updatingList)
            rename(m_list->row(item), item->text().trimmed().toStdString());
    });
    connect(m_list, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        const int row = m_list->row(m_list->itemAt(at));
        if (row < 0)
            return;
        // Shown, not run: no nested event loop (a script driving the window never blocks).
        auto *menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addActions(entryActions(row, menu));
        menu->popup(m_list->viewport()->mapToGlobal(at));
    });
    connect(up, &QPushButton::clicked, this, [this] {
        const int row = m_list->currentRow();
        if (row > 0)
            move(row, row - 1);
    });
    connect(down, &QPushButton::clicked, this, [this] {
        const int row = m_list->currentRow();
        if (row >= 0 && row + 1 < count())
            move(row, row + 1);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_list->currentRow() >= 0)
            removeAt(m_list->currentRow());
    });
    rebuild();
}

QList<QAction *> ComparisonView::entryActions(int index, QObject *owner)
{
    auto *load = new QAction(tr("&Load into Editor"), owner);
    load->setToolTip(tr("Make this scenario the one being planned (one undoable step)"));
    connect(load, &QAction::triggered, this, [this, index] { emit loadRequested(index); });
    auto *renameAction = new QAction(tr("&Rename"), owner);
    connect(renameAction, &QAction::triggered, this, [this, index] {
        if (QListWidgetItem *item = m_list->item(index))
            m_list->editItem(item);
    });
    auto *up = new QAction(tr("Move &Up"), owner);
    up->setEnabled(index > 0);
    connect(up, &QAction::triggered, this, [this, index] { move(index, index - 1); });
    auto *down = new QAction(tr("Move &Down"), owner);
    down->setEnabled(index + 1 < count());
    connect(down, &QAction::triggered, this, [this, index] { move(index, index + 1); });
    auto *removeAction = new QAction(tr("Re&move"), owner);
    connect(removeAction, &QAction::triggered, this, [this, index] { removeAt(index); });
    return {load, renameAction, up, down, removeAction};
}

void ComparisonView::setComparison(const Comparison &comparison)
{
    m_comparison = comparison;
    rebuild();
}

void ComparisonView::addScenario(const std::string &label, const Scenario &scenario)
{
    if (m_comparison.entries.size() >= maxComparedScenarios)
        return;
    m_comparison.entries.push_back({label, scenario});
    rebuild();
    emit changed();
}

void ComparisonView::removeAt(int index)
{
    if (index < 0 || index >= count())
        return;
    m_comparison.entries.erase(m_comparison.entries.begin() + index);
    rebuild();
    emit changed();
}

void ComparisonView::move(int from, int to)
{
    if (from < 0 || to < 0 || from >= count() || to >= count() || from == to)
        return;
    ComparisonEntry entry = std::move(m_comparison.entries[size_t(from)]);
    m_comparison.entries.erase(m_comparison.entries.begin() + from);
    m_comparison.entries.insert(m_comparison.entries.begin() + to, std::move(entry));
    rebuild();
    m_list->setCurrentRow(to);
    emit changed();
}

void ComparisonView::rename(int index, const std::string &label)
{
    if (index < 0 || index >= count() || label.empty() ||
        m_comparison.entries[size_t(index)].label == label)
        return;
    m_comparison.entries[size_t(index)].label = label;
    // The list already shows the new name, and its editor may still be closing: the list's items
    // stay (rebuilding them under the editor makes QAbstractItemView warn).
    refreshList();
    refreshChart();
    fillTable();
    emit changed();
}

void ComparisonView::setFieldLabels(std::function<QString(const QString &)> labels)
{
    m_fieldLabels = std::move(labels);
    fillTable();
}

void ComparisonView::setUnit(Unit unit)
{
    m_unit = unit;
    rebuild();
}

double ComparisonView::barValue(int index, Component c) const
{
    if (index < 0 || index >= int(m_estimates.size()))
        return 0;
    return toUnit(m_estimates[size_t(index)].perGpu[size_t(c)], m_unit);
}

double ComparisonView::totalAt(int index) const
{
    if (index < 0 || index >= int(m_estimates.size()))
        return 0;
    return toUnit(m_estimates[size_t(index)].peak.device, m_unit);
}

void ComparisonView::rebuild()
{
    m_estimates.clear();
    for (const auto &e : m_comparison.entries)
        m_estimates.push_back(vramplan::estimate(e.scenario));
    refreshList();
    refreshChart();
    fillTable();
}

void ComparisonView::refreshList()
{
    // Items are updated in place where there are as many as entries.
    m_updatingList = true;
    const int current = m_list->currentRow();
    if (m_list->count() != count()) {
        m_list->clear();
        for (int i = 0; i < count(); ++i) {
            auto *item = new QListWidgetItem(m_list);
            item->setFlags(item->flags() | Qt::ItemIsEditable);
        }
    }
    for (int i = 0; i < count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        const QString label = QString::fromStdString(m_comparison.entries[size_t(i)].label);
        if (item->text() != label)
            item->setText(label);
    }
    m_list->setCurrentRow(std::min(current, count() - 1));
    m_updatingList = false;
}

void ComparisonView::refreshChart()
{
    // One stacked bar per scenario at keys 1..n; a short capacity line over each.
    double top = 1;
    for (int c = 0; c < componentCount; ++c) {
        QVector<double> keys, values;
        for (int i = 0; i < count(); ++i) {
            keys << i + 1;
            const double v = toUnit(m_estimates[size_t(i)].perGpu[size_t(c)], m_unit);
            values << (std::isfinite(v) ? v : 0);
        }
        m_bars[size_t(c)]->setData(keys, values, true);
    }
    m_plot->clearItems();
    for (int i = 0; i < count(); ++i) {
        const Estimate &e = m_estimates[size_t(i)];
        const double total = toUnit(e.peak.device, m_unit);
        const double capacity = toUnit(e.capacityBytes, m_unit);
        top = std::max({top, std::isfinite(total) ? total : 0.0, capacity});
        auto *line = new QCPItemLine(m_plot);
        line->start->setCoords(i + 1 - 0.4, capacity);
        line->end->setCoords(i + 1 + 0.4, capacity);
        const ChartColors colors = chartColors(palette());
        line->setPen(QPen(colors.ink, 1.5, Qt::DashLine));
        auto *label = new QCPItemText(m_plot);
        label->position->setCoords(i + 1, std::isfinite(total) ? total : 0.0);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(formatSize(e.peak.device, m_unit, 1));
        label->setColor(e.fits ? colors.ink : colors.signal(overflowColor()));
        QFont bold = m_plot->font();
        bold.setBold(true);
        label->setFont(bold);
    }
    m_tickSlot = -1; // the names may have changed
    m_plot->xAxis->setRange(0.4, std::max(1, count()) + 0.6);
    setSizeAxis(m_plot->yAxis, top * 1.15, m_unit,
                tr("Memory per GPU; dashes: each GPU's capacity"));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// Charts follow the window's palette, a dark one too (issue 21 #25), as the plan's charts do.
void ComparisonView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyChartColors(m_plot, chartColors(palette()));
        refreshChart();
    }
}

bool ComparisonView::fitTickLabels()
{
    // Each scenario's name under its bar, within the bar's slot of this drawing's axis.
    QStringList names;
    for (const auto &e : m_comparison.entries)
        names << QString::fromStdString(e.label);
    const int slot = m_plot->axisRect()->width() / std::max(count(), 1);
    if (slot == m_tickSlot && names == m_tickNames)
        return false;
    m_tickSlot = slot;
    m_tickNames = names;
    // Measured as the widest drawing sets them: the screen's, or an image's (a PNG export),
    // whose resolution may be the higher one (the offscreen platform's screen is 72 dpi, an
    // image 96), so that an export's names do not run into each other (issue 21 #13). A
    // character's width is left between neighbours.
    const QFont font = m_plot->xAxis->tickLabelFont();
    const QImage image(1, 1, QImage::Format_ARGB32);
    const QFontMetrics screen(font), drawn(font, &image);
    const QFontMetrics &metrics =
        drawn.averageCharWidth() > screen.averageCharWidth() ? drawn : screen;
    m_ticker->clear();
    for (int i = 0; i < count(); ++i)
        m_ticker->addTick(i + 1, fittedLabel(names[i], metrics,
                                             std::max(slot - 2 * metrics.averageCharWidth(), 1),
                                             3));
    return true;
}

// fillTable(): comparisontable.cpp.

} // namespace vramplan::ui
