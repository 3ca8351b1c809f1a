#include "ui/main_window.h"

#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/units.h"
#include "core/deepspeed/config_import.h"
#include "core/deepspeed/lint.h"
#include "core/diagnose/log_diagnosis.h"
#include "core/io/hf_config.h"
#include "core/io/scenario_json.h"
#include "core/io/session_version.h"
#include "core/memory/allocator.h"
#include "core/memory/buffers.h"
#include "core/model/enum_names.h"
#include "core/report/report.h"
#include "core/report/report_markdown.h"
#include "ui/accessibility.h"
#include "ui/chart/axis_label_fit.h"
#include "ui/controls/control_panel.h"
#include "ui/dialogs/calibrate_dialog.h"
#include "ui/dialogs/new_plan_dialog.h"
#include "ui/dialogs/preferences_dialog.h"
#include "ui/document/planner_document.h"
#include "ui/document/recent_files.h"
#include "ui/export/report_pdf.h"
#include "ui/i18n/phrase_text.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/config_preview.h"
#include "ui/panels/diagnosis_panel.h"
#include "ui/panels/gpu_layout_view.h"
#include "ui/panels/recommendation_card.h"
#include "ui/plots/host_view.h"
#include "ui/plots/memory_view.h"
#include "ui/plots/scaling_view.h"
#include "ui/plots/sequence_view.h"
#include "ui/plots/step_view.h"
#include "ui/plots/time_view.h"
#include "ui/qcustomplot_include.h"
#include "ui/widgets/lazy_page.h"

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

namespace zp::ui {

namespace {

// The QSettings keys, named once.
constexpr QLatin1String kGeometryKey("window/geometry");
constexpr QLatin1String kLastSessionKey("session/last");

// Writes through the core's checked write-then-rename (see PlannerDocument::save for why not QSaveFile).
bool writeAtomically(const QString& path, const QByteArray& bytes, QString* error) {
    try {
        write_file_atomically(path.toStdString(), bytes.toStdString());
        return true;
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
}

// The one local file a drag carries when it is a session (.zplan) or a training log to diagnose
// (.log, .txt), or empty.
QString draggedFile(const QMimeData* mime) {
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1) return {};
    const QUrl url = mime->urls().constFirst();
    if (!url.isLocalFile()) return {};
    const QString path = url.toLocalFile();
    for (const char* suffix : {".zplan", ".log", ".txt"})
        if (path.endsWith(QLatin1String(suffix), Qt::CaseInsensitive)) return path;
    return {};
}

bool isSession(const QString& path) { return path.endsWith(QLatin1String(".zplan"), Qt::CaseInsensitive); }

}  // namespace

MainWindow::MainWindow(Persistence persistence, QWidget* parent)
    : QMainWindow(parent), doc_(std::make_unique<PlannerDocument>()), persistence_(persistence) {
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/zero-planner.png")));
    setAcceptDrops(true);
    save_changes_prompt_ = [this] { return askSaveChanges(); };
    // Latin labels need no complex shaping; skipping HarfBuzz halves the cost of every redraw
    // (text is most of what a slider move repaints). Set before the first child is built; the
    // children below join the window as they are built (from the top down), so each is measured
    // and shaped with this font once.
    QFont f = font();
    f.setStyleStrategy(QFont::PreferNoShaping);
    setFont(f);
    PlannerDocument* doc = doc_.get();
    // Built from the window down: a widget tree joining the window is walked whole (its font,
    // palette and style resolved again, a FontChange event for each widget), so each part joins
    // the window once, in place, rather than joining a splitter that joins a splitter that then
    // joins the window. The control panel's width is then measured in the window's font: measured
    // before (it was), the panel came out narrower than its rows and clipped their right edge.
    auto* main = new QSplitter(Qt::Horizontal);
    main->setObjectName(QStringLiteral("mainSplitter"));
    setCentralWidget(main);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    main->addWidget(scroll);
    auto* right = new QSplitter(Qt::Vertical);
    main->addWidget(right);
    main->setStretchFactor(1, 1);
    auto* top = new QSplitter(Qt::Horizontal);
    auto* bottom = new QSplitter(Qt::Horizontal);
    right->addWidget(top);
    right->addWidget(bottom);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);

    // Built in place (in the scroll area, in the window, with its groups and their combo boxes
    // built with their parents): placed from outside, each of its 25 QComboBoxes would take the
    // window's font as a FontChange, which builds its popup list (QComboBox::changeEvent, Qt 6.4).
    controls_ = new ControlPanel(doc, scroll->viewport(), persistence_ == Persistent);
    scroll->setWidget(controls_);
    scroll->setMinimumWidth(controls_->sizeHint().width() + 24);

