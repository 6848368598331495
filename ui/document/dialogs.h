#pragma once
// Every modal question the window asks goes through here: file dialogs, the unsaved-changes
// question, message boxes, the calibration dialog. Scripted (a test driving the window, or a
// platform without a screen), none of them opens: file dialogs return no file, the question is
// answered "discard", a yes/no question "no", message boxes and dialogs are skipped; what went
// wrong still reaches the status bar through the caller. A test may script the next answers and
// read what the window last asked.

#include <QMessageBox>
#include <QString>
#include <QStringList>

class QDialog;
class QMainWindow;
class QWidget;

namespace vramplan::ui {

class Dialogs
{
public:
    // On for tests that drive the window with random input; always on offscreen.
    static void setScripted(bool scripted);
    static bool scripted();

    // What a dialog asked: its caption, the file it proposed, its filters, its text.
    struct Asked
    {
        QString caption, suggested, filter, text;
    };
    // Scripted, the next file dialogs return these paths and the next yes/no questions these
    // answers, in order; none left, they answer as above.
    static void scriptFileName(const QString &path);
    static void scriptAnswer(bool yes);
    static Asked lastAsked();

    static QString openFileName(QWidget *parent, const QString &caption, const QString &folder,
                                const QString &filter);
    static QStringList openFileNames(QWidget *parent, const QString &caption, const QString &folder,
                                     const QString &filter);
    static QString existingDirectory(QWidget *parent, const QString &caption,
                                     const QString &folder);
    static QString saveFileName(QWidget *parent, const QString &caption, const QString &suggested,
                                const QString &filter);
    // Save, Discard or Cancel.
    static QMessageBox::StandardButton askToSave(QWidget *parent);
    // A yes/no question, "Yes" the default.
    static bool confirm(QWidget *parent, const QString &title, const QString &text);
    static void about(QWidget *parent, const QString &title, const QString &text);
    // A message to read and dismiss.
    static void inform(QWidget *parent, const QString &title, const QString &text);
    // Runs a dialog to its end; scripted: QDialog::Rejected without showing it.
    static int exec(QDialog *dialog);
    // A problem: in the window's status bar, and in a message box unless scripted.
    static void problem(QMainWindow *window, const QString &title, const QString &text);
};

} // namespace vramplan::ui
