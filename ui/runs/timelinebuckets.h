#pragma once
// A long measured timeline made drawable: the x range cut into equal buckets (one per pixel of
// the plot), each keeping only its lowest and its highest point, in their order. Every spike a
// pixel column can show survives, and a million-entry trace draws as a few thousand points.

#include <QList>
#include <QPointF>

namespace vramplan::ui {

// `points` in x order; at most two points a bucket; fewer than 2 * buckets points come back
// unchanged.
QList<QPointF> minMaxBuckets(const QList<QPointF> &points, int buckets);

} // namespace vramplan::ui
