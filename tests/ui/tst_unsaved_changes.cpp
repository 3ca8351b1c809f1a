// File state, offscreen: the document owns its file and its modified state (the undo stack's
// clean state), the title shows both, and New, Open, a dropped session and closing the window
// ask "Save changes?" before unsaved edits would be lost (Tiled's confirmSave). A last session
// restored from QSettings is not presented as the file it was once saved to.
#include "core/base/file_io.h"
#include "core/io/scenario_json.h"
#include "core/presets/default_scenario.h"
#include "core/search/recommender.h"
#include "tests/ui/offscreen.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"

#include <QAbstractSpinBox>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

using SaveChoice = MainWindow::SaveChoice;

// An edit anyone can see in the file: the sequence length.
Scenario edited(const Scenario& s, std::int64_t seq = 2048) {
    Scenario next = s;
    next.training.seq_len = seq;
    return next;
}

std::string fileText(const QString& path) { return read_text_file(path.toStdString()); }

// Drops `path` on the window as a file manager would.
void dropFile(MainWindow& w, const QString& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QPoint at = w.rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    QVERIFY(drop.isAccepted());
    QCoreApplication::processEvents();  // the drop opens the file on the next turn of the event loop
}

}  // namespace

class TestUnsavedChanges : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() {
        QVERIFY(settings_dir_.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("zeroplanner-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_unsaved_changes"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir_.path());
    }

    // The document alone, without a window: what core-level callers and the window rely on.
    void document_tracks_its_file_and_modified_state() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plan.zplan"));
        PlannerDocument doc;
        QSignalSpy modified(&doc, &PlannerDocument::modifiedChanged);
        QSignalSpy renamed(&doc, &PlannerDocument::filePathChanged);
        QVERIFY(doc.filePath().isEmpty());
        QVERIFY(!doc.isModified());

        doc.edit(edited(doc.scenario()), QStringLiteral("seq"));
        QVERIFY(doc.isModified());
        QCOMPARE(modified.count(), 1);
        QCOMPARE(modified.last().at(0).toBool(), true);

        QString error;
        QVERIFY2(doc.save(path, &error), qPrintable(error));
        QCOMPARE(doc.filePath(), path);
        QVERIFY(!doc.isModified());
        QCOMPARE(renamed.count(), 1);
        QCOMPARE(renamed.last().at(0).toString(), path);
        QCOMPARE(modified.last().at(0).toBool(), false);
        QCOMPARE(QString::fromStdString(fileText(path)), QString::fromStdString(session_text(doc.scenario())));

        // Undoing past the save is a modification; redoing back to it is not.
        doc.undoStack()->undo();
        QVERIFY(doc.isModified());
        doc.undoStack()->redo();
        QVERIFY(!doc.isModified());

        PlannerDocument other;
        QVERIFY2(other.open(path, &error), qPrintable(error));
        QCOMPARE(other.filePath(), path);
        QVERIFY(!other.isModified());
        QVERIFY(other.scenario() == doc.scenario());

        // A file that cannot be read leaves the document as it was.
        QVERIFY(!other.open(dir.filePath(QStringLiteral("missing.zplan")), &error));
        QVERIFY(error.contains(QStringLiteral("missing.zplan")));
        QCOMPARE(other.filePath(), path);

