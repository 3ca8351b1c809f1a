#include "ui/document/recent_files.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

namespace zp::ui {

namespace {
constexpr QLatin1String kRecentKey("recent/files");
}

RecentFiles::RecentFiles(bool persistent, QWidget* parent)
    : QObject(parent), persistent_(persistent), menu_(new QMenu(tr("O&pen Recent"), parent)) {
    menu_->setObjectName(QStringLiteral("menuRecent"));
    menu_->setToolTipsVisible(true);
    connect(menu_, &QMenu::aboutToShow, this, &RecentFiles::rebuildMenu);  // another window may have added one
    rebuildMenu();
}

QStringList RecentFiles::files() const {
    if (!persistent_) return memory_;
    return QSettings().value(kRecentKey).toStringList();
}

void RecentFiles::add(const QString& path) {
    if (path.isEmpty()) return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    store(list.mid(0, kMaxFiles));
}

void RecentFiles::remove(const QString& path) {
    QStringList list = files();
    list.removeAll(path);
    store(list);
}

void RecentFiles::clear() { store({}); }

void RecentFiles::choose(const QString& path) {
    if (QFileInfo(path).isFile()) {
        emit openRequested(path);
        return;
    }
    remove(path);
    QMessageBox::information(qobject_cast<QWidget*>(parent()), tr("Open Recent"),
                             tr("%1 no longer exists. It is removed from Open Recent.").arg(QDir::toNativeSeparators(path)));
}

void RecentFiles::store(const QStringList& list) {
    if (persistent_) QSettings().setValue(kRecentKey, list);
    else memory_ = list;
    rebuildMenu();
}

void RecentFiles::rebuildMenu() {
    menu_->clear();
    const QStringList list = files();
    for (int i = 0; i < list.size(); ++i) {
        const QString& path = list[i];
        // &1 ... &8: each entry has a mnemonic of its own.
        QAction* a = menu_->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { choose(path); });
    }
    menu_->addSeparator();
    QAction* clearAction = menu_->addAction(tr("&Clear Menu"), this, &RecentFiles::clear);
    clearAction->setObjectName(QStringLiteral("actionClearRecent"));
    clearAction->setEnabled(!list.isEmpty());
    menu_->setEnabled(!list.isEmpty());
}

}  // namespace zp::ui
