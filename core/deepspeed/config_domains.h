#pragma once
// The values DeepSpeed accepts at each ds_config path it constrains: enums (the ZeRO stage, the
// offload device, dtypes, optimizer and scheduler names) and numeric ranges (pydantic's ge/le on
// bucket sizes, sub-group size, live parameters, hpZ, loss scale), each with DeepSpeed's own
// message and the code it comes from. The linter (lint.h) walks the table; tst_lint checks one
// valid and one invalid value per row.
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zp::ds_schema {

struct ValueDomain {
    const char* path;                      // dotted: "zero_optimization.stage"
    std::vector<std::string> names;        // text domain: one of these (empty: a numeric domain)
    bool names_ignore_case = false;        // DeepSpeed lower-cases the value before comparing with `names`
    std::vector<std::string> exact_names;  // also accepted, compared exactly (torch.optim's classes, by getattr)
    std::optional<double> ge, le;          // numeric domain: value >= ge, value <= le
    const char* message;                   // DeepSpeed's wording; "{}" stands for the value
    const char* source;                    // where DeepSpeed says it
    const char* valid;                     // a JSON value DeepSpeed accepts here (for the test)
    const char* invalid;                   // one it rejects
};

const std::vector<ValueDomain>& value_domains();

// DeepSpeed's message for `value` at `d`, or "" when DeepSpeed accepts it. A value of the wrong
// JSON type gets a message of its own ("must be text", "must be a number").
std::string domain_violation(const ValueDomain& d, const nlohmann::json& value);

// ASCII text in lower case: how DeepSpeed compares the names it lower-cases (optimizer types,
// gradient_allreduce_op, pydantic's lax bools), in one place for the linter, the domains and the import.
std::string ascii_lower(std::string_view text);

// "'none', 'cpu' or 'nvme'": the names as a list for a message.
std::string names_list(const std::vector<std::string>& names);

}  // namespace zp::ds_schema
