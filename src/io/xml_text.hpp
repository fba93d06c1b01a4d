#pragma once
/// @file xml_text.hpp
/// Text pieces shared by the VTK XML writers (.vti, .pvd): numbers printed
/// so they read back exactly, and attribute values escaped.

#include <string>

namespace ccrowd::io {

/// Shortest decimal text of @p v that reads back (strtod) as exactly @p v,
/// e.g. "0.1", "12.5", "1e-07". [Limit: finite; inf and NaN print as
/// "inf" / "nan", which XML readers do not accept as numbers]
std::string formatDouble(double v);
/// Shortest decimal text of @p v that reads back (strtof) as exactly @p v,
/// e.g. "0.1" for 0.1f. [Limit: finite, as formatDouble]
std::string formatFloat(float v);

/// @p text with &, <, >, " and ' replaced by XML entities, for attribute values.
std::string xmlEscape(const std::string& text);

}  // namespace ccrowd::io