    memory_ = new MemoryView(doc, top);
    top->addWidget(memory_);
    // The step, host and GPU layout views share a place with the scaling view: beside the memory
    // bars, so a clicked bar's step is in view with it. They draw only while their tab is shown.
    plot_tabs_ = new QTabWidget;
    plot_tabs_->setObjectName(QStringLiteral("plotTabs"));
    plot_tabs_->setDocumentMode(true);
    // Four tabs in a third of the window: short names fit whole down to 1280x720
    // (tests/ui/tst_window_fits.cpp), the full ones in the tooltips and for screen readers;
    // eliding stays for narrower splits (scroll buttons hid the fourth tab).
    plot_tabs_->setElideMode(Qt::ElideRight);
    plot_tabs_->setUsesScrollButtons(false);
    top->addWidget(plot_tabs_);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    scaling_ = new ScalingView(doc, plot_tabs_);
    step_ = new StepView(doc, plot_tabs_);
    host_ = new HostView(doc, plot_tabs_);
    layout_ = new GpuLayoutView(doc, plot_tabs_);
    const QString scalingTitle = tr("Memory vs GPU count"), stepTitle = tr("Memory over one step");
    plot_tabs_->addTab(scaling_, tr("GPU count"));
    plot_tabs_->addTab(step_, tr("One step"));
    plot_tabs_->addTab(host_, tr("Host RAM"));
    plot_tabs_->addTab(layout_, tr("GPU layout"));
    plot_tabs_->setTabToolTip(0, scalingTitle);
    plot_tabs_->setTabToolTip(1, stepTitle);
    scaling_->setAccessibleName(scalingTitle);
    step_->setAccessibleName(stepTitle);

    time_ = new TimeView(doc, bottom);
    bottom->addWidget(time_);
    tabs_ = new QTabWidget;
    bottom->addWidget(tabs_);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    card_ = new RecommendationCard(doc, tabs_);
    // The ds_config tab is built with the window: its row of format, Copy and Export is what sets
    // the side tabs' width. The Compare and sequence tabs are built when first shown or asked for
    // (LazyPage): the first frame paints without them.
    config_ = new ConfigPreview(doc, tabs_);
    compare_page_ = new LazyPage([this, doc](QWidget* page) {
        compare_ = new ComparePanel(doc, page);
        connect(compare_, &ComparePanel::pinRequested, this, &MainWindow::pinPlan);
        return compare_;
    });
    sequence_page_ = new LazyPage([this, doc](QWidget* page) {
        sequence_ = new SequenceView(doc, page);
        connect(sequence_, &SequenceView::setupClicked, this, [this](int index) { doc_->selectSetup(sequence_->barSetup(index)); });
        return sequence_;
    });
    compare_page_->setAccessibleDescription(ComparePanel::description());
    sequence_page_->setAccessibleDescription(SequenceView::description());
    // A page is built as it is shown, which may be inside a tab widget's own change (a tab being
    // removed): the window's tab order is walked again after that change, not inside it.
    for (LazyPage* page : {compare_page_, sequence_page_})
        connect(
            page, &LazyPage::built, this, [this](QWidget* content) { makeKeyboardAndScreenReaderFriendly(this, content); },
            Qt::QueuedConnection);
    tabs_->addTab(card_, tr("Recommendation"));
    tabs_->addTab(config_, tr("ds_config.json"));
    tabs_->addTab(compare_page_, tr("Compare"));
    // The longest sequence per setup and the chosen one's speed against the length: beside the
    // recommendation, whose question ("what fits?") it asks of the length.
    tabs_->addTab(sequence_page_, tr("Sequence length"));

    // The plot views in the order the report shows them.
    plot_views_ = {
        {QStringLiteral("memory"), tr("Memory per GPU"), memory_, {memory_->plot(), memory_->legend()}, true},
        {QStringLiteral("step"), tr("Memory over one step"), step_, {step_->plot(), step_->legend()}, false},
        {QStringLiteral("scaling"), tr("Memory vs GPU count"), scaling_, {scaling_->plot(), scaling_->legend()}, false},
        {QStringLiteral("time"), tr("Step time"), time_, {time_->plot(), time_->legend()}, true},
        {QStringLiteral("host"), tr("Host RAM per node"), host_, {host_->plot(), host_->legend()}, true},
    };
    for (const PlotView& v : plot_views_) {
        v.picture.plot->installEventFilter(this);
        describeForScreenReaders(v.picture.plot, v.title);
        fitAxisLabels(v.picture.plot);
        v.picture.plot->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(v.picture.plot, &QWidget::customContextMenuRequested, this, [this, id = v.id, plot = v.picture.plot](const QPoint& at) {
            QMenu* menu = plotContextMenu(id, this);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(plot->mapToGlobal(at));
        });
    }

