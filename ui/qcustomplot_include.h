#pragma once
// qcustomplot.h does not compile with QT_NO_FOREACH or QT_NO_CAST_FROM_ASCII: include it here only.
#pragma push_macro("QT_NO_FOREACH")
#pragma push_macro("QT_NO_CAST_FROM_ASCII")
#undef QT_NO_FOREACH
#undef QT_NO_CAST_FROM_ASCII
#include <qcustomplot.h>
#pragma pop_macro("QT_NO_CAST_FROM_ASCII")
#pragma pop_macro("QT_NO_FOREACH")
