#include "runs/timelinebuckets.h"

#include <algorithm>

namespace vramplan::ui {

QList<QPointF> minMaxBuckets(const QList<QPointF> &points, int buckets)
{
    if (buckets < 1 || points.size() <= 2 * qsizetype(buckets))
        return points;
    const double from = points.front().x(), to = points.back().x();
    const double span = to > from ? to - from : 1.0;
    QList<QPointF> out;
    out.reserve(2 * buckets);
    qsizetype i = 0;
    while (i < points.size()) {
        const int bucket = std::min(int((points[i].x() - from) / span * buckets), buckets - 1);
        qsizetype low = i, high = i;
        for (++i; i < points.size() &&
                  std::min(int((points[i].x() - from) / span * buckets), buckets - 1) == bucket;
             ++i) {
            if (points[i].y() < points[low].y())
                low = i;
            if (points[i].y() > points[high].y())
                high = i;
        }
        out << points[std::min(low, high)];
        if (low != high)
            out << points[std::max(low, high)];
    }
    return out;
}

} // namespace vramplan::ui
