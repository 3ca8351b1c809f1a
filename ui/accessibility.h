#pragma once
// Keyboard and screen readers (every control reachable by Tab, every plot readable as text),
// applied to a finished window from outside its widgets, so each view stays about what it draws:
//   - every plot is named and described as text for screen readers, from the numbers it plots
//     (its bars and curves, read back from the plot after each replot while a screen reader is
//     active, or when one becomes active, so the text cannot disagree with the picture);
//   - the custom widgets and the controls the form labels name carry accessible names;
//   - Tab visits the controls in the order they are laid out, top to bottom, then the views;
//     plots take focus so the context-menu key opens their Export menu; text boxes pass Tab on;
//   - the control groups get mnemonics (Alt+letter focuses a group's first control), chosen
//     automatically from each title as KDE's KAcceleratorManager does, so translated titles
//     need no '&' of their own.
#include <QList>
#include <QString>

#include <functional>

class QCustomPlot;
class QMainWindow;
class QWidget;

namespace zp::ui {

// The plot's bars (stacked bars summed per category) and named curves as one paragraph:
// "Memory per GPU. GiB per GPU: DDP 153.2, ZeRO-1 52.1, ...".
QString describePlot(QCustomPlot* plot, const QString& title);

// Names the plot `title` and keeps its accessible description equal to describePlot(): after
// each replot while assistive technology is active (QAccessible::isActive), else when it becomes
// active.
void describeForScreenReaders(QCustomPlot* plot, const QString& title);

// A bar plot operated from the keyboard as by clicks: Left and Right (Home, End) on the focused
// plot choose the bar beside (first, last) the one `current` names (-1: none), by calling
// `choose` as a click on it does; `barCount` is asked at each key (the bars follow the plan).
void chooseBarsWithKeys(QCustomPlot* plot, std::function<int()> barCount, std::function<int()> current, std::function<void(int)> choose);

// The focusable widgets under `root` in the order its layouts place them: a box or form layout
// row by row, a splitter or tab widget page by page (a tab widget's tab bar first), a scroll
// area's contents.
QList<QWidget*> layoutOrder(QWidget* root);

// Everything above, for the window's central widget, once its menus are built (their mnemonic
// letters are not given to the groups).
void makeKeyboardAndScreenReaderFriendly(QMainWindow* window);
// The same for a part built later (a side tab's panel, LazyPage) once it joined the window: its
// own fields and names, and the window's tab order again with it in place. Its group boxes, if it
// had any, would get no mnemonic letters: none of the lazily built panels has one.
void makeKeyboardAndScreenReaderFriendly(QMainWindow* window, QWidget* joined);

}  // namespace zp::ui
