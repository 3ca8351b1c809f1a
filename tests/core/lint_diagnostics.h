#pragma once
// Test helper for lint rows: whether a lint result holds a diagnostic of the given severity at the
// given path whose message contains `text`.
#include "core/deepspeed/lint.h"

#include <QString>

inline bool has_diagnostic(const zp::LintResult& r, const QString& severity, const QString& path, const QString& text) {
    for (const zp::Diagnostic& d : r.diagnostics)
        if (QString::fromLatin1(zp::to_string(d.severity)) == severity && QString::fromStdString(d.path) == path &&
            QString::fromStdString(d.message).contains(text))
            return true;
    return false;
}
