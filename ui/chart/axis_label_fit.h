#pragma once
// A value-axis title longer than its axis is cut at both ends by QCustomPlot (the memory plot's
// "GiB per GPU: steady state (bars), peak reserved (outlined)" at 1280x720). fitAxisLabels keeps
// each left and right axis title whole: on one line while it fits, else broken in two at the
// separator nearest its middle. The views set their titles as before; the full one is kept.
class QCustomPlot;
class QFontMetricsF;
class QString;

namespace zp::ui {

class TextWidths;

void fitAxisLabels(QCustomPlot* plot);

// `title` in two lines, broken after the ", " / ": " or before the " (" nearest its middle (at the
// middle space when it has none).
QString twoLineTitle(const QString& title);

// `text` with every line wider than `width` pixels in `metrics` broken at the space nearest its
// middle, and the halves again, until each fits or has no space left. A line that starts with a
// one-character mark ("✗ pipeline", "★ best") and does not fit becomes the mark alone. A number is
// never parted from the short word after it, its unit ("15.77 s", "3.16k tok/s"): such a line may
// stay wider than `width`. The bar labels' fit (ui/chart/setup_bar_chart.h).
QString wrapToWidth(const QString& text, const QFontMetricsF& metrics, double width);
// The same, measuring with `widths`, which keeps what it measured for the caller's next question.
QString wrapToWidth(const QString& text, TextWidths& widths, double width);

}  // namespace zp::ui
