#pragma once
// The main window: controls on the left, memory / scaling / time views and the recommendation
// card with the config preview on the right; File, Edit and Help menus; state kept in QSettings.
#include "core/model/scenario.h"

#include <QMainWindow>

class QTabWidget;

namespace zp::ui {

class ConfigPreview;
class ControlPanel;
class MemoryView;
class PlannerDocument;
class RecommendationCard;
class ScalingView;
class TimeView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // persistent: restore geometry and the last session from QSettings and save them on close
    // (off for screenshots and tests).
    explicit MainWindow(bool persistent = true, QWidget* parent = nullptr);
    ~MainWindow() override;

    PlannerDocument* document() const { return doc_; }
    ControlPanel* controls() const { return controls_; }
    MemoryView* memoryView() const { return memory_; }
    ScalingView* scalingView() const { return scaling_; }
    TimeView* timeView() const { return time_; }
    RecommendationCard* card() const { return card_; }
    ConfigPreview* configPreview() const { return config_; }
    QTabWidget* sideTabs() const { return tabs_; }

    // File operations without dialogs (the menu actions ask for a path, then call these).
    // Each returns false and sets *error with what went wrong; the current session is untouched.
    bool openSession(const QString& path, QString* error);
    bool saveSession(const QString& path, QString* error);
    bool exportConfig(const QString& path, QString* error);
    bool importHfConfig(const QString& path, QString* error);
    // Loads a ds_config.json into the controls (one undo step) and returns its diagnostics.
    bool importDsConfig(const QString& path, QString* diagnostics, QString* error);
    QString sessionPath() const { return session_path_; }

    // Redraws everything now (screenshots, tests, benchmarks).
    void flushPending();

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    void buildMenus();
    void updateTitle();
    void newSession();
    void openSessionDialog();
    void saveSessionDialog(bool ask);
    void importHfDialog();
    void importDsDialog();
    void exportDialog();
    void screenshotDialog();
    void showHowComputed();
    void showAbout();

    PlannerDocument* doc_;
    ControlPanel* controls_;
    MemoryView* memory_;
    ScalingView* scaling_;
    TimeView* time_;
    RecommendationCard* card_;
    ConfigPreview* config_;
    QTabWidget* tabs_;
    QString session_path_;
    bool persistent_;
    bool keep_newer_last_session_ = false;  // the remembered last session is a newer format: leave it
};

}  // namespace zp::ui
