/// @file footprints_gdal.cpp
/// Building footprints through GDAL/OGR's C API (footprints.hpp): the
/// buildings' layer (filtered by an OGR SQL attribute filter), each polygon
/// or multipolygon part's outer ring; the entrances' layer, points as
/// squares and polygons as they are; everything projected to the UTM zone
/// of the buildings' centre when their CRS is geographic, scaled to metres
/// when projected, and moved so that the origin lands on the domain's.

#include <cmath>
#include <filesystem>
#include <memory>
#include <mutex>

#include <cpl_error.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include "ccrowd/error.hpp"
#include "footprints.hpp"
#include "polygon.hpp"

namespace ccrowd::scene_detail {

namespace {

struct CloseDataset { void operator()(void* d) const { GDALClose(d); } };
struct DestroyFeature { void operator()(void* f) const { OGR_F_Destroy(f); } };
struct DestroyGeometry { void operator()(void* g) const { OGR_G_DestroyGeometry(g); } };
struct ReleaseSrs { void operator()(void* s) const { OSRRelease(s); } };
struct DestroyTransform { void operator()(void* t) const { OCTDestroyCoordinateTransformation(t); } };
using Dataset = std::unique_ptr<void, CloseDataset>;
using Feature = std::unique_ptr<void, DestroyFeature>;
using Geometry = std::unique_ptr<void, DestroyGeometry>;
using Srs = std::unique_ptr<void, ReleaseSrs>;
using Transform = std::unique_ptr<void, DestroyTransform>;

/// GDAL's errors kept quiet (not printed) while a file is read; its last
/// message goes into ours.
struct QuietErrors {
    QuietErrors() { CPLPushErrorHandler(CPLQuietErrorHandler); CPLErrorReset(); }
    ~QuietErrors() { CPLPopErrorHandler(); }
    QuietErrors(const QuietErrors&) = delete;
    QuietErrors& operator=(const QuietErrors&) = delete;
};

std::string lastGdalError() {
    const char* m = CPLGetLastErrorMsg();
    return m && *m ? std::string(": ") + m : std::string();
}

/// A point in metres of the target CRS (doubles: UTM eastings are ~5e5 m).
struct Point2 {
    double x, y;
};
using Ring = std::vector<Point2>;

/// Reads one layer's geometries: @p take(ring, fid) for each polygon's outer
/// ring, @p point(x, y, fid) for each point, in the target CRS's metres.
class LayerReader {
public:
    LayerReader(OGRLayerH layer, OGRCoordinateTransformationH ct, double metres) : layer_(layer), ct_(ct), metres_(metres) {}

    template <class Ring_, class Point_>
    void each(Ring_ take, Point_ point) {
        OGR_L_ResetReading(layer_);
        for (Feature f(OGR_L_GetNextFeature(layer_)); f; f.reset(OGR_L_GetNextFeature(layer_))) {
            OGRGeometryH g = OGR_F_GetGeometryRef(f.get());
            if (!g) continue;
            const long long fid = OGR_F_GetFID(f.get());
            Geometry owned(OGR_G_Clone(g));
            if (ct_ && OGR_G_Transform(owned.get(), ct_) != OGRERR_NONE) throw std::runtime_error("feature " + std::to_string(fid) + ": cannot be projected" + lastGdalError());
            visit(owned.get(), fid, take, point);
        }
    }

private:
    template <class Ring_, class Point_>
    void visit(OGRGeometryH g, long long fid, Ring_& take, Point_& point) {
        const OGRwkbGeometryType t = wkbFlatten(OGR_G_GetGeometryType(g));
        if (t == wkbPolygon) {
            OGRGeometryH ring = OGR_G_GetGeometryRef(g, 0);
            if (!ring) return;
            Ring r;
            for (int i = 0; i < OGR_G_GetPointCount(ring); ++i) r.push_back({OGR_G_GetX(ring, i) * metres_, OGR_G_GetY(ring, i) * metres_});
            take(r, fid);
        } else if (t == wkbPoint) {
            point(OGR_G_GetX(g, 0) * metres_, OGR_G_GetY(g, 0) * metres_, fid);
        } else if (t == wkbMultiPolygon || t == wkbMultiPoint || t == wkbGeometryCollection) {
            for (int k = 0; k < OGR_G_GetGeometryCount(g); ++k) visit(OGR_G_GetGeometryRef(g, k), fid, take, point);
        } else if (t == wkbCurvePolygon || t == wkbMultiSurface) {
            // curved rings: their linear approximation
            Geometry linear(OGR_G_GetLinearGeometry(g, 0.0, nullptr));
            if (linear) visit(linear.get(), fid, take, point);
        }
        // lines and other types are not footprints: skipped
    }

