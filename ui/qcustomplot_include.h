#pragma once
// Include qcustomplot.h only through this header. QCustomPlot 2.1 uses Qt's foreach in two
// inline templates (plottableAt, itemAt), and QT_NO_FOREACH (cmake/ProjectOptions.cmake) takes
// foreach away. Undefining QT_NO_FOREACH here would not bring it back once any Qt header has
// been read (qforeach.h has an include guard), so lend the header a range-based for instead and
// take it back afterwards: the project's own code still cannot use foreach.
#ifdef QT_NO_FOREACH
#define foreach(variable, container) for (variable : container)
#include <qcustomplot.h>
#undef foreach
#else
#include <qcustomplot.h>
#endif
