/// @file pipeline.cpp
#include "sim/pipeline.hpp"

#include <algorithm>
#include <set>

#include "ccrowd/error.hpp"

namespace ccrowd::sim {

Pipeline::Pipeline(const Exec& ex, std::vector<Stage> stages, const std::vector<std::string>& initial)
    : stages_(std::move(stages)) {
    std::set<std::string> available(initial.begin(), initial.end());
    std::set<std::string> fieldsAvailable = available;  // what a Fields stage may read (prepare() runs them alone)
    bool moved = false;
    for (std::size_t k = 0; k < stages_.size(); ++k) {
        const Stage& s = stages_[k];
        const std::string where = "pipeline stage " + std::to_string(k) + " '" + s.name + "'";
        // a unique name and something to run
        if (s.name.empty()) throw Error(where + ": a stage needs a name");
        if (std::find(names_.begin(), names_.end(), s.name) != names_.end())
            throw Error(where + ": the name is used by an earlier stage (stage names are unique)");
        if (!s.run) throw Error(where + ": the stage has no run function");
        // Fields stages first: they also run alone, before the first step
        if (s.phase == StagePhase::Fields && moved)
            throw Error(where + ": a fields stage after a moving stage (fields stages come first)");
        moved = moved || s.phase == StagePhase::Move;
        // every read available here
        const std::set<std::string>& readable = s.phase == StagePhase::Fields ? fieldsAvailable : available;
        for (const std::string& r : s.reads)
            if (!readable.count(r))
                throw Error(where + " reads '" + r + "', which neither the initial state nor an earlier " +
                            (s.phase == StagePhase::Fields ? "fields " : "") + "stage provides");
        for (const std::string& w : s.writes) {
            available.insert(w);
            if (s.phase == StagePhase::Fields) fieldsAvailable.insert(w);
        }
        names_.push_back(s.name);
    }
    clock_ = StageClock(ex, static_cast<int>(stages_.size()));
}

void Pipeline::run(SimState& s, bool move) {
    for (std::size_t k = 0; k < stages_.size(); ++k) {
        if (!move && stages_[k].phase == StagePhase::Move) break;
        // on the backend's clock, resolved once per step by collect()
        clock_.begin(static_cast<int>(k));
        stages_[k].run(s);
        clock_.end(static_cast<int>(k));
    }
}

void Pipeline::collect(double* totalMs) { clock_.collect(totalMs); }

}  // namespace ccrowd::sim
