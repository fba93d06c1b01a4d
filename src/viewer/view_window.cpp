/// @file view_window.cpp
/// `ccrowd view` (interactive window): placeholder until the interactive loop lands.

#include <iostream>

#include "viewer/viewer.hpp"

namespace ccrowd::viewer {

int viewScene(const ViewOptions&) {
    std::cerr << "ccrowd view: not implemented yet; use ccrowd render\n";
    return 2;
}

}  // namespace ccrowd::viewer
