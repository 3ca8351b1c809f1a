// QuietPlatformMessages (ui/dialogs/platform_messages.h): while it lives, Qt's notes about its
// platform are dropped and every other message reaches the handler that was installed before;
// afterwards that handler is back.
#include "ui/dialogs/platform_messages.h"

#include <QLoggingCategory>
#include "test_main.h"

namespace {
QStringList g_seen;
void capture(QtMsgType, const QMessageLogContext&, const QString& message) { g_seen << message; }
Q_LOGGING_CATEGORY(lcQpaTest, "qt.qpa.test")
Q_LOGGING_CATEGORY(lcOurs, "zp.test")
}  // namespace

class TestPlatformMessages : public QObject {
    Q_OBJECT
private slots:
    void chatter_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("category");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("chatter");
        QTest::newRow("XDG_RUNTIME_DIR") << int(QtWarningMsg) << QStringLiteral("default")
                                         << QStringLiteral("QStandardPaths: XDG_RUNTIME_DIR not set, defaulting to '/tmp/runtime-root'")
                                         << true;
        QTest::newRow("propagateSizeHints") << int(QtWarningMsg) << QStringLiteral("default")
                                            << QStringLiteral("This plugin does not support propagateSizeHints()") << true;
        QTest::newRow("qt.qpa warning") << int(QtWarningMsg) << QStringLiteral("qt.qpa.fonts") << QStringLiteral("anything") << true;
        QTest::newRow("qt.qpa info") << int(QtInfoMsg) << QStringLiteral("qt.qpa.xcb") << QStringLiteral("anything") << true;
        QTest::newRow("qt critical") << int(QtCriticalMsg) << QStringLiteral("qt.qpa.fonts") << QStringLiteral("anything") << false;
        QTest::newRow("ours") << int(QtWarningMsg) << QStringLiteral("default") << QStringLiteral("zero-planner: cannot write x.png")
                              << false;
        QTest::newRow("ours, categorised") << int(QtWarningMsg) << QStringLiteral("zp.render") << QStringLiteral("anything") << false;
        QTest::newRow("'qt' is not 'qt.'") << int(QtWarningMsg) << QStringLiteral("qtx") << QStringLiteral("anything") << false;
    }
    void chatter() {
        QFETCH(int, type);
        QFETCH(QString, category);
        QFETCH(QString, message);
        QFETCH(bool, chatter);
        const QByteArray c = category.toLatin1();
        QCOMPARE(zp::ui::isPlatformChatter(static_cast<QtMsgType>(type), c.constData(), message), chatter);
    }

    void drops_chatter_and_passes_the_rest_on() {
        g_seen.clear();
        const QtMessageHandler before = qInstallMessageHandler(capture);
        {
            const zp::ui::QuietPlatformMessages quiet;
            qWarning("QStandardPaths: XDG_RUNTIME_DIR not set, defaulting to '/tmp/runtime-x'");
            qWarning("This plugin does not support propagateSizeHints()");
            qCWarning(lcQpaTest) << "platform note";
            qWarning("ours: kept");
            qCWarning(lcOurs) << "ours: categorised";
        }
        qWarning("QStandardPaths: after the filter");
        qInstallMessageHandler(before);
        QCOMPARE(g_seen, (QStringList{QStringLiteral("ours: kept"), QStringLiteral("ours: categorised"),
                                      QStringLiteral("QStandardPaths: after the filter")}));
    }
};

ZP_TEST_APPLESS_MAIN(TestPlatformMessages)
#include "tst_platform_messages.moc"
