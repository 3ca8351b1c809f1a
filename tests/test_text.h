#pragma once
// Text from the Qt-free core (std::string, std::string_view, UTF-8) as the QString a Qt Test
// comparison prints, for the test files that compare the two.
#include <QString>

#include <string_view>

namespace zp::test {

inline QString q(std::string_view utf8) { return QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size())); }

}  // namespace zp::test
