/// @file egl_context.cpp
/// Headless OpenGL through EGL. The platforms, in the order tried:
///   device      EGL_EXT_device_enumeration + EGL_EXT_platform_device
///               (NVIDIA's headless path on GPU servers; Mesa lists a
///               software device too),
///   surfaceless EGL_MESA_platform_surfaceless (Mesa without a device list),
///   default     eglGetDisplay(EGL_DEFAULT_DISPLAY).
/// The context is OpenGL 3.3 core (EGL_KHR_create_context or EGL 1.5) and
/// made current without a surface (EGL_KHR_surfaceless_context).

#include "viewer/egl_context.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ccrowd/error.hpp"
#include "viewer/gl.hpp"

namespace ccrowd::viewer {

namespace {

/// EGL error code as its name (e.g. "EGL_NOT_INITIALIZED").
std::string eglErrorName(EGLint e) {
    switch (e) {
        case EGL_SUCCESS: return "EGL_SUCCESS";
        case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
        case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
        case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
        case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
        case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
        case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
        case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
        case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
        case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
        default: break;
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04x", static_cast<unsigned>(e));
    return hex;
}

/// True when the space-separated list @p list holds @p name.
bool hasExtension(const char* list, const char* name) {
    if (!list) return false;
    const std::size_t n = std::strlen(name);
    for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

/// The entry point @p name of an EGL extension, or nullptr.
template <class F>
F proc(const char* name) {
    return reinterpret_cast<F>(eglGetProcAddress(name));
}

/// A display with its context current, or why there is none.
struct Attempt {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    std::string why;  ///< empty on success
};

/// Initialises @p d and makes an OpenGL 3.3 core context current on it
/// without a surface; on failure releases what it made and says why.
Attempt makeContext(EGLDisplay d) {
    Attempt a;
    if (d == EGL_NO_DISPLAY) {
        a.why = "no display (" + eglErrorName(eglGetError()) + ")";
        return a;
    }
    // 1. initialise the display
    EGLint major = 0, minor = 0;
    if (!eglInitialize(d, &major, &minor)) {
        a.why = "eglInitialize failed (" + eglErrorName(eglGetError()) + ")";
        return a;
    }
    const char* ext = eglQueryString(d, EGL_EXTENSIONS);
    const bool egl15 = major > 1 || (major == 1 && minor >= 5);
    auto fail = [&](const std::string& why) {
        eglTerminate(d);
        a.why = why;
        return a;
    };
    // 2. a context without a surface, with the version and profile asked for
    if (!hasExtension(ext, "EGL_KHR_surfaceless_context"))
        return fail("EGL_KHR_surfaceless_context missing (EGL " + std::to_string(major) + "." + std::to_string(minor) + ")");
    if (!egl15 && !hasExtension(ext, "EGL_KHR_create_context"))
        return fail("neither EGL 1.5 nor EGL_KHR_create_context (OpenGL 3.3 core cannot be asked for)");
    if (!eglBindAPI(EGL_OPENGL_API)) return fail("eglBindAPI(EGL_OPENGL_API) failed (" + eglErrorName(eglGetError()) + ")");
    // 3. a config for OpenGL (pbuffer-capable; none is needed where EGL_KHR_no_config_context is)
    const EGLint configAttribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = EGL_NO_CONFIG_KHR;
    EGLint configs = 0;
    if (!eglChooseConfig(d, configAttribs, &config, 1, &configs) || configs < 1) {
        if (!hasExtension(ext, "EGL_KHR_no_config_context")) return fail("no OpenGL config and no EGL_KHR_no_config_context");
        config = EGL_NO_CONFIG_KHR;
    }
    // 4. OpenGL 3.3 core, forward compatible (as the GLX path asks)
    const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION_KHR,       3,
                                     EGL_CONTEXT_MINOR_VERSION_KHR,       3,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK_KHR, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT_KHR,
                                     EGL_CONTEXT_FLAGS_KHR,               EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR,
                                     EGL_NONE};
    a.context = eglCreateContext(d, config, EGL_NO_CONTEXT, contextAttribs);
    if (a.context == EGL_NO_CONTEXT) return fail("no OpenGL 3.3 core context (" + eglErrorName(eglGetError()) + ")");
    // 5. current without a surface: drawing goes to an offscreen framebuffer
    if (!eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, a.context)) {
        const std::string why = "eglMakeCurrent without a surface failed (" + eglErrorName(eglGetError()) + ")";
        eglDestroyContext(d, a.context);
        a.context = EGL_NO_CONTEXT;
        return fail(why);
    }
    a.display = d;
    return a;
}

/// One EGL device and the order to try it in (NVIDIA first, software last).
struct Device {
    EGLDeviceEXT handle;
    int rank;          ///< 0 NVIDIA (by CUDA ordinal), 1 other hardware, 2 software
    EGLAttrib cuda;    ///< CUDA device ordinal (NVIDIA), else 0
    std::string name;  ///< for messages
};

/// The devices of EGL_EXT_device_enumeration, in the order to try them.
std::vector<Device> listDevices(std::string& why) {
    const auto queryDevices = proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
    const auto queryString = proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
    const auto queryAttrib = proc<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
    std::vector<Device> out;
    EGLint n = 0;
    if (!queryDevices || !queryDevices(0, nullptr, &n) || n < 1) {
        why = queryDevices ? "no EGL device" : "eglQueryDevicesEXT missing";
        return out;
    }
    std::vector<EGLDeviceEXT> handles(static_cast<std::size_t>(n));
    queryDevices(n, handles.data(), &n);
    for (EGLint k = 0; k < n; ++k) {
        const char* ext = queryString ? queryString(handles[k], EGL_EXTENSIONS) : nullptr;
        Device d{handles[k], 1, 0, "device " + std::to_string(k)};
        if (hasExtension(ext, "EGL_NV_device_cuda") && queryAttrib && queryAttrib(handles[k], EGL_CUDA_DEVICE_NV, &d.cuda)) {
            d.rank = 0;
            d.name += " (CUDA device " + std::to_string(d.cuda) + ")";
        } else if (hasExtension(ext, "EGL_MESA_device_software")) {
            d.rank = 2;
            d.name += " (software)";
        }
        out.push_back(d);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Device& a, const Device& b) { return a.rank != b.rank ? a.rank < b.rank : a.cuda < b.cuda; });
    return out;
}

/// The platforms to try: $CCROWD_EGL_PLATFORMS or all, in order.
std::vector<std::string> platformsToTry() {
    const char* env = std::getenv("CCROWD_EGL_PLATFORMS");
    std::vector<std::string> out;
    if (!env || !*env) {
        for (const char* p : kEglPlatformNames) out.emplace_back(p);
        return out;
    }
    const std::string text = env;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::string name = text.substr(at, comma - at);
        if (std::find(std::begin(kEglPlatformNames), std::end(kEglPlatformNames), name) == std::end(kEglPlatformNames))
            throw InputError(fieldMessage("CCROWD_EGL_PLATFORMS", "'" + text + "'", "unknown EGL platform '" + name + "'",
                                          "a comma-separated list of device, surfaceless, default"));
        out.push_back(name);
        at = comma + 1;
    }
    return out;
}

}  // namespace

