/// @file line_counter.cpp
#include "line_counter.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "ccrowd/error.hpp"
#include "io/number_text.hpp"
#include "scene/polygon.hpp"

namespace ccrowd::measure {

namespace {

/// Side of @p p relative to a->b: +1 left, -1 right, 0 on the line (exact for float inputs).
int sideOf(const Vec2& a, const Vec2& b, float px, float py) {
    const double d = (static_cast<double>(b.x) - a.x) * (static_cast<double>(py) - a.y) -
                     (static_cast<double>(b.y) - a.y) * (static_cast<double>(px) - a.x);
    return (d > 0) - (d < 0);
}

}  // namespace

LineCounter::LineCounter(std::vector<LineSpec> lines, std::vector<std::string> groupNames, double interval)
    : lines_(std::move(lines)),
      groups_(std::move(groupNames)),
      slices_("line counter", interval),
      csv_({"t_start [s]", "t_end [s]", "line", "group", "forward [persons]", "backward [persons]",
            "flow [persons/s]", "specific_flow [persons/(m s)]"}) {
    // Lines (the interval: slices_): names, finite end points, non-zero length.
    for (std::size_t l = 0; l < lines_.size(); ++l) {
        const LineSpec& s = lines_[l];
        const std::string field = "measurement line " + std::to_string(l) + " '" + s.name + "'";
        if (s.name.empty()) throw InputError(fieldMessage(field + " name", "\"\"", "empty name", "non-empty"));
        if (!std::isfinite(s.a.x) || !std::isfinite(s.a.y) || !std::isfinite(s.b.x) || !std::isfinite(s.b.y))
            throw InputError(fieldMessage(field, "non-finite end point", "bad coordinates", "finite metres"));
        const double len = std::hypot(static_cast<double>(s.b.x) - s.a.x, static_cast<double>(s.b.y) - s.a.y);
        if (!(len > 0))
            throw InputError(fieldMessage(field + " length", "0", "the end points are equal", "from != to (> 0 m)"));
        length_.push_back(len);
    }
    counts_.assign(lines_.size() * (groups_.size() + 1) * 2, 0);
    totalForward_.assign(lines_.size(), 0);
    totalBackward_.assign(lines_.size(), 0);
    peakFull_.assign(lines_.size(), 0.0);
    peakAny_.assign(lines_.size(), 0.0);
}

double LineCounter::length(int line) const { return length_.at(static_cast<std::size_t>(line)); }
double LineCounter::peakFlow(int line) const {
    const auto l = static_cast<std::size_t>(line);
    return anyFull_ ? peakFull_.at(l) : peakAny_.at(l);
}
double LineCounter::peakSpecificFlow(int line) const { return peakFlow(line) / length(line); }
long long LineCounter::totalForward(int line) const { return totalForward_.at(static_cast<std::size_t>(line)); }
long long LineCounter::totalBackward(int line) const { return totalBackward_.at(static_cast<std::size_t>(line)); }

void LineCounter::closeInterval(double t0, double t1) {
    const double dt = t1 - t0;
    const bool full = slices_.clock().isFull(t0, t1);
    const int slots = static_cast<int>(groups_.size()) + 1;
    for (int l = 0; l < static_cast<int>(lines_.size()); ++l) {
        for (int g = 0; g < slots; ++g) {
            // One row per line and group slot ("all" first).
            LineFlowRow r;
            r.t_start = t0;
            r.t_end = t1;
            r.line = l;
            r.group = g - 1;
            r.forward = count(l, g, 0);
            r.backward = count(l, g, 1);
            r.flow = static_cast<double>(r.forward + r.backward) / dt;
            r.specific_flow = r.flow / length_[l];
            rows_.push_back(r);
            csv_.addRow({csvNumber(t0), csvNumber(t1), lines_[l].name, g == 0 ? "all" : groups_[g - 1],
                         std::to_string(r.forward), std::to_string(r.backward), csvNumber(r.flow),
                         csvNumber(r.specific_flow)});
            // Peaks and totals from the all-groups row.
            if (g == 0) {
                peakAny_[l] = std::max(peakAny_[l], r.flow);
                if (full) peakFull_[l] = std::max(peakFull_[l], r.flow);
                totalForward_[l] += r.forward;
                totalBackward_[l] += r.backward;
            }
        }
    }
    anyFull_ = anyFull_ || full;
    std::fill(counts_.begin(), counts_.end(), 0);
}

LineCounter::IdEntry& LineCounter::entryOf(int id) {
    // small non-negative ids (the simulation's) in a table, others hashed
    if (id >= 0 && id < kDenseIds) {
        const std::size_t k = static_cast<std::size_t>(id);
        if (k >= dense_.size()) dense_.resize(std::max(k + 1, 2 * dense_.size()));
        return dense_[k];
    }
    return sparse_[id];
}

int LineCounter::observe(double time, int n, const int* id, const int* group, const float* x, const float* y) {
    // Arguments: order in time, sizes.
    slices_.check(time);
    if (n < 0) throw Error("line counter: negative agent count " + std::to_string(n));
    const bool hasGroups = !groups_.empty();
    if (n > 0 && (!id || !x || !y || (hasGroups && !group))) throw Error("line counter: null agent array");
    const std::size_t before = rows_.size();
    slices_.advance(time, [this](double t0, double t1) { closeInterval(t0, t1); });
    // a new stamp (after 2^32 - 1 observations the entries start over: every agent restarts)
    if (++stamp_ == 0) {
        dense_.assign(dense_.size(), IdEntry{});
        sparse_.clear();
        stamp_ = 1;
    }

    const std::size_t L = lines_.size();
    nextX_.resize(static_cast<std::size_t>(n));
    nextY_.resize(static_cast<std::size_t>(n));
    nextSide_.resize(static_cast<std::size_t>(n) * L);
    for (int k = 0; k < n; ++k) {
        // Agent state: the entry of its id; one missing from the previous observation starts afresh.
        if (!std::isfinite(x[k]) || !std::isfinite(y[k]))
            throw Error("line counter: agent id " + std::to_string(id[k]) + " has a non-finite position at t = " + io::shortestText(time) + " s");
        const int g = hasGroups ? group[k] : -1;
        if (hasGroups && (g < 0 || g >= static_cast<int>(groups_.size())))
            throw Error("line counter: agent id " + std::to_string(id[k]) + " has group " + std::to_string(g) +
                        " (allowed: 0.." + std::to_string(groups_.size() - 1) + ")");
        // the entry a few agents ahead is fetched meanwhile (ids come in no particular order)
        constexpr int kAhead = 16;
        if (k + kAhead < n && id[k + kAhead] >= 0 && static_cast<std::size_t>(id[k + kAhead]) < dense_.size())
            __builtin_prefetch(&dense_[static_cast<std::size_t>(id[k + kAhead])]);
        IdEntry& e = entryOf(id[k]);
        if (e.stamp == stamp_)
            throw Error("line counter: agent id " + std::to_string(id[k]) + " appears twice at t = " + io::shortestText(time) + " s");
        const bool restart = e.stamp == 0 || e.stamp + 1 != stamp_;
        const std::size_t s = restart ? 0 : static_cast<std::size_t>(e.slot);
        e = IdEntry{k, stamp_};
        const Vec2 q{x[k], y[k]};
        const Vec2 p = restart ? q : Vec2{px_[s], py_[s]};
        // Each line: count a change of strict side whose move touches the segment.
        for (std::size_t l = 0; l < L; ++l) {
            const int now = sideOf(lines_[l].a, lines_[l].b, q.x, q.y);
            signed char& next = nextSide_[static_cast<std::size_t>(k) * L + l];
            const signed char last = restart ? static_cast<signed char>(now) : side_[s * L + l];
            next = now == 0 ? last : static_cast<signed char>(now);
            if (restart || now == 0) continue;
            if (last != 0 && now != last && geom::segmentsIntersect(p, q, lines_[l].a, lines_[l].b)) {
                const int dir = now > 0 ? 0 : 1;
                ++count(static_cast<int>(l), 0, dir);
                if (hasGroups) ++count(static_cast<int>(l), g + 1, dir);
            }
        }
        nextX_[static_cast<std::size_t>(k)] = q.x;
        nextY_[static_cast<std::size_t>(k)] = q.y;
    }
    // This observation's state becomes the previous one; hashed ids that left are forgotten.
    px_.swap(nextX_);
    py_.swap(nextY_);
    side_.swap(nextSide_);
    if (sparse_.size() > 2 * static_cast<std::size_t>(n) + 1024) {
        for (auto it = sparse_.begin(); it != sparse_.end();)
            it = it->second.stamp == stamp_ ? std::next(it) : sparse_.erase(it);
    }
    return static_cast<int>(rows_.size() - before);
}

int LineCounter::finish(double time) {
    const std::size_t before = rows_.size();
    slices_.finish(time, [this](double t0, double t1) { closeInterval(t0, t1); });
    return static_cast<int>(rows_.size() - before);
}

}  // namespace ccrowd::measure
