#include "chartexport.h"

#include <QFileInfo>
#include <QImage>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace vramplan::ui {
namespace {

constexpr int headerHeight = 56;

// The title, the summary under it, then the chart at its full size.
void paint(QPaintDevice *device, QCustomPlot *plot, QSize size, const QString &title,
           const QString &summary)
{
    QCPPainter painter(device);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(QRect(QPoint(0, 0), QSize(size.width(), size.height() + headerHeight)),
                     Qt::white);
    QFont font = plot->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.25);
    painter.setFont(font);
    painter.setPen(Qt::black);
    painter.drawText(QRect(12, 6, size.width() - 24, 24), Qt::AlignLeft | Qt::AlignVCenter,
                     painter.fontMetrics().elidedText(title, Qt::ElideRight, size.width() - 24));
    font.setBold(false);
    font.setPointSizeF(plot->font().pointSizeF());
    painter.setFont(font);
    painter.setPen(QColor(0x42, 0x42, 0x42));
    painter.drawText(QRect(12, 30, size.width() - 24, 20), Qt::AlignLeft | Qt::AlignVCenter,
                     painter.fontMetrics().elidedText(summary, Qt::ElideRight, size.width() - 24));
    painter.translate(0, headerHeight);
    plot->toPainter(&painter, size.width(), size.height());
}

} // namespace

QString exportPlot(QCustomPlot *plot, const QString &path, const QString &title,
                   const QString &summary, QSize size)
{
    const QString name = QFileInfo(path).fileName();
    const QString extension = QFileInfo(path).suffix().toLower();
    if (extension != QLatin1String("png") && extension != QLatin1String("svg") &&
        extension != QLatin1String("pdf"))
        return name + QStringLiteral(": unknown chart format (png, svg or pdf)");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return name + QStringLiteral(": ") + file.errorString();
    const QSize whole(size.width(), size.height() + headerHeight);
    bool written = true;
    if (extension == QLatin1String("png")) {
        QImage image(whole * 2, QImage::Format_ARGB32); // twice the pixels: crisp in documents
        image.setDevicePixelRatio(2);
        image.fill(Qt::white);
        paint(&image, plot, size, title, summary);
        written = image.save(&file, "PNG");
    } else if (extension == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(whole);
        svg.setViewBox(QRect(QPoint(0, 0), whole));
        svg.setTitle(title);
        svg.setDescription(summary);
        paint(&svg, plot, size, title, summary);
    } else {
        QPdfWriter pdf(&file);
        pdf.setResolution(72); // one point per pixel: the page is the chart's size
        pdf.setPageSize(QPageSize(QSizeF(whole), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(title);
        paint(&pdf, plot, size, title, summary);
    }
    if (!written) {
        file.cancelWriting();
        return name + QStringLiteral(": the image could not be encoded");
    }
    if (!file.commit())
        return name + QStringLiteral(": ") + file.errorString();
    return {};
}

} // namespace vramplan::ui
