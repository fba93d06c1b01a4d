/// @file module.cpp
/// The Python extension `ccrowd._ccrowd` (nanobind): scene checks, and a
/// simulation stepped from Python with its outputs written by output::Run,
/// as `ccrowd run` writes them. State is handed out without copies where it
/// lives: NumPy arrays over the host memory on the CPU backend, DLPack
/// arrays over device memory on CUDA. python/ccrowd/__init__.py is the
/// documented interface; this module is its engine.

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <memory>
#include <string>

#include "ccrowd/backend.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "output/run.hpp"
#include "io/number_text.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace ccrowd::python {

namespace {

/// A read-only array over @p data (no copy), shaped @p shape, that keeps
/// @p owner (the Python simulation owning the memory) alive: a NumPy array
/// on the host, an array-API object with DLPack on the device.
template <class T>
nb::object view(nb::handle owner, const Exec& ex, const T* data, std::initializer_list<std::size_t> shape) {
    if (ex.backend == Backend::Cuda)
        return nb::cast(nb::ndarray<nb::array_api, const T>(data, shape.size(), shape.begin(), owner, nullptr, nb::dtype<T>(),
                                                            nb::device::cuda::value, 0));
    return nb::cast(nb::ndarray<nb::numpy, const T>(data, shape.size(), shape.begin(), owner));
}

/// The simulation behind a Python handle.
using Self = nb::handle_t<class PySimulation>;

/// A NumPy array that owns a copy of @p v, shaped @p shape.
template <class T>
nb::ndarray<nb::numpy, T> copyOf(std::vector<T> v, std::initializer_list<std::size_t> shape) {
    auto* owned = new std::vector<T>(std::move(v));
    nb::capsule free(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
    return nb::ndarray<nb::numpy, T>(owned->data(), shape.size(), shape.begin(), free);
}

/// The outputs' options, as `ccrowd run` parses them.
output::RunSetup setupOf(const std::string& out, bool force, double snapshotEvery, const std::string& snapshotFormat,
                         const std::string& fields, long long trajectoryEvery, const std::string& trajectoryFormat,
                         double measureEvery) {
    if ((snapshotEvery > 0 || trajectoryEvery > 0) && out.empty())
        throw InputError(fieldMessage("snapshot_every/trajectory_every", "set", "needs an output directory", "out=DIR"));
    if (!(snapshotEvery >= 0 && snapshotEvery <= 1e9))
        throw InputError(fieldMessage("snapshot_every", io::shortestText(snapshotEvery), "out of range", "0 .. 1e9 s"));
    if (trajectoryEvery < 0) throw InputError(fieldMessage("trajectory_every", std::to_string(trajectoryEvery), "out of range", ">= 0 steps"));
    if (!(measureEvery >= 1e-6 && measureEvery <= 1e9))
        throw InputError(fieldMessage("measure_every", io::shortestText(measureEvery), "out of range", "1e-6 .. 1e9 s"));
    output::RunSetup s;
    s.outputs = output::outputOptions(out, snapshotEvery, snapshotFormat, fields, trajectoryEvery, trajectoryFormat, measureEvery);
    s.force = force;
    s.dir_field = "out";
    s.force_field = "force=True";
    return s;
}

/// A simulation driven from Python.
class PySimulation {
public:
    PySimulation(const std::string& text, const std::string& path, const std::string& backend, int threads,
                 const std::string& out, bool force, double snapshotEvery, const std::string& snapshotFormat,
                 const std::string& fields, long long trajectoryEvery, const std::string& trajectoryFormat,
                 double measureEvery, double duration, long long maxSteps) {
        if (threads < 0 || threads > 1024)
            throw InputError(fieldMessage("threads", std::to_string(threads), "out of range", "0 (all cores) .. 1024"));
        Scene scene = parseSceneAt(text, path);
        // run-length overrides, as --duration / --steps
        if (duration > 0) scene.params.duration = duration;
        if (maxSteps >= 0) {
            scene.params.max_steps = maxSteps;
            if (duration <= 0) scene.params.duration = 1e30;
        }
        const output::RunSetup setup =
            setupOf(out, force, snapshotEvery, snapshotFormat, fields, trajectoryEvery, trajectoryFormat, measureEvery);
        const Exec ex = selectBackend(parseBackendChoice(backend, "backend"), threads, &note_);
        run_ = std::make_unique<output::Run>(std::move(scene), ex, setup);
    }

    /// @p n steps (fewer when the run finishes or a write fails), without the GIL.
    long long step(long long n) {
        long long done = 0;
        {
            nb::gil_scoped_release release;
            while (done < n && !sim().finished() && run_->step()) ++done;
            completeViews();
        }
        throwWriteError();
        return done;
    }

    /// Steps until the run is finished or simulated time reaches @p until;
    /// calls @p progress(time, steps, agents, exited) after each step.
    /// Ctrl-C ends the run as interrupted (outputs closed, summary written)
    /// and raises KeyboardInterrupt.
    void run(double until, nb::object progress) {
        // a time to run to (inf: to the end); one already passed runs nothing
        if (std::isnan(until) || until < 0)
            throw InputError(fieldMessage("run(until)", io::shortestText(until), "not a simulated time", ">= 0 s, or None for the whole run"));
        while (!sim().finished() && sim().time() < until - 1e-9) {
            bool ok;
            {
                nb::gil_scoped_release release;
                ok = run_->step();
                completeViews();
            }
            if (!ok) break;
            if (!progress.is_none()) progress(sim().time(), sim().steps(), sim().agentCount(), sim().exitedTotal());
            if (PyErr_CheckSignals() != 0) {
                nb::python_error interrupt;  // fetches the pending KeyboardInterrupt
                run_->finish(true);
                throw interrupt;
            }
        }
        throwWriteError();
        if (sim().finished()) run_->finish(false);
    }

    /// An event ({"time", "action", "target", "value"} as JSON) added to the timeline.
    void addEvent(const std::string& text) {
        Simulation& s = run_->sim();
        s.addEvent(parseEvent(text, s.scene(), "event"));
    }

    /// An incident ({"name", "position", ...} as JSON) added to the timeline.
    void addIncident(const std::string& text) {
        Simulation& s = run_->sim();
        s.addIncident(parseIncident(text, s.scene(), "incident"));
    }

    std::string finish(bool interrupted) {
        const std::string s = run_->finish(interrupted).dump();
        throwWriteError();
        return s;
    }

    const Simulation& sim() const { return run_->sim(); }
    const output::Run& runner() const { return *run_; }
    const std::string& note() const { return note_; }
    /// A view of a potential was handed out: from now on each step's
    /// potentials are completed (completeViews).
    void potentialsViewed() { potentialViews_ = true; }

private:
    /// After steps: completes the potentials when views of them exist (a
    /// step solves each only where its agents read it; the views show whole
    /// fields, as a fresh .potential(k) does).
    void completeViews() const {
        if (potentialViews_) sim().completePotentials();
    }
    void throwWriteError() const {
        if (!run_->writeError().empty()) throw Error(run_->writeError() + " (the run stopped at t = " + std::to_string(sim().time()) + " s)");
    }
    std::string note_;
    std::unique_ptr<output::Run> run_;
    bool potentialViews_ = false;  ///< .potential(k) was called.
};

}  // namespace

NB_MODULE(_ccrowd, m) {
    m.doc() = "ccrowd's engine (use the ccrowd package, not this module)";
    // errors carry ccrowd's own messages: file, field, problem, allowed values
    // (the base class first: nanobind tries the latest registered translator first)
    nb::exception<Error>(m, "Error", PyExc_RuntimeError);
    nb::exception<BackendError>(m, "BackendError", PyExc_RuntimeError);
    nb::exception<InputError>(m, "InputError", PyExc_ValueError);

    m.def("check_scene_file", [](const std::string& path) { (void)loadScene(path); }, "path"_a,
          "Reads and checks the scene file at path (raises InputError as `ccrowd run` reports it).");
    m.def("check_scene_text", [](const std::string& text, const std::string& path) { (void)parseSceneAt(text, path); },
          "text"_a, "path"_a, "Checks a scene's JSON text read as if it were the file at path.");
    m.def("default_scene_path", &defaultScenePath);

    nb::class_<PySimulation>(m, "Simulation")
        .def(nb::init<const std::string&, const std::string&, const std::string&, int, const std::string&, bool, double,
                      const std::string&, const std::string&, long long, const std::string&, double, double, long long>(),
             "text"_a, "path"_a, "backend"_a, "threads"_a, "out"_a, "force"_a, "snapshot_every"_a, "snapshot_format"_a,
             "fields"_a, "trajectory_every"_a, "trajectory_format"_a, "measure_every"_a, "duration"_a, "max_steps"_a)
        .def("step", &PySimulation::step, "n"_a)
        .def("run", &PySimulation::run, "until"_a, "progress"_a.none())
        .def("finish", &PySimulation::finish, "interrupted"_a)
        .def("add_event", &PySimulation::addEvent, "text"_a)
        .def("add_incident", &PySimulation::addIncident, "text"_a)
        .def("summary", [](const PySimulation& s, bool interrupted) { return s.runner().summary(interrupted).dump(); },
             "interrupted"_a)
        .def_prop_ro("note", &PySimulation::note)
        .def_prop_ro("finished", [](const PySimulation& s) { return s.sim().finished(); })
        .def_prop_ro("time", [](const PySimulation& s) { return s.sim().time(); })
        .def_prop_ro("steps", [](const PySimulation& s) { return s.sim().steps(); })
        .def_prop_ro("agent_count", [](const PySimulation& s) { return s.sim().agentCount(); })
        .def_prop_ro("spawned_total", [](const PySimulation& s) { return s.sim().spawnedTotal(); })
        .def_prop_ro("exited_total", [](const PySimulation& s) { return s.sim().exitedTotal(); })
        .def_prop_ro("wall_s", [](const PySimulation& s) { return s.runner().wallSeconds(); })
        .def_prop_ro("backend", [](const PySimulation& s) { return std::string(backendName(s.sim().exec().backend)); })
        .def_prop_ro("dt", [](const PySimulation& s) { return s.sim().scene().params.dt; })
        .def_prop_ro("grid", [](const PySimulation& s) {
            const GridInfo g = s.sim().grid().info();
            return nb::make_tuple(g.nx, g.ny, g.h, g.ox, g.oy);
        })
        .def_prop_ro("active_region", [](const PySimulation& s) {
            const RegionCells r = s.sim().activeRegion();
            const GridInfo g = s.sim().grid().info();
            return nb::make_tuple(g.ox + r.i0 * g.h, g.oy + r.j0 * g.h, g.ox + r.i1 * g.h, g.oy + r.j1 * g.h);
        })
        .def_prop_ro("stage_names", [](const PySimulation& s) { return s.sim().stageNames(); })
        .def_prop_ro("group_names", [](const PySimulation& s) {
            std::vector<std::string> names;
            for (const GroupSpec& g : s.sim().scene().groups) names.push_back(g.name);
            return names;
        })
        .def_prop_ro("field_groups", [](const PySimulation& s) {
            std::vector<int> g;
            for (int k = 0; k < s.sim().fieldCount(); ++k) g.push_back(s.sim().fieldGroup(k));
            return g;
        })
        .def_prop_ro("field_steps", [](const PySimulation& s) {
            std::vector<int> g;
            for (int k = 0; k < s.sim().fieldCount(); ++k) g.push_back(s.sim().fieldStep(k));
            return g;
        })
        // fields where they live, without copies (valid while the simulation lives; they change with each step)
        .def("density", [](Self self) {
            const StateView v = nb::inst_ptr<PySimulation>(self)->sim().stateView();
            return view(self, v.ex, v.density.data, {std::size_t(v.grid.ny), std::size_t(v.grid.nx)});
        })
        .def("pressure", [](Self self) {
            const StateView v = nb::inst_ptr<PySimulation>(self)->sim().stateView();
            return view(self, v.ex, v.pressure.data, {std::size_t(v.grid.ny), std::size_t(v.grid.nx)});
        })
        .def("mean_velocity", [](Self self) {
            const StateView v = nb::inst_ptr<PySimulation>(self)->sim().stateView();
            static_assert(sizeof(Vel2) == 2 * sizeof(float), "Vel2 is two packed floats");
            return view(self, v.ex, reinterpret_cast<const float*>(v.meanVelocity.data),
                        {std::size_t(v.grid.ny), std::size_t(v.grid.nx), 2});
        })
        .def("potential", [](Self self, int k) {
            nb::inst_ptr<PySimulation>(self)->potentialsViewed();
            const StateView v = nb::inst_ptr<PySimulation>(self)->sim().stateView();
            if (k < 0 || k >= static_cast<int>(v.potential.size()))
                throw InputError(fieldMessage("potential(k)", std::to_string(k), "no such field",
                                              "0 .. " + std::to_string(int(v.potential.size()) - 1)));
            return view(self, v.ex, v.potential[std::size_t(k)].data, {std::size_t(v.grid.ny), std::size_t(v.grid.nx)});
        }, "k"_a)
        // computed on request: copies
        .def("desired_velocity", [](const PySimulation& s, int k) {
            if (k < 0 || k >= s.sim().fieldCount())
                throw InputError(fieldMessage("desired_velocity(k)", std::to_string(k), "no such field",
                                              "0 .. " + std::to_string(s.sim().fieldCount() - 1)));
            const GridInfo g = s.sim().grid().info();
            return copyOf(s.sim().desiredVelocity(k), {std::size_t(g.ny), std::size_t(g.nx), 2});
        }, "k"_a)
        .def("face_speed", [](const PySimulation& s) {
            const GridInfo g = s.sim().grid().info();
            return copyOf(s.sim().faceSpeed(), {std::size_t(g.ny), std::size_t(g.nx), 4});
        })
        // the agent table's columns where they live (valid until the next step: the table is re-sorted and resized)
        .def("agent_columns", [](Self self) {
            const StateView v = nb::inst_ptr<PySimulation>(self)->sim().stateView();
            const std::size_t n = std::size_t(v.agentCount);
            nb::dict d;
            d["x"] = view(self, v.ex, v.agents.x.data, {n});
            d["y"] = view(self, v.ex, v.agents.y.data, {n});
            d["vx"] = view(self, v.ex, v.agents.vx.data, {n});
            d["vy"] = view(self, v.ex, v.agents.vy.data, {n});
            d["px"] = view(self, v.ex, v.agents.px.data, {n});
            d["py"] = view(self, v.ex, v.agents.py.data, {n});
            d["vmax"] = view(self, v.ex, v.agents.vmax.data, {n});
            d["field"] = view(self, v.ex, v.agents.field.data, {n});
            d["id"] = view(self, v.ex, v.agents.id.data, {n});
            d["junction"] = view(self, v.ex, v.agents.junction.data, {n});
            d["came"] = view(self, v.ex, v.agents.came.data, {n});
            return d;
        })
        // route choice's street network and traffic counts (seed 004): host copies
        .def("traffic", [](const PySimulation& s) {
            StreetTraffic t = s.sim().traffic();
            const std::size_t nj = t.junction_x.size(), nr = t.road_a.size();
            nb::dict d;
            d["junction_x"] = copyOf(std::move(t.junction_x), {nj});
            d["junction_y"] = copyOf(std::move(t.junction_y), {nj});
            d["junction_radius"] = copyOf(std::move(t.junction_radius), {nj});
            d["viewshed_area"] = copyOf(std::move(t.viewshed_area), {nj});
            d["junction_count"] = copyOf(std::move(t.junction_count), {nj});
            d["road_a"] = copyOf(std::move(t.road_a), {nr});
            d["road_b"] = copyOf(std::move(t.road_b), {nr});
            d["road_length"] = copyOf(std::move(t.road_length), {nr});
            d["road_width"] = copyOf(std::move(t.road_width), {nr});
            d["road_count"] = copyOf(std::move(t.road_count), {nr});
            d["weight_ab"] = copyOf(std::move(t.weight_ab), {nr});
            d["weight_ba"] = copyOf(std::move(t.weight_ba), {nr});
            nb::list xs, ys;
            for (std::size_t k = 0; k < nr; ++k) {
                const std::size_t np = t.road_x[k].size();
                xs.append(copyOf(std::move(t.road_x[k]), {np}));
                ys.append(copyOf(std::move(t.road_y[k]), {np}));
            }
            d["road_x"] = xs;
            d["road_y"] = ys;
            return d;
        })
        // each agent's group, in the table's order: a host copy (the table keeps the field, not the group)
        .def("agent_groups", [](const PySimulation& s) {
            AgentSnapshot a = s.sim().agents();
            const std::size_t n = a.group.size();
            return copyOf(std::move(a.group), {n});
        });
}

}  // namespace ccrowd::python
