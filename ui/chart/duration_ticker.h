#pragma once
// An axis whose coordinates are seconds, ticked and labelled in the unit its top reads in
// (core/base/format.h duration_unit): "Minutes per optimizer step" with ticks at 0, 5, 10, not
// 300, 600 s beside captions that say "12.4 min".
#include "core/base/format.h"
#include "ui/qcustomplot_include.h"

namespace zp::ui {

class DurationTicker : public QCPAxisTicker {
public:
    DurationUnit unit() const { return unit_; }
    // The unit of `top_seconds`, the axis's upper end.
    void setUnitFor(double top_seconds) { unit_ = duration_unit(top_seconds); }

protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tick_step) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar format_char, int precision) override;

private:
    DurationUnit unit_ = DurationUnit::Seconds;
};

}  // namespace zp::ui
