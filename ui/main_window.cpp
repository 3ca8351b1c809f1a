#include "ui/main_window.h"

#include "core/model/default_scenario.h"
#include "core/deepspeed/config_import.h"
#include "core/deepspeed/lint.h"
#include "core/model/errors.h"
#include "core/io/file_io.h"
#include "core/io/hf_config.h"
#include "core/io/json_errors.h"
#include "core/io/scenario_json.h"
#include "core/io/session_version.h"
#include "ui/config_preview.h"
#include "ui/control_panel.h"
#include "ui/memory_view.h"
#include "ui/planner_document.h"
#include "ui/qcustomplot_include.h"
#include "ui/recommendation_card.h"
#include "ui/scaling_view.h"
#include "ui/time_view.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

namespace zp::ui {

namespace {

// Writes through the core's write-then-rename, which checks every write(2). QSaveFile is not
// used: under a full disk (RLIMIT_FSIZE) Qt 6.4's QSaveFile::commit() returned true after a
// short write and replaced the file with a truncated one (tests/ui failed_session_save_*).
bool writeAtomically(const QString& path, const QByteArray& bytes, QString* error) {
    try {
        write_file_atomically(path.toStdString(), bytes.toStdString());
        return true;
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace

MainWindow::MainWindow(bool persistent, QWidget* parent) : QMainWindow(parent), doc_(new PlannerDocument(this)), persistent_(persistent) {
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/zero-planner.png")));
    // Latin labels need no complex shaping; skipping HarfBuzz halves the cost of every redraw
    // (text is most of what a slider move repaints).
    QFont f = font();
    f.setStyleStrategy(QFont::PreferNoShaping);
    setFont(f);
    controls_ = new ControlPanel(doc_);
    auto* scroll = new QScrollArea;
    scroll->setWidget(controls_);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(controls_->sizeHint().width() + 24);

    memory_ = new MemoryView(doc_);
    scaling_ = new ScalingView(doc_);
    time_ = new TimeView(doc_);
    card_ = new RecommendationCard(doc_);
    config_ = new ConfigPreview(doc_);
    tabs_ = new QTabWidget;
    tabs_->addTab(card_, tr("Recommendation"));
    tabs_->addTab(config_, tr("ds_config.json"));

    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(memory_);
    top->addWidget(scaling_);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(time_);
    bottom->addWidget(tabs_);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(top);
    right->addWidget(bottom);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto* main = new QSplitter(Qt::Horizontal);
    main->setObjectName(QStringLiteral("mainSplitter"));
    main->addWidget(scroll);
    main->addWidget(right);
    main->setStretchFactor(1, 1);
    setCentralWidget(main);

    buildMenus();
    connect(controls_, &ControlPanel::importHfConfigRequested, this, &MainWindow::importHfDialog);
    connect(config_, &ConfigPreview::exportRequested, this, &MainWindow::exportDialog);
    connect(memory_, &MemoryView::setupClicked, this, [this](int index) {
        doc_->selectSetup(overview_setups()[static_cast<std::size_t>(index)]);
        tabs_->setCurrentWidget(config_);
    });
    connect(doc_->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(doc_, &PlannerDocument::resultsChanged, this, [this] {
        const Overview& o = doc_->overview();
        if (o.plan_valid && o.plan.feasible)
            statusBar()->showMessage(tr("Recommended: %1. %2 candidates evaluated.")
                                         .arg(QString::fromStdString(setup_label(o.plan.best.zero)))
                                         .arg(o.plan.candidates_evaluated));
        else
            statusBar()->showMessage(tr("Nothing fits: see the recommendation card for what would."));
    });

    resize(1480, 920);
    if (persistent_) {
        QSettings settings;
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
        const QByteArray last = settings.value(QStringLiteral("session/last")).toByteArray();
        bool restored = true;
        if (!last.isEmpty()) {
            try {
                doc_->reset(parse_session(last.toStdString(), "last session"));
            } catch (const NewerSessionError&) {
                // Saved by a newer zero-planner: kept for it, not overwritten on close.
                restored = false;
                keep_newer_last_session_ = true;
            } catch (const InputError&) {
                // A last session this build cannot read is dropped; the defaults stand.
                restored = false;
            }
        }
        // The path belongs to the last session: with the defaults in its place, Save would write
        // them over that file.
        if (restored) session_path_ = settings.value(QStringLiteral("session/path")).toString();
    }
    updateTitle();
}

MainWindow::~MainWindow() {
    // QUndoStack announces cleanChanged while it is destroyed; the window is gone by then.
    doc_->undoStack()->disconnect(this);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, &MainWindow::newSession);
    file->addAction(tr("&Open Session..."), QKeySequence::Open, this, &MainWindow::openSessionDialog);
    file->addAction(tr("&Save Session"), QKeySequence::Save, this, [this] { saveSessionDialog(false); });
    file->addAction(tr("Save Session &As..."), QKeySequence::SaveAs, this, [this] { saveSessionDialog(true); });
    file->addSeparator();
    file->addAction(tr("&Import config.json..."), QKeySequence(tr("Ctrl+I")), this, &MainWindow::importHfDialog);
    file->addAction(tr("Import &ds_config.json..."), QKeySequence(tr("Ctrl+Shift+I")), this, &MainWindow::importDsDialog);
    file->addAction(tr("&Export..."), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportDialog);
    file->addAction(tr("Save Screens&hot..."), QKeySequence(tr("Ctrl+Shift+P")), this, &MainWindow::screenshotDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("&Copy Config"), QKeySequence(tr("Ctrl+Shift+C")), config_, &ConfigPreview::copyToClipboard);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&How the numbers are computed"), QKeySequence::HelpContents, this, &MainWindow::showHowComputed);
    help->addAction(tr("&About ZeRO Planner"), this, &MainWindow::showAbout);
}

void MainWindow::updateTitle() {
    const QString name = session_path_.isEmpty() ? tr("Untitled") : QFileInfo(session_path_).fileName();
    setWindowTitle(tr("%1%2 \u2014 ZeRO Planner").arg(name, doc_->undoStack()->isClean() ? QString() : QStringLiteral("*")));
}

void MainWindow::flushPending() {
    doc_->recomputeNow();
    for (QCustomPlot* p : {memory_->plot(), scaling_->plot(), time_->plot()}) p->replot(QCustomPlot::rpImmediateRefresh);
}

bool MainWindow::openSession(const QString& path, QString* error) {
    try {
        const Scenario s = parse_session(read_text_file(path.toStdString()), QFileInfo(path).fileName().toStdString());
        doc_->reset(s);
        session_path_ = path;
        updateTitle();
        return true;
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
}

bool MainWindow::saveSession(const QString& path, QString* error) {
    if (!writeAtomically(path, QByteArray::fromStdString(session_text(doc_->scenario())), error)) return false;
    session_path_ = path;
    doc_->undoStack()->setClean();
    updateTitle();
    return true;
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
        const LintResult lint = lint_ds_config(text, doc_->scenario().cluster.world_size(), name);
        QStringList lines;
        for (const Diagnostic& d : lint.diagnostics)
            lines << QStringLiteral("%1: %2%3%4")
                         .arg(QString::fromLatin1(to_string(d.severity)), d.path.empty() ? QString() : QString::fromStdString(d.path) + QStringLiteral(": "),
                              QString::fromStdString(d.message), d.suggestion.empty() ? QString() : QStringLiteral(" (") + QString::fromStdString(d.suggestion) + QStringLiteral(")"));
        *diagnostics = lines.isEmpty() ? tr("No problems found for %1 GPUs.").arg(doc_->scenario().cluster.world_size()) : lines.join(QLatin1Char('\n'));
        Scenario s = apply_ds_config(parse_json_text(text, name), doc_->scenario());
        try {
            validate(s);
        } catch (const InputError& e) {
            // A contradictory config (offload_param at stage 2, ...) is shown, not loaded.
            *diagnostics += tr("\n\nNot loaded into the controls: %1").arg(QString::fromStdString(e.what()));
            return true;
        }
        doc_->edit(s, tr("Import %1").arg(QFileInfo(path).fileName()));
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
    QMessageBox box(QMessageBox::Information, tr("ds_config.json diagnostics"), tr("%1 loaded into the controls.").arg(QFileInfo(path).fileName()),
                    QMessageBox::Ok, this);
    box.setDetailedText(diagnostics);
    box.setInformativeText(diagnostics.left(600));
    box.exec();
}

void MainWindow::newSession() {
    doc_->reset(default_scenario());
    session_path_.clear();
    updateTitle();
}

void MainWindow::openSessionDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Session"), QString(), tr("ZeRO Planner sessions (*.zplan);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!openSession(path, &error)) QMessageBox::warning(this, tr("Cannot open session"), error + tr("\n\nThe current session is unchanged."));
}

void MainWindow::saveSessionDialog(bool ask) {
    QString path = session_path_;
    if (ask || path.isEmpty()) path = QFileDialog::getSaveFileName(this, tr("Save Session"), path.isEmpty() ? tr("plan.zplan") : path, tr("ZeRO Planner sessions (*.zplan)"));
    if (path.isEmpty()) return;
    QString error;
    if (!saveSession(path, &error)) QMessageBox::warning(this, tr("Cannot save session"), error);
}

void MainWindow::importHfDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import Hugging Face config.json"), QString(), tr("JSON (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!importHfConfig(path, &error)) QMessageBox::warning(this, tr("Cannot import config.json"), error);
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

void MainWindow::showHowComputed() {
    QMessageBox box(this);
    box.setWindowTitle(tr("How the numbers are computed"));
    box.setTextFormat(Qt::RichText);
    box.setText(tr(
        "<h3>Per-GPU memory</h3>"
        "<p><b>Model states</b> (DeepSpeed's implementation, bf16/fp16 with Adam): 16-bit parameters 2P, 16-bit gradients 2P, "
        "fp32 gradients 4P, fp32 master weights 4P, Adam moments 8P = 20 bytes per parameter without ZeRO. "
        "ZeRO-1 partitions the fp32 states over N GPUs (4P + 16P/N), ZeRO-2 also the gradients (2P + 18P/N, DeepSpeed's "
        "estimate_zero2_model_states_mem_needs), ZeRO-3 also the parameters (18P/N plus 4 x the largest layer). "
        "The ZeRO paper's K = 12 convention counts 16 bytes per parameter instead.</p>"
        "<p><b>Activations</b>: Korthikanti et al. 2022, s b h (34 + 5 a s / h) bytes per layer, generalised to gated MLPs, "
        "grouped-query attention and flash attention, plus the logits (16-bit and the fp32 copy for the loss).</p>"
        "<p><b>Buffers</b>: reduce and all-gather buckets (x4.5 with overlap_comm, after the Hugging Face DeepSpeed guide), "
        "the ZeRO-3 gathered working set. <b>Overhead</b>: CUDA context (1 GiB) and 10% allocator fragmentation.</p>"
        "<p><b>Host RAM and NVMe</b>: DeepSpeed's estimators with additional_buffer_factor 1.5.</p>"
        "<h3>Step time</h3><p>6 P tokens + 12 L h s tokens FLOPs at 45% of peak; ring collectives "
        "(nccl-tests bus bandwidth) on the slowest link; offload PCIe, CPU Adam and NVMe time.</p>"
        "<p>The README lists every formula with its source.</p>"));
    box.exec();
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About ZeRO Planner"),
                       tr("<b>ZeRO Planner %1</b><p>Plan DeepSpeed ZeRO training runs: memory per GPU, host RAM, NVMe and step time "
                          "for every stage and offload choice, and a ds_config.json DeepSpeed accepts.</p>")
                           .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (persistent_) {
        QSettings settings;
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
        if (!keep_newer_last_session_) {
            settings.setValue(QStringLiteral("session/last"), QByteArray::fromStdString(session_text(doc_->scenario())));
            settings.setValue(QStringLiteral("session/path"), session_path_);
        }
    }
    e->accept();
}

}  // namespace zp::ui