    OGRLayerH layer_;
    OGRCoordinateTransformationH ct_;
    double metres_;
};

/// The layer named @p name (empty: the first) of @p ds; throws naming the layers there are.
OGRLayerH layerOf(GDALDatasetH ds, const std::string& name, const std::string& file) {
    OGRLayerH layer = name.empty() ? GDALDatasetGetLayer(ds, 0) : GDALDatasetGetLayerByName(ds, name.c_str());
    if (layer) return layer;
    std::string names;
    for (int k = 0; k < GDALDatasetGetLayerCount(ds); ++k) names += (names.empty() ? "" : ", ") + std::string(OGR_L_GetName(GDALDatasetGetLayer(ds, k)));
    throw std::runtime_error("'" + file + "' has no layer '" + name + "' (layers: " + (names.empty() ? "none" : names) + ")");
}

/// Ring -> simple polygon: no repeated closing or consecutive vertices, 3..4096 of them, no self-crossing.
Polygon toPolygon(const Ring& r, Point2 shift, long long fid, const std::string& what) {
    Polygon p;
    for (const Point2& q : r) {
        const Vec2 v{static_cast<float>(q.x - shift.x), static_cast<float>(q.y - shift.y)};
        if (!p.empty() && p.back().x == v.x && p.back().y == v.y) continue;
        p.push_back(v);
    }
    if (p.size() > 1 && p.front().x == p.back().x && p.front().y == p.back().y) p.pop_back();
    const std::string where = what + " feature " + std::to_string(fid);
    if (p.size() < 3) throw std::runtime_error(where + ": a ring of fewer than 3 distinct vertices");
    if (p.size() > 4096) throw std::runtime_error(where + ": " + std::to_string(p.size()) + " vertices (at most 4096; simplify it, e.g. ogr2ogr -simplify 0.1)");
    const auto crossing = geom::findSelfIntersection(p);
    if (crossing.first >= 0) throw std::runtime_error(where + ": its outline crosses itself (edges " + std::to_string(crossing.first) + " and " + std::to_string(crossing.second) + ")");
    return p;
}

}  // namespace

Footprints readFootprints(const FootprintSpec& spec, Vec2 domainOrigin, const std::string& where) {
    static std::once_flag registered;
    std::call_once(registered, [] { GDALAllRegister(); });
    const QuietErrors quiet;
    auto fail = [&](const std::string& problem, const std::string& allowed) {
        throw InputError(fieldMessage(where, "'" + spec.path + "'", problem, allowed));
    };
    std::error_code ec;
    if (spec.path.rfind("/vsi", 0) != 0 && !std::filesystem::exists(spec.path, ec)) fail("no such file", "an existing GIS file (relative paths: from the scene file's directory)");
    Dataset ds(GDALOpenEx(spec.path.c_str(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr));
    if (!ds) fail("GDAL cannot open it as a vector file" + lastGdalError(), "a readable GeoJSON, Shapefile, GeoPackage, OSM or other OGR file");
    Footprints out;
    try {
        // the buildings' layer and filter
        OGRLayerH buildings = layerOf(ds.get(), spec.layer, spec.path);
        if (!spec.where.empty() && OGR_L_SetAttributeFilter(buildings, spec.where.c_str()) != OGRERR_NONE)
            throw std::runtime_error("the filter \"" + spec.where + "\" is not valid OGR SQL" + lastGdalError());
        // the target CRS: the UTM zone of the buildings' centre when geographic, else theirs
        OGRSpatialReferenceH src = OGR_L_GetSpatialRef(buildings);
        Srs target;
        double metres = 1.0;
        if (src && OSRIsGeographic(src)) {
            Srs lonLat(OSRClone(src));
            OSRSetAxisMappingStrategy(lonLat.get(), OAMS_TRADITIONAL_GIS_ORDER);
            OGREnvelope e;
            if (OGR_L_GetExtent(buildings, &e, TRUE) != OGRERR_NONE) throw std::runtime_error("the buildings' layer is empty");
            const double lon = 0.5 * (e.MinX + e.MaxX), lat = 0.5 * (e.MinY + e.MaxY);
            const int zone = std::min(60, std::max(1, static_cast<int>(std::floor((lon + 180.0) / 6.0)) + 1));
            target.reset(OSRNewSpatialReference(nullptr));
            if (OSRImportFromEPSG(target.get(), (lat >= 0 ? 32600 : 32700) + zone) != OGRERR_NONE)
                throw std::runtime_error("cannot make the UTM zone " + std::to_string(zone) + " CRS" + lastGdalError());
        } else if (src) {
            target.reset(OSRClone(src));
            metres = OSRGetLinearUnits(target.get(), nullptr);
        }
        if (target) {
            OSRSetAxisMappingStrategy(target.get(), OAMS_TRADITIONAL_GIS_ORDER);
            const char* name = OSRGetName(target.get());
            out.crs = name ? name : "";
        } else {
            out.crs = "none (coordinates taken as metres)";
        }
        // a layer's transform to the target (none when it is the target's CRS or has none)
        auto transformOf = [&](OGRLayerH layer) {
            Transform ct;
            OGRSpatialReferenceH s = OGR_L_GetSpatialRef(layer);
            if (!s || !target || OSRIsSame(s, target.get())) return ct;
            Srs from(OSRClone(s));
            OSRSetAxisMappingStrategy(from.get(), OAMS_TRADITIONAL_GIS_ORDER);
            ct.reset(OCTNewCoordinateTransformation(from.get(), target.get()));
            if (!ct) throw std::runtime_error(std::string("no transformation from the layer's CRS to ") + out.crs + lastGdalError());
            return ct;
        };
        // the buildings' outer rings, then the origin
        std::vector<std::pair<Ring, long long>> rings;
        const Transform bct = transformOf(buildings);
        LayerReader(buildings, bct.get(), metres).each([&](const Ring& r, long long fid) { rings.emplace_back(r, fid); },
                                                       [](double, double, long long) {});
        if (rings.empty()) throw std::runtime_error("no polygon in the buildings' layer" + std::string(spec.where.empty() ? "" : " that passes the filter"));
        Point2 lo{INFINITY, INFINITY};
        for (const auto& r : rings)
            for (const Point2& q : r.first) { lo.x = std::min(lo.x, q.x); lo.y = std::min(lo.y, q.y); }
        const Point2 origin = spec.hasOrigin ? Point2{spec.originX, spec.originY} : lo;
        const Point2 shift{origin.x - domainOrigin.x, origin.y - domainOrigin.y};
        for (const auto& r : rings) out.buildings.push_back(toPolygon(r.first, shift, r.second, "building"));
        // the entrances: points as squares, polygons as they are
        if (spec.hasEntrances) {
            // their file (the buildings' unless named) and layer
            Dataset other;
            GDALDatasetH eds = ds.get();
            const std::string efile = spec.entranceFile.empty() ? spec.path : spec.entranceFile;
            if (!spec.entranceFile.empty()) {
                other.reset(GDALOpenEx(efile.c_str(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr));
                if (!other) throw std::runtime_error("GDAL cannot open the entrances' file '" + efile + "'" + lastGdalError());
                eds = other.get();
            }
            OGRLayerH entrances = layerOf(eds, spec.entranceLayer, efile);
            if (entrances == buildings) throw std::runtime_error("the entrances' layer is the buildings' (name another: entrances.layer or entrances.file)");
            const Transform ect = transformOf(entrances);
            const double half = 0.5 * spec.entranceSize;
            LayerReader(entrances, ect.get(), metres)
                .each([&](const Ring& r, long long fid) { out.entrances.push_back(toPolygon(r, shift, fid, "entrance")); },
                      [&](double x, double y, long long fid) {
                          const Ring sq{{x - half, y - half}, {x + half, y - half}, {x + half, y + half}, {x - half, y + half}};
                          out.entrances.push_back(toPolygon(sq, shift, fid, "entrance"));
                      });
            if (out.entrances.empty()) throw std::runtime_error("no point or polygon in the entrances' layer " + std::string(OGR_L_GetName(entrances)));
        }
    } catch (const std::runtime_error& e) {
        fail(e.what(), "polygons (buildings) and points or polygons (entrances) GDAL reads, as simple rings of 3 to 4096 vertices");
    }
    return out;
}

}  // namespace ccrowd::scene_detail
