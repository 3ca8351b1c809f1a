// Issue 17, item 3: the zh_CN translation is complete and current, and the window uses it.
// translations/zero-planner_zh_CN.ts has no unfinished, vanished or obsolete entry; its
// placeholders match the English; lupdate over today's sources finds no text it lacks; and the
// translation, the core's phrases included, reaches the window through applyLanguage.
#include "core/base/phrase.h"
#include "offscreen.h"
#include "ui/dialogs/preferences_dialog.h"
#include "ui/i18n/phrase_text.h"
#include "ui/i18n/translations.h"
#include "ui/main_window.h"

#include <QAction>
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include "test_main.h"

using namespace zp;

namespace {

struct Entry {
    QString context, source, translation, type;
};

QList<Entry> readTs(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QList<Entry> out;
    QXmlStreamReader xml(&f);
    QString context;
    Entry e;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        if (xml.name() == QLatin1String("name")) context = xml.readElementText();
        else if (xml.name() == QLatin1String("message")) e = Entry{context, {}, {}, {}};
        else if (xml.name() == QLatin1String("source")) e.source = xml.readElementText();
        else if (xml.name() == QLatin1String("translation")) {
            e.type = xml.attributes().value(QLatin1String("type")).toString();
            // A plural (%n) entry holds its forms in <numerusform> children: their text.
            e.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            out.append(e);
        }
    }
    return xml.hasError() ? QList<Entry>{} : out;
}

QSet<QString> keys(const QList<Entry>& entries) {
    QSet<QString> out;
    for (const Entry& e : entries) out.insert(e.context + QStringLiteral(" | ") + e.source);
    return out;
}

QStringList placeholders(const QString& text) {
    QStringList out;
    static const QRegularExpression re(QStringLiteral("%\\d+"));
    for (auto it = re.globalMatch(text); it.hasNext();) out << it.next().captured();
    out.removeDuplicates();
    out.sort();
    return out;
}

const QString kTs = QStringLiteral(ZP_SOURCE_DIR "/translations/zero-planner_zh_CN.ts");

}  // namespace

