#pragma once
// The median of a list of figures, the statistic validate, holdout and the training-log reader
// report (robust to the one odd row or the slow first steps a mean would follow).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace zp {

// The middle value, the mean of the two middle ones for an even count; 0 for an empty list.
inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace zp
