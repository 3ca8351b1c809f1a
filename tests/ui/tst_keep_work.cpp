// Never lose work (issue 17, item 4). A real window process is started offscreen in a sandbox of
// its own (HOME, XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_RUNTIME_DIR), made to edit, killed with
// SIGKILL and started again (app/window_start.h lists the hooks); a second start hands its file
// to the running window. In process: the autosave follows the document, File > Open Recent,
// and a session the window cannot read changes nothing and says why in one line.
#include "core/base/file_io.h"
#include "core/io/scenario_json.h"
#include "core/io/session_version.h"
#include "core/presets/default_scenario.h"
#include "core/search/recommender.h"
#include "ui/document/autosave.h"
#include "ui/document/planner_document.h"
#include "ui/document/recent_files.h"
#include "ui/main_window.h"

#include "tests/ui/offscreen.h"

#include <QAction>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QUndoStack>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

// Generous: a window process under a loaded machine; nothing here measures time.
constexpr int kProcessTimeoutMs = 60000;

Scenario edited(Scenario s) {
    s.training.seq_len *= 2;
    return s;
}

QString sessionText(const Scenario& s) { return QString::fromStdString(session_text(s)); }

// A window process's sandbox: its own home, data, settings and runtime (socket) directories.
class Sandbox {
public:
    Sandbox() {
        for (const char* sub : {"home", "data", "config", "run"}) QDir(dir_.path()).mkpath(QString::fromLatin1(sub));
        QFile::setPermissions(dir_.filePath(QStringLiteral("run")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QString path(const QString& name) const { return dir_.filePath(name); }
    QString autosave() const { return dir_.filePath(QStringLiteral("data/zeroplanner/zero-planner/autosave.zplan")); }

    // Started; the caller reads its ZP_PRINT_SESSION lines and kills it.
    std::unique_ptr<QProcess> start(const QStringList& args, const QStringList& hooks = {}) const {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"ZP_RESTORE_AUTOSAVE", "ZP_OPTIONS_AS_EDIT", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(name));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("ZP_FORCE_WINDOW"), QStringLiteral("1"));
        env.insert(QStringLiteral("ZP_PRINT_SESSION"), QStringLiteral("1"));
        env.insert(QStringLiteral("HOME"), path(QStringLiteral("home")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), path(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), path(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), path(QStringLiteral("run")));
        for (const QString& h : hooks) env.insert(h.section(QLatin1Char('='), 0, 0), h.section(QLatin1Char('='), 1));
        p->setProcessEnvironment(env);
        p->setWorkingDirectory(dir_.path());
        p->start(QStringLiteral(ZP_APP), args);
        return p;
    }

private:
    QTemporaryDir dir_;
};

// The next ZP_PRINT_SESSION line, or an empty object when the process ended or said nothing.
QJsonObject nextState(QProcess& p) {
    QDeadlineTimer deadline(kProcessTimeoutMs);
    while (!p.canReadLine() && !deadline.hasExpired() && p.state() != QProcess::NotRunning) p.waitForReadyRead(1000);
    if (!p.canReadLine()) {
        qWarning("no state line; stderr: %s", p.readAllStandardError().constData());
        return {};
    }
    return QJsonDocument::fromJson(p.readLine()).object();
}

Scenario sessionOf(const QJsonObject& state) {
    return parse_session(QJsonDocument(state.value(QStringLiteral("session")).toObject()).toJson().toStdString(), "printed session");
}

void kill(QProcess& p) {
    p.kill();  // SIGKILL: nothing runs on the way out
    p.waitForFinished(kProcessTimeoutMs);
}

// The text of the message box a call shows, answered with its default button.
QString messageShownBy(const std::function<void()>& call) {
    QString text;
    QTimer poll;
    poll.setInterval(10);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        poll.stop();
        text = box->text();
        box->accept();
    });
    poll.start();
    call();
    return text;
}

}  // namespace

