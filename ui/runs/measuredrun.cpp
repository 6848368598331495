#include "runs/measuredrun.h"

#include "runs/byte_source.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <fstream>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(MeasuredRun)
};

} // namespace

RunLoadResult loadMeasuredRun(const QStringList &paths, int device,
                              const RunLoadProgress &progress)
{
    RunLoadResult result;
    for (const QString &path : paths)
        result.bytesTotal += std::uint64_t(std::max<qint64>(QFileInfo(path).size(), 0));
    const auto carryOn = [&](std::uint64_t done) {
        result.bytesRead = done;
        return !progress || progress(done, result.bytesTotal);
    };
    MeasuredRun run;
    run.paths = paths;
    run.device = device;
    std::uint64_t before = 0; // bytes of the files already read
    for (const QString &path : paths) {
        const QFileInfo info(path);
        const QString name = info.fileName();
        if (!carryOn(before)) {
            result.cancelled = true;
            return result;
        }
        if (info.isDir()) {
            result.error = Words::tr("%1: is a folder, not a file of a run").arg(name);
            return result;
        }
        std::ifstream file(QFile::encodeName(path).toStdString(), std::ios::binary);
        if (!info.exists() || !file) {
            result.error = Words::tr("%1: cannot be opened").arg(name);
            return result;
        }
        ByteSource bytes(file);
        bytes.setProgress([&](std::uint64_t taken) { return carryOn(before + taken); },
                          runLoadProgressStep);
        auto source = readRunSource(name.toStdString(), bytes, device);
        if (bytes.stopped()) { // the reader saw the file end early: because it was told to stop
            result.cancelled = true;
            return result;
        }
        if (!source) {
            result.error = name + QStringLiteral(": ") + QString::fromStdString(source.error);
            return result;
        }
        run.sources.push_back(std::move(*source.value));
        before += std::uint64_t(std::max<qint64>(info.size(), 0));
    }
    if (!carryOn(result.bytesTotal)) {
        result.cancelled = true;
        return result;
    }
    result.run = std::move(run);
    return result;
}

} // namespace vramplan::ui
