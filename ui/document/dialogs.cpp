#include "document/dialogs.h"

#include <QApplication>
#include <QDialog>
#include <QFileDialog>
#include <QMainWindow>
#include <QStatusBar>

#include <functional>

namespace vramplan::ui {
namespace {

bool scriptedMode = false;
QStringList scriptedFileNames;
QList<bool> scriptedAnswers;
Dialogs::Asked asked;

// Scripted, the next scripted path (none left: no file); else what the user chose.
QString fileAnswer(const std::function<QString()> &ask)
{
    if (!Dialogs::scripted())
        return ask();
    return scriptedFileNames.isEmpty() ? QString() : scriptedFileNames.takeFirst();
}

} // namespace

void Dialogs::setScripted(bool scripted)
{
    scriptedMode = scripted;
}

bool Dialogs::scripted()
{
    // Offscreen there is nobody to answer a modal dialog: it would block forever.
    return scriptedMode || QApplication::platformName() == QLatin1String("offscreen");
}

void Dialogs::scriptFileName(const QString &path)
{
    scriptedFileNames << path;
}

void Dialogs::scriptAnswer(bool yes)
{
    scriptedAnswers << yes;
}

Dialogs::Asked Dialogs::lastAsked()
{
    return asked;
}

QString Dialogs::openFileName(QWidget *parent, const QString &caption, const QString &folder,
                              const QString &filter)
{
    asked = {caption, folder, filter, {}};
    return fileAnswer(
        [&] { return QFileDialog::getOpenFileName(parent, caption, folder, filter); });
}

QStringList Dialogs::openFileNames(QWidget *parent, const QString &caption, const QString &folder,
                                   const QString &filter)
{
    asked = {caption, folder, filter, {}};
    if (scripted()) {
        const QString path = fileAnswer({});
        return path.isEmpty() ? QStringList() : QStringList{path};
    }
    return QFileDialog::getOpenFileNames(parent, caption, folder, filter);
}

QString Dialogs::existingDirectory(QWidget *parent, const QString &caption, const QString &folder)
{
    asked = {caption, folder, {}, {}};
    return fileAnswer([&] { return QFileDialog::getExistingDirectory(parent, caption, folder); });
}

QString Dialogs::saveFileName(QWidget *parent, const QString &caption, const QString &suggested,
                              const QString &filter)
{
    asked = {caption, suggested, filter, {}};
    return fileAnswer(
        [&] { return QFileDialog::getSaveFileName(parent, caption, suggested, filter); });
}

QMessageBox::StandardButton Dialogs::askToSave(QWidget *parent)
{
    if (scripted())
        return QMessageBox::Discard;
    return QMessageBox::question(parent, QObject::tr("Unsaved changes"),
                                 QObject::tr("The scenario has unsaved changes. Save them first?"),
                                 QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                 QMessageBox::Save);
}

bool Dialogs::confirm(QWidget *parent, const QString &title, const QString &text)
{
    asked = {title, {}, {}, text};
    if (scripted())
        return !scriptedAnswers.isEmpty() && scriptedAnswers.takeFirst();
    return QMessageBox::question(parent, title, text, QMessageBox::Yes | QMessageBox::No,
                                 QMessageBox::Yes) == QMessageBox::Yes;
}

void Dialogs::about(QWidget *parent, const QString &title, const QString &text)
{
    asked = {title, {}, {}, text};
    if (!scripted())
        QMessageBox::about(parent, title, text);
}

void Dialogs::inform(QWidget *parent, const QString &title, const QString &text)
{
    asked = {title, {}, {}, text};
    if (!scripted())
        QMessageBox::information(parent, title, text);
}

int Dialogs::exec(QDialog *dialog)
{
    if (scripted())
        return QDialog::Rejected;
    return dialog->exec();
}

void Dialogs::problem(QMainWindow *window, const QString &title, const QString &text)
{
    window->statusBar()->showMessage(text, 10000);
    if (!scripted())
        QMessageBox::critical(window, title, text);
}

} // namespace vramplan::ui
