#pragma once
// The core's explanations in the window's language: a Phrase (core/base/phrase.h) with its
// template and every argument translated in the "Core" context, then filled in.

#include "core/base/phrase.h"

#include <QString>

#include <string>

namespace zp::ui {

QString translated(const Phrase& p);

// One fixed core phrase, marked with QT_TRANSLATE_NOOP("Core", ...) where core writes it
// (step phases, what a moment holds, ...).
QString translatedCore(const char* english);

// A core text that is data, not a phrase (a model's name, a file path, a log line): its UTF-8 as is.
inline QString fromCore(const std::string& utf8) { return QString::fromStdString(utf8); }

}  // namespace zp::ui
