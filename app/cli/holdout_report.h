#pragma once
// `zero-planner validate`'s table of fitted constants, and `validate --holdout`'s re-fits and
// held-out errors (core/validation/holdout.h), as text or JSON.
#include "core/validation/holdout.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace zp::cli {

std::string fitted_constants_text(const std::vector<validation::FittedConstant>& constants);
nlohmann::json fitted_constants_json(const std::vector<validation::FittedConstant>& constants);

std::string holdout_text(const validation::HoldoutReport& r);
nlohmann::json holdout_json(const validation::HoldoutReport& r);

}  // namespace zp::cli