    buildMenus();
    connect(controls_, &ControlPanel::importHfConfigRequested, this, &MainWindow::importHfDialog);
    connect(config_, &ConfigPreview::exportRequested, this, &MainWindow::exportDialog);
    // A bar's index in the overview's bars (the seven setups, and the recommended one when it is
    // another: Overview::bars).
    const auto showSetup = [this](int index) {
        const std::vector<Candidate>& bars = doc_->overview().bars;
        if (index < 0 || index >= static_cast<int>(bars.size())) return;
        doc_->selectSetup(zero_setup(setup_key(bars[static_cast<std::size_t>(index)].zero)));
        tabs_->setCurrentWidget(config_);
    };
    connect(memory_, &MemoryView::setupClicked, this, showSetup);
    connect(host_, &HostView::setupClicked, this, showSetup);
    // The same from the keyboard: Left and Right on the focused memory or host RAM plot.
    const auto shownSetup = [this] {
        const std::vector<Candidate>& bars = doc_->overview().bars;
        for (std::size_t i = 0; i < bars.size(); ++i)
            if (setup_key(bars[i].zero) == setup_key(doc_->selectedSetup())) return static_cast<int>(i);
        return -1;
    };
    const auto barCount = [this] { return static_cast<int>(doc_->overview().bars.size()); };
    for (QCustomPlot* p : {memory_->plot(), host_->plot()}) chooseBarsWithKeys(p, barCount, shownSetup, showSetup);
    connect(doc, &PlannerDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(doc, &PlannerDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(doc, &PlannerDocument::resultsChanged, this, [this] {
        // The config tab's name follows the engine of the file it shows first.
        const QString config = is_fsdp(doc_->exportScenario().fsdp) ? tr("FSDP config") : tr("ds_config.json");
        if (const int at = tabs_->indexOf(config_); at >= 0 && tabs_->tabText(at) != config) tabs_->setTabText(at, config);
        const Overview& o = doc_->overview();
        if (o.plan_valid && o.plan.feasible)
            statusBar()->showMessage(
                tr("Recommended: %1. %2 candidates evaluated.")
                    .arg(translated(setup_phrase(setup_key(o.plan.best.zero), o.plan.best.engine, o.plan.best.hybrid_shard)))
                    .arg(o.plan.candidates_evaluated));
        else statusBar()->showMessage(tr("Nothing fits: see the recommendation card for what would."));
    });

    resize(1480, 920);
    if (persistence_ == Persistent) {
        QSettings settings;
        restoreGeometry(settings.value(kGeometryKey).toByteArray());
        const QByteArray last = settings.value(kLastSessionKey).toByteArray();
        // The very first start (no plan was ever closed here) opens on the start page, unless a
        // file or options name the plan first (openFile, startUntitled).
        offer_start_page_ = last.isEmpty();
        if (offer_start_page_)
            QTimer::singleShot(0, this, [this] {
                if (offer_start_page_) showStartPage();
                offer_start_page_ = false;
            });
        if (!last.isEmpty()) {
            // The last session comes back untitled and unmodified, not under the file it was
            // last saved to. It is the window as it was closed, not that file: the file may have
            // changed on disk since, or never held these edits (Discard on closing keeps them
            // here, not there). Under the old name, even marked modified, Save would overwrite
            // the file with this copy without asking for a name; marked modified and untitled,
            // every quit would ask again about edits already asked about when they were made.
            // Untitled and unmodified claims nothing, and Save asks for a file name.
            try {
                const SessionFile restored = parse_session_file(last.toStdString(), "last session");
                doc_->reset(restored.scenario, restored.pins);
            } catch (const NewerSessionError&) {
                // Saved by a newer zero-planner: kept for it, not overwritten on close.
                keep_newer_last_session_ = true;
            } catch (const InputError&) {
                // A last session this build cannot read is dropped; the defaults stand.
            }
        }
    }
    // Last, once every widget and menu exists: Tab order, names, descriptions, mnemonics. A box's
    // rows built later (control_group.h, buildRowsWhenShown) join them as a lazily built tab page does.
    makeKeyboardAndScreenReaderFriendly(this);
    connect(controls_, &ControlPanel::rowsBuilt, this, [this](QWidget* group) { makeKeyboardAndScreenReaderFriendly(this, group); });
    updateTitle();
}

// Ownership order instead of a disconnect: the widgets that show the document go first, while
// the window and the document are whole (a spin box with typed text commits it on the focus-out
// that hiding the window sends: tests/ui window_goes_with_edits_in_flight); the document, a
// member, goes after them and announces nothing (see planner_document.h). The central widget keeps
// the window's font as its own on the way out: taken out with the font inherited, it would change
// to the application's, and each QComboBox in it would build its popup list to be deleted with it.
MainWindow::~MainWindow() {
    if (QWidget* central = centralWidget()) central->setFont(font());
    delete takeCentralWidget();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, &MainWindow::newSession)->setObjectName(QStringLiteral("actionNew"));
    file->addAction(tr("&Open Session..."), QKeySequence::Open, this, &MainWindow::openSessionDialog)
        ->setObjectName(QStringLiteral("actionOpen"));
    recent_ = new RecentFiles(persistence_ == Persistent, this);
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openFile);
    connect(doc_.get(), &PlannerDocument::filePathChanged, recent_, &RecentFiles::add);  // opened or saved
    file->addMenu(recent_->menu());
    file->addAction(tr("&Save Session"), QKeySequence::Save, this, [this] { saveSessionDialog(false); })
        ->setObjectName(QStringLiteral("actionSave"));
    file->addAction(tr("Save Session &As..."), QKeySequence::SaveAs, this, [this] { saveSessionDialog(true); })
        ->setObjectName(QStringLiteral("actionSaveAs"));
    file->addSeparator();
    file->addAction(tr("&Import config.json..."), QKeySequence(tr("Ctrl+I")), this, &MainWindow::importHfDialog);
    file->addAction(tr("Import &ds_config.json..."), QKeySequence(tr("Ctrl+Shift+I")), this, &MainWindow::importDsDialog);
    file->addAction(tr("&Export..."), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportDialog)
        ->setObjectName(QStringLiteral("actionExport"));
    file->addAction(tr("Save Screens&hot..."), QKeySequence(tr("Ctrl+Shift+P")), this, &MainWindow::screenshotDialog);
    file->addAction(tr("Export &View..."), QKeySequence(tr("Ctrl+Shift+E")), this,
                    [this] { exportViewDialog(currentPlotView(), PictureFormat::Png); })
        ->setObjectName(QStringLiteral("actionExportView"));
    file->addAction(tr("Export &Report..."), QKeySequence(tr("Ctrl+Shift+R")), this, &MainWindow::exportReportDialog)
        ->setObjectName(QStringLiteral("actionExportReport"));
    file->addAction(tr("&Calibrate from a Run..."), QKeySequence(tr("Ctrl+Shift+L")), this, &MainWindow::calibrateDialog)
        ->setObjectName(QStringLiteral("actionCalibrate"));
    file->addAction(tr("Dia&gnose a Training Log..."), QKeySequence(tr("Ctrl+Shift+G")), this, &MainWindow::diagnoseDialog)
        ->setObjectName(QStringLiteral("actionDiagnose"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close)->setObjectName(QStringLiteral("actionQuit"));

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("&Copy Config"), QKeySequence(tr("Ctrl+Shift+C")), config_, &ConfigPreview::copyToClipboard);
    edit->addSeparator();
    QAction* preferences = edit->addAction(tr("&Preferences..."), this, [this] { PreferencesDialog(this).exec(); });
    preferences->setObjectName(QStringLiteral("actionPreferences"));
    preferences->setMenuRole(QAction::PreferencesRole);
    edit->addAction(tr("Pi&n Plan for Comparison"), QKeySequence(tr("Ctrl+D")), this, &MainWindow::pinPlan)
        ->setObjectName(QStringLiteral("actionPinPlan"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&How the numbers are computed"), QKeySequence::HelpContents, this, &MainWindow::showHowComputed);
    help->addAction(tr("&About ZeRO Planner"), this, &MainWindow::showAbout);
}

SequenceView* MainWindow::sequenceView() const {
    sequence_page_->content();
    return sequence_;
}
ComparePanel* MainWindow::comparePanel() const {
    compare_page_->content();
    return compare_;
}

void MainWindow::showSideTab(QWidget* panel) {
    if (QWidget* page = tabPageOf(tabs_, panel)) tabs_->setCurrentWidget(page);
}

void MainWindow::updateTitle() {
    const QString path = doc_->filePath();
    setWindowFilePath(path);
    // "[*]" is where Qt puts the modified marker, shown while isWindowModified().
    setWindowTitle(tr("%1[*] \u2014 ZeRO Planner").arg(path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName()));
    setWindowModified(doc_->isModified());
}

void MainWindow::flushPending() {
    doc_->recomputeNow();
    step_->flush();
    if (compare_) compare_->flush();
    host_->flush();
    if (sequence_ && tabs_->currentWidget() == sequence_page_) sequence_->flush();  // a search of its own: only when shown
    layout_->flush();
    for (QCustomPlot* p : {memory_->plot(), scaling_->plot(), time_->plot(), step_->plot(), host_->plot()})
        p->replot(QCustomPlot::rpImmediateRefresh);
}

void MainWindow::pinPlan() {
    QString refusal;
    if (!doc_->pinPlan(&refusal)) {
        statusBar()->showMessage(refusal);
        return;
    }
    statusBar()->showMessage(
        tr("Pinned \u201c%1\u201d: change the controls to compare with it.").arg(QString::fromStdString(doc_->pins().back().pin.name)));
    tabs_->setCurrentWidget(compare_page_);
}

void MainWindow::setSaveChangesPrompt(std::function<SaveChoice()> prompt) { save_changes_prompt_ = std::move(prompt); }

// Tiled's MainWindow::confirmSave: nothing to ask when unmodified; Save goes through Save (or
// Save As for an untitled document) and a cancelled or failed save stops what was asked for.
bool MainWindow::confirmSave() {
    if (!doc_->isModified()) return true;
    switch (save_changes_prompt_()) {
    case SaveChoice::Save: return saveSessionDialog(false);
    case SaveChoice::Discard: return true;
    case SaveChoice::Cancel: break;
    }
    return false;
}

MainWindow::SaveChoice MainWindow::askSaveChanges() {
    const QString path = doc_->filePath();
    QMessageBox box(QMessageBox::Warning, tr("Unsaved Changes"),
                    tr("Save changes to %1?").arg(path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setInformativeText(tr("Edits that are not saved are lost."));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save: return SaveChoice::Save;
    case QMessageBox::Discard: return SaveChoice::Discard;
    default: return SaveChoice::Cancel;
    }
}

bool MainWindow::openFile(const QString& path) {
    if (!confirmSave()) return false;
    return openWithoutAsking(path);
}

bool MainWindow::openWithoutAsking(const QString& path) {
    offer_start_page_ = false;
    QString error;
    if (doc_->open(path, &error)) return true;
    QMessageBox::warning(this, tr("Cannot open session"), error + tr("\n\nThe current session is unchanged."));
    return false;
}

bool MainWindow::exportConfig(const QString& path, QString* error) {
    const QString text = config_->configText();
    if (text.isEmpty()) {
        *error = tr("There is no config to export for this scenario.");
        return false;
    }
    return writeAtomically(path, text.toUtf8(), error);
}

bool MainWindow::importHfConfig(const QString& path, QString* error) {
    try {
        Scenario s = doc_->scenario();
        s.model = import_hf_config(read_text_file(path.toStdString()), QFileInfo(path).fileName().toStdString());
        s.model.name = QFileInfo(path).fileName().toStdString();
        doc_->edit(s, tr("Import %1").arg(QFileInfo(path).fileName()));
        return true;
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
}

bool MainWindow::importDsConfig(const QString& path, QString* diagnostics, QString* error) {
    try {
        const std::string text = read_text_file(path.toStdString());
        const std::string name = QFileInfo(path).fileName().toStdString();
        // The world over tensor x pipeline: the linter divides by the file's sequence_parallel_size itself.
        // The node and the model are the plan's (hpZ and MiCS against the node, SP against the heads).
        const LintResult lint =
            lint_ds_config(text, zero_partition_size(doc_->scenario()), name, std::nullopt, lint_context_of(doc_->scenario()));
        QStringList lines;
        for (const Diagnostic& d : lint.diagnostics)
            lines << QStringLiteral("%1: %2%3%4")
                         .arg(QString::fromLatin1(to_string(d.severity)),
                              d.path.empty() ? QString() : QString::fromStdString(d.path) + QStringLiteral(": "),
                              QString::fromStdString(d.message),
                              d.suggestion.empty() ? QString()
                                                   : QStringLiteral(" (") + QString::fromStdString(d.suggestion) + QStringLiteral(")"));
        const std::int64_t gpus = doc_->scenario().cluster.world_size();
        *diagnostics = !lines.isEmpty() ? lines.join(QLatin1Char('\n'))
                       : gpus == 1      ? tr("No problems found for 1 GPU.")
                                        : tr("No problems found for %1 GPUs.").arg(gpus);
        Scenario s = apply_ds_config(parse_ds_config_text(text, name), doc_->scenario());
        try {
            validate(s);
        } catch (const InputError& e) {
            // A contradictory config (offload_param at stage 2, ...) is shown, not loaded.
            *diagnostics += tr("\n\nNot loaded into the controls: %1").arg(QString::fromStdString(e.what()));
            return true;
        }
        doc_->edit(s, tr("Import %1").arg(QFileInfo(path).fileName()));
        // The edit has scheduled a recompute; the document holds this selection until it has
        // run, so "is it the recommended setup" is judged against the imported scenario's plan.
        doc_->selectSetup(s.zero);
        return true;
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
}

void MainWindow::importDsDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import ds_config.json"), QString(), tr("JSON (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString diagnostics, error;
    if (!importDsConfig(path, &diagnostics, &error)) {
        QMessageBox::warning(this, tr("Cannot import ds_config.json"), error);
        return;
    }
    QMessageBox box(QMessageBox::Information, tr("ds_config.json diagnostics"),
                    tr("%1 loaded into the controls.").arg(QFileInfo(path).fileName()), QMessageBox::Ok, this);
    box.setDetailedText(diagnostics);
    box.setInformativeText(diagnostics.left(600));
    box.exec();
}

void MainWindow::newSession() {
    if (!confirmSave()) return;
    doc_->newDocument();
    showStartPage();
}

// The start page over the new plan (window-modal, not blocking): its choices become the new
// untitled plan; Cancel keeps the default one.
void MainWindow::showStartPage() {
    auto* page = new NewPlanDialog(doc_->scenario(), this);
    page->setAttribute(Qt::WA_DeleteOnClose);
    connect(page, &QDialog::accepted, this, [this, page] {
        doc_->reset(page->chosenScenario());
        if (page->myCluster()) controls_->openClusterFields();
    });
    page->open();
}

void MainWindow::startUntitled(const Scenario& s) {
    offer_start_page_ = false;
    doc_->reset(s);
}

void MainWindow::openSessionDialog() {
    if (!confirmSave()) return;
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Session"), QString(), tr("ZeRO Planner sessions (*.zplan);;All files (*)"));
    if (!path.isEmpty()) openWithoutAsking(path);
}

bool MainWindow::saveSessionDialog(bool ask) {
    QString path = doc_->filePath();
    if (ask || path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save Session"), path.isEmpty() ? tr("plan.zplan") : path,
                                            tr("ZeRO Planner sessions (*.zplan)"));
    if (path.isEmpty()) return false;
    QString error;
    if (doc_->save(path, &error)) return true;
    QMessageBox::warning(this, tr("Cannot save session"), error);
    return false;
}

void MainWindow::importHfDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import Hugging Face config.json"), QString(), tr("JSON (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!importHfConfig(path, &error)) QMessageBox::warning(this, tr("Cannot import config.json"), error);
}

// Calibration: the dialog fits the scenario to a measured run and, on Apply, edits the
// document through its undo stack itself, so Cancel or a refused log leaves the session as it was.
// The log box keeps what was pasted or opened from one opening to the next (Esc or Cancel
// discarded a pasted log).
void MainWindow::calibrateDialog() {
    CalibrateDialog dialog(doc_.get(), this);
    if (!calibrate_log_.isEmpty()) dialog.setLogText(calibrate_log_, calibrate_log_name_);
    dialog.exec();
    calibrate_log_ = dialog.logText();
    calibrate_log_name_ = dialog.logName();
}

// Diagnosis of an out-of-memory log: read and diagnosed by the core over the document's scenario (what
// the log does not state keeps the window's value); the run it states becomes the document's as one
// undo step, so Undo returns to what the window showed before.
bool MainWindow::diagnose(const std::string& text, const QString& name, QString* error) {
    TrainingLogDiagnosis d;
    try {
        d = diagnose_training_log(text, name.toStdString(), doc_->scenario());
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    if (d.not_runnable.empty()) {
        doc_->edit(d.setup.scenario, tr("Diagnose %1").arg(name));
        // The step view shows the diagnosed setup's step, not the recommended one's.
        doc_->selectSetup(d.setup.scenario.zero);
    }
    if (!diagnosis_) {
        diagnosis_ = new DiagnosisPanel(doc_.get());
        connect(diagnosis_, &DiagnosisPanel::closeRequested, this, &MainWindow::closeDiagnosis);
    }
    diagnosis_->showDiagnosis(d, name);
    if (tabs_->indexOf(diagnosis_) < 0) tabs_->addTab(diagnosis_, tr("Diagnosis"));
    tabs_->setCurrentWidget(diagnosis_);
    const OomDiagnosis& o = d.diagnosis;
    if (o.moment == OomMoment::InStep && d.not_runnable.empty()) {
        const QString what = o.term ? QString::fromStdString(o.term->name) : translatedCore(to_string(o.phase));
        step_->setFailingPhase(o.phase, tr("Out of memory here: %1").arg(what));
        plot_tabs_->setCurrentWidget(step_);
    } else {
        step_->setFailingPhase(std::nullopt);
    }
    return true;
}

bool MainWindow::diagnoseLogText(const QString& text, const QString& name, QString* error) {
    return diagnose(text.toStdString(), name, error);
}

bool MainWindow::diagnoseLog(const QString& path, QString* error) {
    std::string text;
    try {
        text = read_text_file(path.toStdString());
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    return diagnose(text, QFileInfo(path).fileName(), error);
}

void MainWindow::diagnoseAndTell(const QString& path) {
    QString error;
    if (!diagnoseLog(path, &error)) QMessageBox::warning(this, tr("Cannot diagnose the log"), error);
}

void MainWindow::diagnoseDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Diagnose a Training Log"), QString(), tr("Training logs (*.log *.txt);;All files (*)"));
    if (!path.isEmpty()) diagnoseAndTell(path);
}

void MainWindow::closeDiagnosis() {
    if (const int index = tabs_->indexOf(diagnosis_); index >= 0) tabs_->removeTab(index);
    step_->setFailingPhase(std::nullopt);
}

void MainWindow::exportDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), config_->suggestedFileName());
    if (path.isEmpty()) return;
    QString error;
    if (!exportConfig(path, &error)) QMessageBox::warning(this, tr("Cannot export"), error);
    else statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

void MainWindow::screenshotDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Screenshot"), tr("zero-planner.png"), tr("PNG (*.png)"));
    if (path.isEmpty()) return;
    flushPending();
    if (!grab().save(path, "PNG")) QMessageBox::warning(this, tr("Cannot save screenshot"), tr("Cannot write %1").arg(path));
}

QStringList MainWindow::plotViewIds() const {
    QStringList ids;
    for (const PlotView& v : plot_views_) ids << v.id;
    return ids;
}

const MainWindow::PlotView* MainWindow::plotView(const QString& id) const {
    for (const PlotView& v : plot_views_)
        if (v.id == id) return &v;
    return nullptr;
}

QString MainWindow::plotViewTitle(const QString& id) const {
    const PlotView* v = plotView(id);
    return v ? v->title : QString();
}

QString MainWindow::currentPlotView() const {
    const PlotView* last = plotView(last_plot_);
    if (!last) return QStringLiteral("memory");
    if (last->view->isVisibleTo(this)) return last->id;
    // Its tab was left since: the view shown in its place.
    for (const PlotView& v : plot_views_)
        if (v.view == plot_tabs_->currentWidget()) return v.id;
    return QStringLiteral("memory");
}

bool MainWindow::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() == QEvent::MouseButtonPress || e->type() == QEvent::ContextMenu)
        for (const PlotView& v : plot_views_)
            if (v.picture.plot == watched) last_plot_ = v.id;
    return QMainWindow::eventFilter(watched, e);
}

