#pragma once
/// @file sort_by_key.hpp
/// Stable key sort of agent indices on the side an Exec runs on (Thrust's
/// radix sort on the GPU, an OpenMP LSD radix sort on the CPU), shared by
/// the splat (sort by cell) and the separation (sort by neighbour cell).

#include "ccrowd/backend.hpp"

namespace ccrowd::sim {

/// Stable sort of @p order by @p key (both [Size: n], on the Exec's side),
/// keys in [0, @p keyCount) (the CPU sorts by the bits that range needs).
/// Stable on an identity permutation, the result is unique (by key, then
/// agent index) whatever the thread count and backend. Throws InputError
/// for keyCount < 1, BackendError naming @p stage when Thrust fails or the
/// backend is missing from the build.
void sortByKey(const Exec& ex, int* key, int* order, int n, int keyCount, const char* stage);

}  // namespace ccrowd::sim
