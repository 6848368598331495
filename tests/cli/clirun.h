#pragma once
// Running vramplan-cli from a CLI suite: the exit status, whether it crashed, both streams, and
// a description of all of it for a failure message.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace vramplan::test {

struct CliRun
{
    int exitCode = -1;
    bool crashed = true;
    QByteArray out, err;
    QString describe() const
    {
        return QStringLiteral("exit %1\n--- stdout:\n%2\n--- stderr:\n%3")
            .arg(exitCode)
            .arg(QString::fromUtf8(out.left(2000)), QString::fromUtf8(err.left(2000)));
    }
};

// `input` goes to its stdin, which is then closed.
inline CliRun cli(const QStringList &arguments, const QByteArray &input = {})
{
    QProcess p;
    p.start(QStringLiteral(VRAMPLAN_CLI), arguments);
    CliRun r;
    if (!p.waitForStarted(30000))
        return r;
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(120000))
        return r;
    r.crashed = p.exitStatus() == QProcess::CrashExit;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace vramplan::test