bool MainWindow::exportView(const QString& id, const QString& path, PictureFormat format, QString* error) {
    const PlotView* v = plotView(id);
    if (!v) {
        *error = tr("unknown view '%1'; views: %2").arg(id, plotViewIds().join(QStringLiteral(", ")));
        return false;
    }
    flushPending();
    return exportPicture(v->picture, path, format, error, v->title);
}

QMenu* MainWindow::plotContextMenu(const QString& id, QWidget* parent) {
    auto* menu = new QMenu(parent);
    for (PictureFormat f : pictureFormats())
        menu->addAction(tr("Export as %1...").arg(pictureFormatName(f)), this, [this, id, f] { exportViewDialog(id, f); });
    const PlotView* v = plotView(id);
    if (v && v->per_setup) {
        menu->addSeparator();
        menu->addAction(tr("Copy Table as Markdown"), this, [this] { QApplication::clipboard()->setText(setupsMarkdown()); })
            ->setObjectName(QStringLiteral("actionCopyMarkdown"));
    }
    return menu;
}

QString MainWindow::setupsMarkdown() const {
    try {
        return QString::fromStdString(markdown_table(memory_table(compare_rows(doc_->scenario()))));
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
}

void MainWindow::exportViewDialog(const QString& id, PictureFormat preferred) {
    const PlotView* v = plotView(id);
    if (!v) return;
    QStringList filters;
    for (PictureFormat f : pictureFormats()) filters << pictureFormatFilter(f);
    QString selected = pictureFormatFilter(preferred);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export View: %1").arg(v->title), id + pictureFormatSuffix(preferred),
                                                      filters.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty()) return;
    // A typed .svg, .pdf or @2x.png decides; for any other name, the filter chosen (both PNG
    // filters match .png).
    PictureFormat format = pictureFormatForPath(path);
    for (PictureFormat f : pictureFormats())
        if (selected == pictureFormatFilter(f) && format == PictureFormat::Png) format = f;
    QString error;
    if (!exportView(id, path, format, &error)) QMessageBox::warning(this, tr("Cannot export the view"), error);
    else statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

bool MainWindow::exportReport(const QString& path, bool markdown, QString* error) {
    flushPending();
    Report report;
    try {
        report = make_report(doc_->scenario());
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    if (!markdown) {
        QList<ReportPlot> plots;
        for (const PlotView& v : plot_views_) plots.append({v.title, v.picture});
        return writeAtomically(path, reportPdf(report, plots), error);
    }
    // The pictures first, the page that links them last: a failure leaves no page pointing at
    // missing pictures, and removes the pictures this export wrote (no half a report behind).
    const QFileInfo md(path);
    std::vector<ReportPicture> pictures;
    QStringList written;
    const auto fail = [&written] {
        for (const QString& f : written) QFile::remove(f);
        return false;
    };
    for (const PlotView& v : plot_views_) {
        const QString name = md.completeBaseName() + QLatin1Char('-') + v.id + QStringLiteral(".png");
        const QString file = md.dir().filePath(name);
        if (!exportPicture(v.picture, file, PictureFormat::Png, error, v.title, v.picture.sizeFor(960, 480))) return fail();
        written << file;
        pictures.push_back({v.title.toStdString(), name.toStdString()});
    }
    if (!writeAtomically(path, QByteArray::fromStdString(report_markdown(report, pictures)), error)) return fail();
    return true;
}

void MainWindow::exportReportDialog() {
    QString selected;
    const QString pdf = tr("PDF (*.pdf)"), md = tr("Markdown (*.md)");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Report"), tr("zero-planner-report.pdf"), pdf + QStringLiteral(";;") + md, &selected);
    if (path.isEmpty()) return;
    const bool markdown = path.endsWith(QLatin1String(".md"), Qt::CaseInsensitive) ||
                          (selected == md && !path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive));
    QString error;
    if (!exportReport(path, markdown, &error)) QMessageBox::warning(this, tr("Cannot export the report"), error);
    else statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

void MainWindow::showHowComputed() {
    // The assumptions' values from the core's defaults, so this text cannot drift from them.
    const Assumptions a;
    const auto number = [](double v) { return QString::number(v, 'g', 4); };
    QMessageBox box(this);
    box.setWindowTitle(tr("How the numbers are computed"));
    box.setTextFormat(Qt::RichText);
    box.setText(
        tr("<h3>Per-GPU memory</h3>"
           "<p><b>Model states</b> (DeepSpeed's implementation, bf16/fp16 with Adam): 16-bit parameters 2P, 16-bit gradients 2P, "
           "fp32 gradients 4P, fp32 master weights 4P, Adam moments 8P = 20 bytes per parameter without ZeRO. "
           "ZeRO-1 partitions the fp32 states over N GPUs (4P + 16P/N), ZeRO-2 also the gradients (2P + 18P/N, DeepSpeed's "
           "estimate_zero2_model_states_mem_needs), ZeRO-3 also the parameters (18P/N plus 4 x the largest layer). "
           "The ZeRO paper's K = 12 convention counts 16 bytes per parameter instead.</p>"
           "<p><b>Activations</b>: Korthikanti et al. 2022, s b h (34 + 5 a s / h) bytes per layer, generalised to gated MLPs, "
           "grouped-query attention and flash attention, plus the logits (16-bit and the fp32 copy for the loss).</p>"
           "<p><b>Buffers</b>: reduce and all-gather buckets (x%1 with overlap_comm, after the Hugging Face DeepSpeed guide), "
           "the ZeRO-3 gathered working set. <b>Overhead</b>: CUDA context (%2 GiB) and the allocator's cache it cannot free. "
           "Each bar is what must fit, split as the step holds it at the moment that decides the fit (its tooltip names the "
           "moment); the outline is the step's peak reserve.</p>"
           "<h3>Peak and fit</h3>"
           "<p>Whether a setup fits is decided on the step's peak: the memory allocated at every moment of "
           "one step (start-up, each forward layer, the loss, each backward layer, the loop's metrics over the logits when it computes them, the gradient reduce, the optimizer step, "
           "the parameter gather), with PyTorch's caching allocator reserving on top of it a share of the bytes allocated "
           "and freed within the step (x%6, ZeRO-3 x%7; activations, allocated in the same sizes every micro step, x%10). <b>Peak reserved</b> plus the CUDA context is what nvidia-smi "
           "shows (the dashed box, and the line in Memory over one step). <b>What must fit</b> is the peak of allocated "
           "memory plus the part of the reserve the allocator cannot free when a request fails (%8% of the cycling bytes, "
           "ZeRO-3 %9%, activations %3%) plus the CUDA context, within capacity minus headroom.</p>"
           "<p><b>Host RAM and NVMe</b>: each node over the whole run (loading the model, deepspeed.initialize, "
           "training, saving a checkpoint): %4 GB per training process, the model as each process loads it, the "
           "offloaded states and DeepSpeed's pinned buffers (rounded up to a power of two, as PyTorch pins them), the NVMe "
           "swap pools and the 16-bit model copied to the host on save; the bar is the largest of the four.</p>"
           "<h3>Step time</h3><p>6 P tokens + 12 L h s tokens FLOPs at %5% of peak; ring collectives "
           "(nccl-tests bus bandwidth) on the slowest link; offload PCIe, CPU Adam and NVMe time.</p>"
           "<p>The README lists every formula with its source.</p>")
            .arg(number(kOverlapCommBucketFactor), number(bytes_to_gib(a.cuda_context_bytes)),
                 number(kAllocatorSharesActivations.unreleasable * 100), number(a.host_process_bytes / 1e9), number(a.mfu * 100),
                 number(kAllocatorShares.cached), number(kAllocatorSharesZero3.cached), number(kAllocatorShares.unreleasable * 100),
                 number(kAllocatorSharesZero3.unreleasable * 100))
            .arg(number(kAllocatorSharesActivations.cached)));
    box.exec();
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About ZeRO Planner"),
        tr("<b>ZeRO Planner %1</b><p>Plan DeepSpeed ZeRO training runs: steady-state and peak memory per GPU, host RAM, NVMe and step time "
           "for every stage and offload choice, and a ds_config.json DeepSpeed accepts.</p>")
            .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!confirmSave()) {
        e->ignore();
        return;
    }
    if (persistence_ == Persistent) {
        QSettings settings;
        settings.setValue(kGeometryKey, saveGeometry());
        if (!keep_newer_last_session_) settings.setValue(kLastSessionKey, QByteArray::fromStdString(doc_->sessionText()));
    }
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (!draggedFile(e->mimeData()).isEmpty()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QString path = draggedFile(e->mimeData());
    if (path.isEmpty()) return;
    e->acceptProposedAction();
    // Asked and opened after the drop has finished: the drag source is not kept waiting by a dialog.
    QMetaObject::invokeMethod(
        this,
        [this, path] {
            if (isSession(path)) openFile(path);
            else diagnoseAndTell(path);
        },
        Qt::QueuedConnection);
}

}  // namespace zp::ui