class TestTranslations : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void every_entry_is_finished() {
        const QList<Entry> entries = readTs(kTs);
        QVERIFY2(entries.size() > 400, qPrintable(kTs + QStringLiteral(" is missing or unreadable")));
        QStringList bad;
        for (const Entry& e : entries)
            if (!e.type.isEmpty() || e.translation.trimmed().isEmpty())
                bad << QStringLiteral("%1 [%2] %3").arg(e.context, e.type.isEmpty() ? QStringLiteral("empty") : e.type, e.source);
        QVERIFY2(bad.isEmpty(), qPrintable(QStringLiteral("unfinished, vanished or obsolete zh_CN entries (translate them, or run "
                                                          "the zero_ui_lupdate target to drop vanished ones):\n") +
                                           bad.join(QLatin1Char('\n'))));
    }

    void placeholders_match_the_english() {
        QStringList bad;
        for (const Entry& e : readTs(kTs))
            if (placeholders(e.source) != placeholders(e.translation)) bad << e.source + QStringLiteral(" -> ") + e.translation;
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    // What the zero_ui_lupdate target would do today (with the include root, so that contexts carry
    // their namespace as there), into a scratch file: any source text it
    // finds that the committed file lacks is untranslated; any the file has that it no longer
    // finds has vanished.
    void lupdate_finds_nothing_new() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fresh = dir.filePath(QStringLiteral("fresh.ts"));
        QProcess lupdate;
        lupdate.setWorkingDirectory(QStringLiteral(ZP_SOURCE_DIR));
        lupdate.start(QStringLiteral(ZP_LUPDATE),
                      {QStringLiteral("-silent"), QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-extensions"),
                       QStringLiteral("cpp,h"), QStringLiteral("-I"), QStringLiteral("."), QStringLiteral("ui"), QStringLiteral("core"),
                       QStringLiteral("app/gui_main.cpp"), QStringLiteral("-ts"), fresh});
        QVERIFY2(lupdate.waitForFinished(120000), "lupdate did not finish");
        QVERIFY2(lupdate.exitCode() == 0, lupdate.readAllStandardError().constData());
        const QSet<QString> found = keys(readTs(fresh)), committed = keys(readTs(kTs));
        QVERIFY(found.size() > 400);
        QStringList added = (found - committed).values(), vanished = (committed - found).values();
        added.sort();
        vanished.sort();
        QVERIFY2(added.isEmpty() && vanished.isEmpty(),
                 qPrintable(QStringLiteral("translations/zero-planner_zh_CN.ts is out of date: run cmake --build <build> --target "
                                           "zero_ui_lupdate and translate.\nnew:\n%1\nvanished:\n%2")
                                .arg(added.join(QLatin1Char('\n')), vanished.join(QLatin1Char('\n')))));
    }

    void fill_placeholders_is_one_pass() {
        QCOMPARE(fill_placeholders("%1%2 at %3%", {"a%2", "b", "7"}), std::string("a%2b at 7%"));
        QCOMPARE(english(phrase("needs %1", {phrase("%1; and %2", {std::string("x"), std::string("y")})})), std::string("needs x; and y"));
        QCOMPARE(ui::translated(phrase("%1 = %2%", {std::string("%1"), std::string("50")})), QStringLiteral("%1 = 50%"));
    }

    void the_window_speaks_chinese() {
        QVERIFY(ui::applyLanguage(QLocale(QStringLiteral("zh_CN"))));
        QCOMPARE(QLocale().name(), QStringLiteral("zh_CN"));
        QCOMPARE(QCoreApplication::translate("zp::ui::MainWindow", "&File"), QStringLiteral("文件(&F)"));
        // A core sentence: the template and its translatable arguments in Chinese, the numbers as they were.
        const Phrase p = phrase(QT_TRANSLATE_NOOP("Core", "%1: %2 of the step (compute %3)"),
                                {phrase(QT_TRANSLATE_NOOP("Core", "NVMe swapping")), std::string("38%"), std::string("55%")});
        QCOMPARE(ui::translated(p), QStringLiteral("NVMe 换入换出：占单步时间的 38%（计算 55%）"));
        QVERIFY(ui::applyLanguage(QLocale(QLocale::English, QLocale::UnitedStates)));
        QCOMPARE(QCoreApplication::translate("zp::ui::MainWindow", "&File"), QStringLiteral("&File"));
        QCOMPARE(ui::translated(p), QString::fromStdString(english(p)));
    }

    // Edit > Preferences stores the language; the next start reads it, "System language" forgets it.
    void preferences_store_the_language() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("zero-planner-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_translations"));
        ui::storeLanguage(QString());
        ui::PreferencesDialog dialog;
        auto* language = dialog.findChild<QComboBox*>(QStringLiteral("language"));
        QVERIFY(language);
        QCOMPARE(language->currentData().toString(), QString());
        language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
        dialog.apply();
        QCOMPARE(ui::storedLanguage(), QStringLiteral("zh_CN"));
        QCOMPARE(ui::preferredLocale().name(), QStringLiteral("zh_CN"));
        QCOMPARE(ui::PreferencesDialog().chosenLanguage(), QStringLiteral("zh_CN"));
        language->setCurrentIndex(0);
        dialog.apply();
        QVERIFY(ui::storedLanguage().isEmpty());
        QCOMPARE(ui::preferredLocale(), QLocale::system());
        // Reached from the window's Edit menu.
        ui::MainWindow window(ui::MainWindow::Ephemeral);
        auto* preferences = window.findChild<QAction*>(QStringLiteral("actionPreferences"));
        QVERIFY(preferences);
        QVERIFY(window.menuBar()->actions().at(1)->menu()->actions().contains(preferences));
    }
};

ZP_TEST_MAIN(TestTranslations)
#include "tst_translations.moc"
