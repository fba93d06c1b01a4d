/// @file snapshot.cpp
#include "snapshot.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <utility>

#include "ccrowd/error.hpp"
#include "file_bytes.hpp"
#include "npy.hpp"
#include "pvd.hpp"
#include "vti.hpp"
#include "../plot/heatmap.hpp"

namespace ccrowd::io {

namespace {

/// "snapshots/frame_000012" for frame 12.
std::string frameStem(long long index) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "frame_%06lld", index);
    return std::string(SnapshotWriter::kFrameDir) + "/" + buf;
}

/// One value per cell for a heat map: the value, a vector's length, or the
/// mean of more components (e.g. the four face speeds).
std::vector<float> scalarValues(const SnapshotField& fd) {
    const std::size_t c = static_cast<std::size_t>(fd.components);
    std::vector<float> out(fd.data.size() / c);
    for (std::size_t k = 0; k < out.size(); ++k) {
        const float* v = &fd.data[k * c];
        if (c == 1) out[k] = v[0];
        else if (c == 2) out[k] = std::hypot(v[0], v[1]);
        else {
            float sum = 0.f;
            for (std::size_t m = 0; m < c; ++m) sum += v[m];
            out[k] = sum / static_cast<float>(c);
        }
    }
    return out;
}

/// e.g. "velocity [m/s] magnitude   t = 12.50 s, step 250".
std::string plotTitle(const SnapshotField& fd, const SnapshotFrame& f) {
    std::string t = fd.name;
    if (!fd.units.empty()) t += " [" + fd.units + "]";
    if (fd.components == 2) t += " magnitude";
    else if (fd.components > 2) t += " mean of " + std::to_string(fd.components) + " components";
    char when[64];
    std::snprintf(when, sizeof when, "   t = %.2f s, step %lld", f.time, f.step);
    return t + when;
}

/// Creates @p path as a directory unless it already is one.
void ensureDirectory(const std::string& path) {
    // mkdir, then accept EEXIST only for an existing directory.
    if (::mkdir(path.c_str(), 0777) == 0) return;
    const int err = errno;
    struct stat st{};
    if (err == EEXIST && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
    throw InputError("cannot create snapshot directory '" + path + "': " +
                     (err == EEXIST ? std::string("a file of that name exists") : std::string(std::strerror(err))));
}

}  // namespace

SnapshotWriter::SnapshotWriter(std::string outDir, SnapshotFormats formats) : dir_(std::move(outDir)), formats_(formats) {
    if (!formats_.any()) {
        throw InputError(fieldMessage("snapshot formats", "none", "no format selected", kSnapshotFormatNames));
    }
    // The frame directory, then empty indexes (this also checks the directory is writable).
    ensureDirectory(full(kFrameDir));
    writeIndexes();
}

std::string SnapshotWriter::full(const std::string& relative) const {
    return dir_.empty() || dir_.back() == '/' ? dir_ + relative : dir_ + "/" + relative;
}

void SnapshotWriter::write(const SnapshotFrame& frame) {
    // Check the frame, and that it matches the series' layout, before writing anything.
    validateSnapshotFrame(frame);
    if (have_layout_) {
        const std::string diff = snapshotLayoutDifference(layout_, frame);
        if (!diff.empty()) {
            throw Error("snapshot frame (step " + std::to_string(frame.step) + ") does not match the first frame's layout: " + diff);
        }
    }
    SnapshotRecord rec;
    rec.index = static_cast<long long>(records_.size());
    rec.time = frame.time;
    rec.step = frame.step;
    const std::string stem = frameStem(rec.index);

    // vti: every field in one file.
    if (formats_.vti) {
        rec.vti = stem + ".vti";
        writeVti(full(rec.vti), frame);
    }
    // npy: one array per field.
    if (formats_.npy) {
        for (const SnapshotField& fd : frame.fields) {
            const std::string file = stem + "_" + fd.name + ".npy";
            writeNpyGrid(full(file), fd.data.data(), frame.nx, frame.ny, fd.components);
            rec.npy[fd.name] = file;
        }
    }
    // png: one heat map per field, vectors as their length.
    if (formats_.png) {
        for (const SnapshotField& fd : frame.fields) {
            const std::string file = stem + "_" + fd.name + ".png";
            const std::vector<float> scalar = fd.components == 1 ? std::vector<float>() : scalarValues(fd);
            plot::HeatMap map;
            map.nx = frame.nx;
            map.ny = frame.ny;
            map.values = fd.components == 1 ? fd.data.data() : scalar.data();
            map.blocked = frame.blocked;
            map.title = plotTitle(fd, frame);
            plot::writeHeatMap(full(file), map);
            rec.png[fd.name] = file;
        }
    }

    // The frame is complete: remember the layout, list the frame, rewrite the indexes.
    if (!have_layout_) {
        layout_.nx = frame.nx;
        layout_.ny = frame.ny;
        layout_.h = frame.h;
        layout_.origin_x = frame.origin_x;
        layout_.origin_y = frame.origin_y;
        for (const SnapshotField& fd : frame.fields) layout_.fields.push_back({fd.name, fd.units, fd.components, {}});
        have_layout_ = true;
    }
    records_.push_back(std::move(rec));
    writeIndexes();
}

void SnapshotWriter::writeIndexes() const {
    // The .pvd lists the .vti files with their times.
    if (formats_.vti) {
        std::vector<PvdEntry> entries;
        entries.reserve(records_.size());
        for (const SnapshotRecord& r : records_) entries.push_back({r.time, r.vti});
        writePvd(full(kPvdName), entries);
    }
    const std::string json = snapshotIndexJson(formats_, have_layout_ ? &layout_ : nullptr, records_);
    writeFileAtomic(full(kIndexName), json.data(), json.size());
}

}  // namespace ccrowd::io
