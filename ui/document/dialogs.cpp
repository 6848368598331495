#include "document/dialogs.h"

#include <QApplication>
#include <QDialog>
#include <QFileDialog>
#include <QMainWindow>
#include <QStatusBar>

namespace vramplan::ui {
namespace {

bool scriptedMode = false;

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

QString Dialogs::openFileName(QWidget *parent, const QString &caption, const QString &folder,
                              const QString &filter)
{
    if (scripted())
        return {};
    return QFileDialog::getOpenFileName(parent, caption, folder, filter);
}

QStringList Dialogs::openFileNames(QWidget *parent, const QString &caption, const QString &folder,
                                   const QString &filter)
{
    if (scripted())
        return {};
    return QFileDialog::getOpenFileNames(parent, caption, folder, filter);
}

QString Dialogs::existingDirectory(QWidget *parent, const QString &caption, const QString &folder)
{
    if (scripted())
        return {};
    return QFileDialog::getExistingDirectory(parent, caption, folder);
}

QString Dialogs::saveFileName(QWidget *parent, const QString &caption, const QString &suggested,
                              const QString &filter)
{
    if (scripted())
        return {};
    return QFileDialog::getSaveFileName(parent, caption, suggested, filter);
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

void Dialogs::about(QWidget *parent, const QString &title, const QString &text)
{
    if (!scripted())
        QMessageBox::about(parent, title, text);
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