class TestKeepWork : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("zeroplanner"));
        QCoreApplication::setApplicationName(QStringLiteral("zero-planner-tests"));
    }

    // The whole story: an edit is autosaved, the window is killed, the next start offers it back
    // (restore brings the edits back unsaved; later keeps them; discard deletes them).
    void killed_window_offers_its_edits_back() {
        Sandbox box;
        const Scenario before = default_plan_scenario();
        {
            auto a = box.start({QStringLiteral("--model"), QStringLiteral("llama-2-13b"), QStringLiteral("--gpus"), QStringLiteral("32")},
                               {QStringLiteral("ZP_OPTIONS_AS_EDIT=1")});
            const QJsonObject state = nextState(*a);
            QVERIFY(state.value(QStringLiteral("modified")).toBool());
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(box.autosave()).size() > 0, kProcessTimeoutMs);
            kill(*a);
            QCOMPARE(sessionText(sessionOf(state)), QString::fromStdString(read_text_file(box.autosave().toStdString())));
        }
        const Scenario autosaved = parse_session(read_text_file(box.autosave().toStdString()), "autosave");
        QCOMPARE(autosaved.cluster.world_size(), 32);
        QVERIFY(!(autosaved == before));
        {  // Nobody can answer offscreen: the window starts as before, and the file waits.
            auto d = box.start({});
            const QJsonObject state = nextState(*d);
            QCOMPARE(state.value(QStringLiteral("event")).toString(), QStringLiteral("start"));
            QVERIFY(!state.value(QStringLiteral("modified")).toBool());
            QVERIFY(sessionOf(state) == before);
            kill(*d);
            QVERIFY(QFile::exists(box.autosave()));
        }
        {
            auto b = box.start({}, {QStringLiteral("ZP_RESTORE_AUTOSAVE=restore")});
            const QJsonObject state = nextState(*b);
            QVERIFY(state.value(QStringLiteral("modified")).toBool());
            QCOMPARE(state.value(QStringLiteral("file")).toString(), QString());
            QCOMPARE(sessionText(sessionOf(state)), sessionText(autosaved));
            kill(*b);
            QVERIFY(QFile::exists(box.autosave()));  // still unsaved: kept until saved or quit
        }
        {
            auto c = box.start({}, {QStringLiteral("ZP_RESTORE_AUTOSAVE=discard")});
            const QJsonObject state = nextState(*c);
            QVERIFY(!state.value(QStringLiteral("modified")).toBool());
            QVERIFY(sessionOf(state) == before);
            QVERIFY(!QFile::exists(box.autosave()));
            kill(*c);
        }
    }

    // A .zplan opened from the file manager while the window is open goes to that window: the
    // second start exits 0 at once; a plain start only raises the window. Once the window is
    // killed, its socket is taken over by the next window.
    void second_start_hands_its_file_to_the_open_window() {
        Sandbox box;
        const QString plan = box.path(QStringLiteral("plan.zplan"));
        QVERIFY(QFile::copy(QStringLiteral(ZP_TEST_DATA_DIR "/sessions/v7-llama-13b-zeropp.zplan"), plan));
        auto a = box.start({});
        QCOMPARE(nextState(*a).value(QStringLiteral("event")).toString(), QStringLiteral("start"));

        auto b = box.start({QStringLiteral("plan.zplan")});  // relative to its own working directory
        QVERIFY(b->waitForFinished(kProcessTimeoutMs));
        QCOMPARE(b->exitStatus(), QProcess::NormalExit);
        QCOMPARE(b->exitCode(), 0);
        QCOMPARE(b->readAllStandardOutput(), QByteArray());
        const QJsonObject opened = nextState(*a);
        QCOMPARE(opened.value(QStringLiteral("event")).toString(), QStringLiteral("open"));
        QCOMPARE(opened.value(QStringLiteral("file")).toString(), QFileInfo(plan).absoluteFilePath());
        QVERIFY(!opened.value(QStringLiteral("modified")).toBool());
        QVERIFY(sessionOf(opened) == parse_session(read_text_file(plan.toStdString()), "plan"));

        auto c = box.start({});
        QVERIFY(c->waitForFinished(kProcessTimeoutMs));
        QCOMPARE(c->exitCode(), 0);
        QCOMPARE(nextState(*a).value(QStringLiteral("file")).toString(), QFileInfo(plan).absoluteFilePath());  // unchanged
        kill(*a);

        auto d = box.start({QStringLiteral("plan.zplan")});
        const QJsonObject own = nextState(*d);
        QCOMPARE(own.value(QStringLiteral("event")).toString(), QStringLiteral("start"));
        QCOMPARE(own.value(QStringLiteral("file")).toString(), QStringLiteral("plan.zplan"));
        kill(*d);
    }

    // Written a moment after an edit; gone after a save, after undoing back to the file, and on
    // a clean quit (discard), after which nothing more is written.
    void autosave_follows_the_document() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("autosave/autosave.zplan"));
        PlannerDocument doc;
        Autosave autosave(&doc, path, 10);
        doc.edit(edited(doc.scenario()), QStringLiteral("seq"));
        QTRY_VERIFY(QFile::exists(path));
        QCOMPARE(QString::fromStdString(read_text_file(path.toStdString())), sessionText(doc.scenario()));
        QString error;
        QCOMPARE(readAutosave(path, &error)->file, QString());

        const QString plan = dir.filePath(QStringLiteral("plan.zplan"));
        QVERIFY(doc.save(plan, &error));
        QVERIFY(!QFile::exists(path));
        doc.edit(edited(doc.scenario()), QStringLiteral("seq"));
        QVERIFY(autosave.writeNow(&error));
        QCOMPARE(readAutosave(path, &error)->file, plan);
        doc.undoStack()->undo();
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(path + QStringLiteral(".file")));

        doc.edit(edited(doc.scenario()), QStringLiteral("seq"));
        QVERIFY(autosave.writeNow(&error));
        autosave.discard();
        QVERIFY(!QFile::exists(path));
        doc.edit(edited(doc.scenario()), QStringLiteral("seq"));
        QVERIFY(autosave.writeNow(&error));
        QVERIFY(!QFile::exists(path));
    }

    // The pinned plans are part of the session: autosaved with it and restored with the edits, in
    // one undo step.
    void autosave_keeps_the_pinned_plans() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("autosave.zplan"));
        PlannerDocument doc;
        Autosave autosave(&doc, path, 10);
        QString refusal;
        QVERIFY(doc.pinPlan(&refusal));
        doc.edit(edited(doc.scenario()), QStringLiteral("seq"));
        QString error;
        QVERIFY(autosave.writeNow(&error));
        const std::optional<AutosavedSession> saved = readAutosave(path, &error);
        QVERIFY2(saved, qPrintable(error));
        QCOMPARE(saved->pins.size(), std::size_t(1));
        QVERIFY(saved->pins.front() == doc.pins().front().pin);

        PlannerDocument restored;
        restoreSession(&restored, *saved);
        QCOMPARE(restored.pins().size(), std::size_t(1));
        QVERIFY(restored.scenario() == doc.scenario());
        restored.undoStack()->undo();
        QVERIFY(restored.pins().empty());
        QVERIFY(!restored.isModified());
    }

    // A full disk or a read-only home: the edits stay in the window and the failure is said.
    void autosave_that_cannot_be_written_says_so() {
        QTemporaryDir dir;
        QFile blocker(dir.filePath(QStringLiteral("not-a-directory")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        PlannerDocument doc;
        Autosave autosave(&doc, dir.filePath(QStringLiteral("not-a-directory/autosave.zplan")), 10);
        QSignalSpy failed(&autosave, &Autosave::writeFailed);
        doc.edit(edited(doc.scenario()), QStringLiteral("seq"));
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.first().first().toString().startsWith(QStringLiteral("Cannot autosave: ")),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(doc.isModified());
    }

    // Edits made to a file come back on that file: modified, Save writes there, undo is the file.
    void restored_edits_return_to_their_file() {
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("plan.zplan"));
        const Scenario onDisk = default_scenario();
        write_file_atomically(plan.toStdString(), session_text(onDisk));
        PlannerDocument doc;
        restoreSession(&doc, {edited(onDisk), plan, {}});
        QCOMPARE(doc.filePath(), plan);
        QVERIFY(doc.isModified());
        QVERIFY(doc.scenario() == edited(onDisk));
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == onDisk);
        QVERIFY(!doc.isModified());

        QFile::remove(plan);  // gone since: the edits come back untitled
        PlannerDocument other;
        restoreSession(&other, {edited(onDisk), plan, {}});
        QCOMPARE(other.filePath(), QString());
        QVERIFY(other.isModified());
        QVERIFY(other.scenario() == edited(onDisk));
    }

    // An autosave this build cannot read is dropped, unless a newer zero-planner wrote it.
    void unreadable_autosave_is_not_offered() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("autosave.zplan"));
        PlannerDocument doc;
        write_file_atomically(path.toStdString(), "{ \"version\": ");
        QVERIFY(!offerRestore(&doc, nullptr, path));
        QVERIFY(!QFile::exists(path));
        std::string newer = read_text_file(ZP_TEST_DATA_DIR "/sessions/from-a-newer-version.zplan");
        const std::string key = "\"version\": ";
        const std::size_t at = newer.find(key) + key.size();
        newer.replace(at, newer.find(',', at) - at, std::to_string(kSessionVersion + 1));
        write_file_atomically(path.toStdString(), newer);
        QVERIFY(!offerRestore(&doc, nullptr, path));
        QVERIFY(QFile::exists(path));
        QVERIFY(!doc.isModified());
        QVERIFY(!offerRestore(&doc, nullptr, dir.filePath(QStringLiteral("none.zplan"))));
    }

    // Newest first, at most eight, no duplicates, shared through QSettings; a file gone is removed
    // with a message; Clear Menu empties it.
    void recent_files() {
        QTemporaryDir dir;
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
        QWidget parent;
        RecentFiles recent(true, &parent);
        recent.clear();
        QVERIFY(!recent.menu()->isEnabled());
        QStringList made;
        for (int i = 0; i < 10; ++i) {
            made << dir.filePath(QStringLiteral("plan%1.zplan").arg(i));
            write_file_atomically(made.last().toStdString(), session_text(default_scenario()));
            recent.add(made.last());
        }
        QCOMPARE(recent.files().size(), RecentFiles::kMaxFiles);
        QCOMPARE(recent.files().first(), made[9]);
        recent.add(made[5]);
        QCOMPARE(recent.files().first(), made[5]);
        QCOMPARE(recent.files().count(made[5]), 1);
        QCOMPARE(RecentFiles(true, &parent).files(), recent.files());  // the next window sees them

        emit recent.menu()->aboutToShow();
        const QList<QAction*> actions = recent.menu()->actions();
        QCOMPARE(actions.first()->text(), QStringLiteral("&1 plan5.zplan"));
        QCOMPARE(actions.size(), RecentFiles::kMaxFiles + 2);  // entries, separator, Clear Menu

        QSignalSpy opened(&recent, &RecentFiles::openRequested);
        actions.first()->trigger();
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.first().first().toString(), made[5]);

        QFile::remove(made[9]);
        const QString message = messageShownBy([&] { recent.choose(made[9]); });
        QVERIFY2(message.contains(QStringLiteral("plan9.zplan no longer exists")), qPrintable(message));
        QVERIFY(!recent.files().contains(made[9]));
        QCOMPARE(opened.size(), 1);

        for (QAction* a : recent.menu()->actions())
            if (a->objectName() == QLatin1String("actionClearRecent")) a->trigger();
        QVERIFY(recent.files().isEmpty());
        QVERIFY(!recent.menu()->isEnabled());
    }

    // The window lists what it opened and saved, and opens what is chosen.
    void window_fills_open_recent() {
        QTemporaryDir dir;
        MainWindow w(MainWindow::Ephemeral);
        const QString a = dir.filePath(QStringLiteral("a.zplan")), b = dir.filePath(QStringLiteral("b.zplan"));
        QString error;
        QVERIFY(w.document()->save(a, &error));
        write_file_atomically(b.toStdString(), session_text(edited(default_scenario())));
        QVERIFY(w.openFile(b));
        QCOMPARE(w.recentFiles()->files(), (QStringList{b, a}));
        w.recentFiles()->menu()->actions().at(1)->trigger();
        QCOMPARE(w.document()->filePath(), a);
    }

    // A session the window cannot read: one message whose first line is the reason, and the
    // session shown, its file and its unsaved edits stay as they were.
    void unreadable_session_changes_nothing_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");  // in the first line
        std::string newer = read_text_file(ZP_TEST_DATA_DIR "/sessions/from-a-newer-version.zplan");
        const std::string key = "\"version\": ";
        const std::size_t at = newer.find(key) + key.size();
        newer.replace(at, newer.find(',', at) - at, std::to_string(kSessionVersion + 1));
        QTest::newRow("newer version")
            << QByteArray::fromStdString(newer)
            << QStringLiteral("bad.zplan: session format version %1 is newer than this zero-planner reads").arg(kSessionVersion + 1);
        QTest::newRow("truncated") << QByteArray::fromStdString(newer.substr(0, newer.size() / 2))
                                   << QStringLiteral("bad.zplan: invalid JSON at line ");
        QTest::newRow("not JSON") << QByteArray("PK\x03\x04 a zip file") << QStringLiteral("bad.zplan: invalid JSON at line 1, column 1");
        QTest::newRow("a JSON list") << QByteArray("[1, 2, 3]") << QStringLiteral("bad.zplan: a session must be a JSON object");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("bad.zplan: invalid JSON at line 1, column 1");
        QTest::newRow("missing") << QByteArray("<none>") << QStringLiteral("bad.zplan: no such file");
    }
    void unreadable_session_changes_nothing() {
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.zplan"));
        if (content != "<none>") write_file_atomically(path.toStdString(), content.toStdString());
        const QString plan = dir.filePath(QStringLiteral("plan.zplan"));
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        QString error;
        QVERIFY(w.document()->save(plan, &error));
        w.document()->edit(edited(w.document()->scenario()), QStringLiteral("seq"));
        const QString before = sessionText(w.document()->scenario());
        const QString title = w.windowTitle();
        w.setSaveChangesPrompt([] { return MainWindow::SaveChoice::Discard; });
        bool opened = true;
        const QString message = messageShownBy([&] { opened = w.openFile(path); });
        QVERIFY(!opened);
        const QString firstLine = message.section(QLatin1Char('\n'), 0, 0);
        QVERIFY2(firstLine.contains(reason), qPrintable(message));
        QVERIFY2(message.section(QLatin1Char('\n'), 1, 1).isEmpty(), qPrintable(message));  // one line, then the note
        QVERIFY(message.contains(QStringLiteral("The current session is unchanged.")));
        QCOMPARE(sessionText(w.document()->scenario()), before);
        QCOMPARE(w.document()->filePath(), plan);
        QVERIFY(w.document()->isModified());
        QCOMPARE(w.windowTitle(), title);
        QVERIFY(!w.recentFiles()->files().contains(path));
        if (content != "<none>") QCOMPARE(QByteArray::fromStdString(read_text_file(path.toStdString())), content);
    }
};

ZP_TEST_MAIN(TestKeepWork)
#include "tst_keep_work.moc"
