#include "ui/chart/duration_ticker.h"

namespace zp::ui {

// QCustomPlot's own choice of round steps, made in the unit and carried back to seconds.
double DurationTicker::getTickStep(const QCPRange& range) {
    const double per = seconds_per(unit_);
    return QCPAxisTicker::getTickStep(QCPRange(range.lower / per, range.upper / per)) * per;
}

int DurationTicker::getSubTickCount(double tick_step) { return QCPAxisTicker::getSubTickCount(tick_step / seconds_per(unit_)); }

QString DurationTicker::getTickLabel(double tick, const QLocale& locale, QChar format_char, int precision) {
    return QCPAxisTicker::getTickLabel(tick / seconds_per(unit_), locale, format_char, precision);
}

}  // namespace zp::ui
