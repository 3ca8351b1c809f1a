#pragma once
// The core's explanations in the window's language: a Phrase (core/base/phrase.h) with its
// template and every argument translated in the "Core" context, then filled in.

#include "core/base/phrase.h"

#include <QString>

namespace zp::ui {

QString translated(const Phrase& p);

// One fixed core phrase, marked with QT_TRANSLATE_NOOP("Core", ...) where core writes it
// (step phases, what a moment holds, ...).
QString translatedCore(const char* english);

}  // namespace zp::ui
