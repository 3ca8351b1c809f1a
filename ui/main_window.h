#pragma once
// The main window: controls on the left, memory / scaling (tabbed with memory over one step) /
// time views and the recommendation card with the config preview on the right; File, Edit and Help menus. The document owns the
// session file; the window shows its name and modified state in the title ("[*]") and asks
// before unsaved edits would be lost (confirmSave, as in Tiled).
#include "core/model/scenario.h"
#include "ui/export/plot_export.h"

#include <QMainWindow>

#include <functional>
#include <memory>

class QMenu;
class QTabWidget;

namespace zp::ui {

class ComparePanel;
class ConfigPreview;
class ControlPanel;
class DiagnosisPanel;
class MemoryView;
class PlannerDocument;
class RecentFiles;
class RecommendationCard;
class ScalingView;
class StepView;
class HostView;
class LazyPage;
class SequenceView;
class GpuLayoutView;
class TimeView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Persistent: restore the geometry and the last session from QSettings and save them on
    // close. Ephemeral: neither (screenshots, tests, benchmarks).
    enum Persistence { Persistent, Ephemeral };
    // The answer to "Save changes?".
    enum class SaveChoice { Save, Discard, Cancel };

    explicit MainWindow(Persistence persistence = Persistent, QWidget* parent = nullptr);
    ~MainWindow() override;

    PlannerDocument* document() const { return doc_.get(); }
    ControlPanel* controls() const { return controls_; }
    MemoryView* memoryView() const { return memory_; }
    ScalingView* scalingView() const { return scaling_; }
    TimeView* timeView() const { return time_; }
    StepView* stepView() const { return step_; }
    HostView* hostView() const { return host_; }
    // The side tabs' panels behind the recommendation, built on first use (LazyPage).
    SequenceView* sequenceView() const;
    GpuLayoutView* layoutView() const { return layout_; }
    RecommendationCard* card() const { return card_; }
    ConfigPreview* configPreview() const { return config_; }
    ComparePanel* comparePanel() const;
    // Edit > Pin Plan for Comparison and the Compare panel's button: pins the plan shown, or says
    // in the status bar why not (four pinned already).
    void pinPlan();
    QTabWidget* sideTabs() const { return tabs_; }
    // Brings the side tab that holds `panel` (the card, a lazily built panel, the diagnosis) to the front.
    void showSideTab(QWidget* panel);
    // The scaling, step ("Memory over one step"), host and GPU layout views, top right.
    QTabWidget* plotTabs() const { return plot_tabs_; }
    // File > Open Recent (ui/document/recent_files.h).
    RecentFiles* recentFiles() const { return recent_; }

    // Opens a session the way File > Open does after its file dialog (the command line and a
    // dropped file come here): asks about unsaved edits first, and says why in a message box
    // when the file cannot be read. Returns whether the file is now open.
    bool openFile(const QString& path);
    // File > Diagnose a Training Log... after its file dialog (and a dropped .log or .txt): reads
    // the log with the core (core/diagnose/log_diagnosis.h) over the document's scenario, makes the
    // run it states the document's as one undo step, marks the failing moment in "Memory over one
    // step" and shows the Diagnosis tab. A file the core refuses (no out-of-memory message, empty,
    // binary, unreadable): false with the core's one line in *error, and nothing changes.
    bool diagnoseLog(const QString& path, QString* error);
    // The same for a log's text; `name` is the file name the tab cites.
    bool diagnoseLogText(const QString& text, const QString& name, QString* error);
    // The Diagnosis tab, once a log was diagnosed; else null.
    DiagnosisPanel* diagnosisPanel() const { return diagnosis_; }

    // Asks "Save changes?" when the document has unsaved edits, and saves when told to.
    // Returns true when it is fine to go on (saved, discarded, or nothing to save).
    bool confirmSave();
    // Replaces the QMessageBox confirmSave shows (tests answer it without a dialog).
    void setSaveChangesPrompt(std::function<SaveChoice()> prompt);