        other.newDocument();
        QVERIFY(other.filePath().isEmpty());
        QVERIFY(!other.isModified());
        QVERIFY(other.scenario() == default_plan_scenario());
    }

    void title_shows_the_file_and_the_modified_marker() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plan.zplan"));
        MainWindow w(MainWindow::Ephemeral);
        QVERIFY(w.windowTitle().contains(QStringLiteral("[*]")));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("Untitled")));
        QVERIFY(w.windowFilePath().isEmpty());
        QVERIFY(!w.isWindowModified());

        w.document()->edit(edited(w.document()->scenario()), QStringLiteral("seq"));
        QVERIFY(w.isWindowModified());

        QString error;
        QVERIFY2(w.document()->save(path, &error), qPrintable(error));
        QVERIFY(!w.isWindowModified());
        QCOMPARE(w.windowFilePath(), path);
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("plan.zplan[*]")));

        w.document()->edit(edited(w.document()->scenario(), 1024), QStringLiteral("seq"));
        QVERIFY(w.isWindowModified());
        w.document()->undoStack()->undo();  // back to what was saved
        QVERIFY(!w.isWindowModified());
    }

    // New, Open (the command line and File > Open after its dialog), a dropped session and
    // closing the window, each with unsaved edits, against each answer to "Save changes?".
    void unsaved_edits_ask_first_data() {
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("choice");
        for (const char* action : {"new", "open", "drop", "close"}) {
            QTest::addRow("%s, Save writes the file and goes on", action) << QString::fromLatin1(action) << int(SaveChoice::Save);
            QTest::addRow("%s, Discard goes on without writing", action) << QString::fromLatin1(action) << int(SaveChoice::Discard);
            QTest::addRow("%s, Cancel keeps the edits", action) << QString::fromLatin1(action) << int(SaveChoice::Cancel);
        }
    }
    void unsaved_edits_ask_first() {
        QFETCH(QString, action);
        QFETCH(int, choice);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plan.zplan"));
        const QString otherPath = dir.filePath(QStringLiteral("other.zplan"));
        const Scenario other = edited(default_scenario(), 8192);
        write_file_atomically(otherPath.toStdString(), session_text(other));

        MainWindow w(MainWindow::Ephemeral);
        w.show();
        QString error;
        QVERIFY2(w.document()->save(path, &error), qPrintable(error));
        const std::string onDisk = fileText(path);
        const Scenario edit = edited(w.document()->scenario());
        w.document()->edit(edit, QStringLiteral("seq"));
        QVERIFY(w.isWindowModified());
        int asked = 0;
        w.setSaveChangesPrompt([&asked, choice] {
            ++asked;
            return static_cast<SaveChoice>(choice);
        });

        bool closed = false;
        if (action == QLatin1String("new")) w.findChild<QAction*>(QStringLiteral("actionNew"))->trigger();
        else if (action == QLatin1String("open")) w.openFile(otherPath);
        else if (action == QLatin1String("drop")) dropFile(w, otherPath);
        else closed = w.close();

        QCOMPARE(asked, 1);
        const auto answer = static_cast<SaveChoice>(choice);
        // Save wrote the edit into the file; Discard and Cancel left the file alone.
        QCOMPARE(QString::fromStdString(fileText(path)), QString::fromStdString(answer == SaveChoice::Save ? session_text(edit) : onDisk));
        if (answer == SaveChoice::Cancel) {
            QVERIFY(w.document()->scenario() == edit);
            QVERIFY(w.document()->isModified());
            QVERIFY(w.isWindowModified());
            QCOMPARE(w.document()->filePath(), path);
            QVERIFY(!closed);
            QVERIFY(w.isVisible());
            return;
        }
        // Went on.
        if (action == QLatin1String("new")) {
            QVERIFY(w.document()->scenario() == default_plan_scenario());
            QVERIFY(w.document()->filePath().isEmpty());
        } else if (action == QLatin1String("close")) {
            QVERIFY(closed);
            QVERIFY(!w.isVisible());
        } else {
            QVERIFY(w.document()->scenario() == other);
            QCOMPARE(w.document()->filePath(), otherPath);
        }
        if (action != QLatin1String("close")) QVERIFY(!w.isWindowModified());
    }

    // Nothing unsaved, nothing asked.
    void saved_edits_do_not_ask_data() {
        QTest::addColumn<QString>("action");
        for (const char* action : {"new", "open", "close"}) QTest::newRow(action) << QString::fromLatin1(action);
    }
    void saved_edits_do_not_ask() {
        QFETCH(QString, action);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plan.zplan"));
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        int asked = 0;
        w.setSaveChangesPrompt([&asked] {
            ++asked;
            return SaveChoice::Cancel;
        });
        w.document()->edit(edited(w.document()->scenario()), QStringLiteral("seq"));
        QString error;
        QVERIFY2(w.document()->save(path, &error), qPrintable(error));
        if (action == QLatin1String("new")) w.findChild<QAction*>(QStringLiteral("actionNew"))->trigger();
        else if (action == QLatin1String("open")) QVERIFY(w.openFile(path));
        else QVERIFY(w.close());
        QCOMPARE(asked, 0);
    }

    // The prompt itself, answered the way a user would: Save, Discard and Cancel, Cancel on Escape.
    void the_prompt_is_a_save_discard_cancel_question() {
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        w.document()->edit(edited(w.document()->scenario()), QStringLiteral("seq"));
        QString text;
        QList<QMessageBox::StandardButton> buttons;
        QTimer poll;
        poll.setInterval(10);
        connect(&poll, &QTimer::timeout, this, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return;
            poll.stop();
            text = box->text();
            for (QAbstractButton* b : box->buttons()) buttons << box->standardButton(b);
            box->button(QMessageBox::Cancel)->click();
        });
        poll.start();
        QVERIFY(!w.confirmSave());
        QCOMPARE(text, QStringLiteral("Save changes to Untitled?"));
        QVERIFY(buttons.contains(QMessageBox::Save));
        QVERIFY(buttons.contains(QMessageBox::Discard));
        QVERIFY(buttons.contains(QMessageBox::Cancel));
        QVERIFY(w.document()->isModified());
    }

    // The last session comes back from QSettings as an untitled, unmodified document, not under
    // the name of the file it was saved to (which may differ from it by now).
    void restored_session_is_not_shown_as_the_saved_file() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plan.zplan"));
        QSettings().clear();
        Scenario last;
        {
            MainWindow first(MainWindow::Persistent);
            first.show();
            QString error;
            QVERIFY2(first.document()->save(path, &error), qPrintable(error));
            last = edited(first.document()->scenario());
            first.document()->edit(last, QStringLiteral("seq"));
            first.setSaveChangesPrompt([] { return SaveChoice::Discard; });
            QVERIFY(first.close());
        }
        MainWindow second(MainWindow::Persistent);
        QVERIFY(second.document()->scenario() == last);
        QVERIFY(second.document()->filePath().isEmpty());
        QVERIFY(!second.document()->isModified());
        QVERIFY(second.windowFilePath().isEmpty());
        QVERIFY(second.windowTitle().startsWith(QStringLiteral("Untitled[*]")));
        QVERIFY(!second.isWindowModified());
        QSettings().clear();
    }

    // The window goes with unsaved edits, a queued recompute and a spin box that has focus and
    // half-typed text: nothing reaches a destroyed document or a half-destroyed window (the
    // ASan preset runs this).
    void window_goes_with_edits_in_flight() {
        auto* w = new MainWindow(MainWindow::Ephemeral);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        // A spin box that commits on focus out (no keyboard tracking), with typed text.
        QAbstractSpinBox* spin = nullptr;
        for (QAbstractSpinBox* s : w->findChildren<QAbstractSpinBox*>())
            if (!s->keyboardTracking() && s->isVisible()) spin = s;
        QVERIFY(spin);
        spin->activateWindow();
        spin->setFocus();
        QVERIFY(QTest::qWaitForWindowActive(w));
        QTRY_VERIFY(spin->hasFocus());
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("3"));
        w->document()->edit(edited(w->document()->scenario()), QStringLiteral("seq"));  // recompute queued
        QVERIFY(w->document()->isModified());
        QSignalSpy gone(w->document(), &QObject::destroyed);
        delete w;
        QCOMPARE(gone.count(), 1);
        QCoreApplication::processEvents();
    }

private:
    QTemporaryDir settings_dir_;
};

ZP_TEST_MAIN(TestUnsavedChanges)
#include "tst_unsaved_changes.moc"
