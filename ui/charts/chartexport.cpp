#include "charts/chartexport.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPalette>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::ChartExport)
};

constexpr int margin = 12;

struct Header
{
    QFont titleFont, summaryFont;
    QRect title, summary; // where the texts go, wrapped within the width
    int height = 0;
};

// The title over the summary, each wrapped to the width, measured for the device drawn on (a
// PDF at 72 dpi sets text smaller than a screen at 96).
Header layOutHeader(QPaintDevice *device, const QCustomPlot *plot, int width, const QString &title,
                    const QString &summary)
{
    Header header;
    header.titleFont = plot->font();
    header.titleFont.setBold(true);
    header.titleFont.setPointSizeF(header.titleFont.pointSizeF() * 1.25);
    header.summaryFont = plot->font();
    const int textWidth = width - 2 * margin;
    const int flags = Qt::AlignLeft | Qt::TextWordWrap;
    header.title = QFontMetrics(header.titleFont, device)
                       .boundingRect(QRect(margin, 6, textWidth, 10000), flags, title);
    header.summary = QFontMetrics(header.summaryFont, device)
                         .boundingRect(QRect(margin, header.title.bottom() + 4, textWidth, 10000),
                                       flags, summary);
    header.title.setWidth(textWidth);
    header.summary.setWidth(textWidth);
    header.height = header.summary.bottom() + 10;
    return header;
}

// The title, the summary under it, then the chart at its full size.
void paint(QPaintDevice *device, const Header &header, QCustomPlot *plot, QSize size,
           const QString &title, const QString &summary)
{
    QCPPainter painter(device);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(QRect(QPoint(0, 0), QSize(size.width(), size.height() + header.height)),
                     Qt::white);
    const int flags = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
    painter.setFont(header.titleFont);
    painter.setPen(Qt::black);
    painter.drawText(header.title, flags, title);
    painter.setFont(header.summaryFont);
    painter.setPen(QColor(0x42, 0x42, 0x42));
    painter.drawText(header.summary, flags, summary);
    painter.translate(0, header.height);
    plot->toPainter(&painter, size.width(), size.height());
}

// Exports are documents, read on white pages and slides beside other figures: a chart is drawn
// in the light theme whatever the window's palette. Its widget follows the palette
// (chartstyle.h), so it gets a light one for the time of the drawing, then its own back.
class LightTheme
{
public:
    explicit LightTheme(QCustomPlot *plot) : m_chart(plot->parentWidget())
    {
        if (m_chart && m_chart->palette().color(QPalette::Base) == QColor(Qt::white) &&
            m_chart->palette().color(QPalette::Text) == QColor(Qt::black))
            m_chart = nullptr; // already light
        if (!m_chart)
            return;
        m_own = m_chart->testAttribute(Qt::WA_SetPalette);
        m_saved = m_chart->palette();
        QPalette light = m_saved;
        light.setColor(QPalette::Base, Qt::white);
        light.setColor(QPalette::Text, Qt::black);
        m_chart->setPalette(light);
    }
    ~LightTheme()
    {
        if (m_chart)
            m_chart->setPalette(m_own ? m_saved : QPalette()); // an empty one: inherit again
    }
    LightTheme(const LightTheme &) = delete;
    LightTheme &operator=(const LightTheme &) = delete;

private:
    QWidget *m_chart;
    bool m_own = false;
    QPalette m_saved;
};

} // namespace

QString unknownExportFormat(const QString &path)
{
    return Words::tr("%1: unknown export format: png, svg or pdf for a chart; csv, json or md "
                     "for a table")
        .arg(QFileInfo(path).fileName());
}

QString exportPlot(QCustomPlot *plot, const QString &path, const QString &title,
                   const QString &summary, QSize size)
{
    const QString name = QFileInfo(path).fileName();
    const QString extension = QFileInfo(path).suffix().toLower();
    if (extension != QLatin1String("png") && extension != QLatin1String("svg") &&
        extension != QLatin1String("pdf"))
        return unknownExportFormat(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return name + QStringLiteral(": ") + file.errorString();
    const LightTheme light(plot);
    bool written = true;
    if (extension == QLatin1String("png")) {
        QImage metrics(1, 1, QImage::Format_ARGB32); // the image's own resolution
        const Header header = layOutHeader(&metrics, plot, size.width(), title, summary);
        const QSize whole(size.width(), size.height() + header.height);
        QImage image(whole * 2, QImage::Format_ARGB32); // twice the pixels: crisp in documents
        image.setDevicePixelRatio(2);
        image.fill(Qt::white);
        paint(&image, header, plot, size, title, summary);
        written = image.save(&file, "PNG");
    } else if (extension == QLatin1String("svg")) {
        QSvgGenerator svg;
        const Header header = layOutHeader(&svg, plot, size.width(), title, summary);
        const QSize whole(size.width(), size.height() + header.height);
        svg.setOutputDevice(&file);
        svg.setSize(whole);
        svg.setViewBox(QRect(QPoint(0, 0), whole));
        svg.setTitle(title);
        svg.setDescription(summary);
        paint(&svg, header, plot, size, title, summary);
    } else {
        QPdfWriter pdf(&file);
        pdf.setResolution(72); // one point per pixel: the page is the chart's size
        const Header header = layOutHeader(&pdf, plot, size.width(), title, summary);
        const QSize whole(size.width(), size.height() + header.height);
        pdf.setPageSize(QPageSize(QSizeF(whole), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(title);
        paint(&pdf, header, plot, size, title, summary);
    }
    if (!written) {
        file.cancelWriting();
        return Words::tr("%1: the image could not be encoded").arg(name);
    }
    if (!file.commit())
        return name + QStringLiteral(": ") + file.errorString();
    return {};
}

} // namespace vramplan::ui