EglContext::EglContext() {
    // client extensions (no display yet); a NULL answer leaves an error to clear
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client) eglGetError();
    const auto platformDisplay = proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    std::string tried;
    auto note = [&tried](const std::string& platform, const std::string& why) {
        tried += (tried.empty() ? "" : "; ") + platform + ": " + why;
    };
    for (const std::string& platform : platformsToTry()) {
        Attempt a;
        std::string what = platform + " platform";
        if (platform == "device") {
            // every device in turn, NVIDIA first
            // EGL_EXT_device_base is enumeration plus query in one name (NVIDIA's drivers list that)
            const bool enumerates =
                hasExtension(client, "EGL_EXT_device_enumeration") || hasExtension(client, "EGL_EXT_device_base");
            if (!hasExtension(client, "EGL_EXT_platform_device") || !enumerates || !platformDisplay) {
                note(platform, "EGL_EXT_platform_device / EGL_EXT_device_enumeration (or _device_base) missing: client extensions '" +
                                   std::string(client ? client : "") + "'");
                continue;
            }
            std::string why;
            const std::vector<Device> devices = listDevices(why);
            if (devices.empty()) note(platform, why);
            for (const Device& dev : devices) {
                a = makeContext(platformDisplay(EGL_PLATFORM_DEVICE_EXT, dev.handle, nullptr));
                if (a.why.empty()) {
                    what += ", " + dev.name;
                    break;
                }
                note(platform + " " + dev.name, a.why);
            }
        } else if (platform == "surfaceless") {
            if (!hasExtension(client, "EGL_MESA_platform_surfaceless") || !platformDisplay) {
                note(platform, "EGL_MESA_platform_surfaceless missing");
                continue;
            }
            a = makeContext(platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr));
            if (!a.why.empty()) note(platform, a.why);
        } else {
            a = makeContext(eglGetDisplay(EGL_DEFAULT_DISPLAY));
            if (!a.why.empty()) note(platform, a.why);
        }
        if (a.display == EGL_NO_DISPLAY) continue;
        // the first platform that worked
        display_ = a.display;
        context_ = a.context;
        const char* vendor = eglQueryString(a.display, EGL_VENDOR);
        const char* version = eglQueryString(a.display, EGL_VERSION);
        description_ = "EGL " + std::string(version ? version : "?") + ", " + what + " (" + (vendor ? vendor : "?") + ")";
        return;
    }
    throw ViewerError("EGL: no OpenGL 3.3 core context (tried " + tried +
                      "). Without a GPU, Mesa's EGL provides one (Debian: apt-get install libegl-mesa0 libgl1-mesa-dri); "
                      "with an X server, --gl glx uses GLX instead");
}

EglContext::~EglContext() {
    // release the context from this thread, then the display
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    eglTerminate(display_);
    eglReleaseThread();
}

}  // namespace ccrowd::viewer
