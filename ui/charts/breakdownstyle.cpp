// The breakdown chart's colours, fonts and legend entries: from its widget's palette and font,
// again whenever either changes (a dark palette, a zoomed font), and the likely range's entry.

#include "charts/breakdownchart.h"
#include "charts/whiskerlegenditem.h"

#include "charts/chartstyle.h"
#include "charts/componentstyle.h"

#include <qcustomplot.h>

#include <QEvent>

namespace vramplan::ui {

void BreakdownChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFonts();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    } else if (event->type() == QEvent::PaletteChange) {
        applyColors();
    }
}

void BreakdownChart::applyColors()
{
    const ChartColors c = chartColors(palette());
    applyChartColors(m_plot, c);
    m_capacityLine->setPen(QPen(c.ink, 1.5, Qt::DashLine));
    m_capacityLabel->setColor(c.ink);
    m_totalLabel->setColor(c.text);
    m_bandPen = QPen(c.muted, 1.5);
    m_bandLine->setPen(m_bandPen);
    if (m_bandLegend)
        m_bandLegend->setPen(m_bandPen);
    const QColor gap = m_overflow || m_refused ? c.signal(overflowColor()) : c.ink;
    m_gapLine->setPen(QPen(gap, 1.5));
    m_gapLabel->setColor(gap);
    m_budgetLine->setPen(QPen(c.muted, 1.2, Qt::DotLine));
    m_budgetLabel->setColor(c.muted);
    m_balancedLine->setPen(QPen(c.signal(imbalanceColor()), 2, Qt::DashLine));
    m_balancedLabel->setColor(c.signal(imbalanceColor()));
    m_measuredHeading->setTextColor(c.muted);
    m_measuredNames->setTextColor(c.text);
    m_measuredValues->setTextColor(c.text);
    m_nowLine->setPen(QPen(c.ink, 1.5, Qt::DashLine));
    m_nowLabel->setColor(c.ink);
    m_nowLabel->setBrush(c.labelBrush(220)); // readable over the paler segments
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void BreakdownChart::applyFonts()
{
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    applyBaseFonts(m_plot, base);
    const int h = QFontMetrics(base).height();
    m_plot->legend->setIconSize(h, h);
    // QCustomPlot sizes an entry to the font's height and clips it there, which shaves off
    // antialiased descenders; a pixel above and below keeps "g" and "y" whole.
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = m_plot->legend->item(i)) // empty cells of a wrapped grid
            item->setMargins(QMargins(0, 1, 0, 1));
    }
    m_capacityLabel->setFont(base);
    m_balancedLabel->setFont(base);
    m_nowLabel->setFont(base);
    m_budgetLabel->setFont(base);
    m_totalLabel->setFont(bold);
    m_gapLabel->setFont(bold);
    for (QCPTextElement *text : {m_measuredHeading, m_measuredNames, m_measuredValues})
        text->setFont(base);
}

// The whisker left of the bar has its own entry, after the components (issue 21 #26): the
// legend is rebuilt when the components shown change, which deletes its items.
void BreakdownChart::addBandToLegend()
{
    m_bandLegend = new WhiskerLegendItem(m_plot->legend, likelyRangeName());
    m_bandLegend->setPen(m_bandPen);
    m_plot->legend->addItem(m_bandLegend);
}

QString BreakdownChart::likelyRangeName()
{
    return tr("likely range of the device total");
}

} // namespace vramplan::ui