    // Operations without dialogs (the menu actions ask for a path, then call these).
    // Each returns false and sets *error with what went wrong; the current session is untouched.
    bool exportConfig(const QString& path, QString* error);
    bool importHfConfig(const QString& path, QString* error);
    // Loads a ds_config.json into the controls (one undo step) and returns its diagnostics.
    bool importDsConfig(const QString& path, QString* diagnostics, QString* error);
    // The plot views, by the names `screenshot --view` uses: memory, scaling, step, host, time.
    QStringList plotViewIds() const;
    QString plotViewTitle(const QString& id) const;
    // What File > Export View... exports: the plot view last clicked (any button), or, when that
    // one's tab is no longer shown, the view shown in its place; the memory view before any click.
    QString currentPlotView() const;
    // Writes plot view `id` as `format` at its size on screen (docs/design.md §10).
    bool exportView(const QString& id, const QString& path, PictureFormat format, QString* error);
    // The right-click menu of plot view `id`: export as each picture format, and for the views
    // with a bar per setup, Copy Table as Markdown. The caller owns it.
    QMenu* plotContextMenu(const QString& id, QWidget* parent);
    // The memory table of every setup (core/report/report.h, compare's figures) as a GitHub table.
    QString setupsMarkdown() const;
    // File > Export Report...: `markdown` writes the .md and its PNGs beside it (<stem>-<view>.png),
    // otherwise one PDF page. Nothing is written when the report cannot be made.
    bool exportReport(const QString& path, bool markdown, QString* error);
    // An untitled, unmodified session showing `s` (the scenario the command-line options describe).
    void startUntitled(const Scenario& s);

    // Redraws everything now (screenshots, tests, benchmarks).
    void flushPending();

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void updateTitle();
    SaveChoice askSaveChanges();
    bool openWithoutAsking(const QString& path);
    void newSession();
    void showStartPage();
    void openSessionDialog();
    bool saveSessionDialog(bool ask);
    void importHfDialog();
    void importDsDialog();
    void exportDialog();
    void screenshotDialog();
    void exportViewDialog(const QString& id, PictureFormat preferred);
    void exportReportDialog();
    void calibrateDialog();
    void diagnoseDialog();
    void diagnoseAndTell(const QString& path);
    bool diagnose(const std::string& text, const QString& name, QString* error);
    void closeDiagnosis();
    void showHowComputed();
    void showAbout();

    // Declared first, so destroyed before the views (children, deleted later by ~QWidget): its
    // connections to them are cut then, and it announces nothing while it goes (see
    // planner_document.h), so no slot runs on a half-destroyed window.
    std::unique_ptr<PlannerDocument> doc_;
    ControlPanel* controls_;
    MemoryView* memory_;
    ScalingView* scaling_;
    TimeView* time_;
    StepView* step_;
    HostView* host_;
    SequenceView* sequence_ = nullptr;  // built by sequence_page_
    GpuLayoutView* layout_;
    RecommendationCard* card_;
    ConfigPreview* config_;
    ComparePanel* compare_ = nullptr;  // built by compare_page_
    LazyPage* compare_page_;
    LazyPage* sequence_page_;
    DiagnosisPanel* diagnosis_ = nullptr;
    QTabWidget* tabs_;
    QTabWidget* plot_tabs_;
    RecentFiles* recent_ = nullptr;
    Persistence persistence_;
    std::function<SaveChoice()> save_changes_prompt_;
    bool offer_start_page_ = false;         // the first start shows the start page (showStartPage)
    bool keep_newer_last_session_ = false;  // the remembered last session is a newer format: leave it
    struct PlotView {
        QString id, title;
        QWidget* view;
        PlotPicture picture;
        bool per_setup;  // a bar per setup: its menu copies the setups' table
    };
    QList<PlotView> plot_views_;
    const PlotView* plotView(const QString& id) const;
    QString last_plot_;                           // the plot view last clicked
    QString calibrate_log_, calibrate_log_name_;  // the calibrate dialog's log, kept for its next opening
};

}  // namespace zp::ui
