/// @file panel_imgui.cpp
/// Panel with Dear ImGui, or an empty one in builds without it.
#include "viewer/panel.hpp"

#include "ccrowd/config.hpp"
#include "viewer/gl.hpp"

#if CCROWD_HAVE_IMGUI
#include <algorithm>
#include <string>
#include <vector>

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "sim/operational_model.hpp"
#endif

namespace ccrowd::viewer {

#if CCROWD_HAVE_IMGUI

Panel::Panel(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini in the working directory
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
}

Panel::~Panel() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

bool Panel::available() { return true; }
bool Panel::wantsMouse() const { return ImGui::GetIO().WantCaptureMouse; }
bool Panel::wantsKeyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }

void Panel::draw(PanelState& s) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(300, 0), ImGuiCond_FirstUseEver);
    ImGui::Begin("ccrowd");
    // statistics
    ImGui::Text("%.1f fps (%.2f ms to draw, %.2f ms to fill)", s.fps, s.frame_ms, s.sync_ms);
    ImGui::Text("last step %.1f ms (simulation thread)", s.step_ms);
    ImGui::Text("%d agents, t = %.2f s, %d agent draw call(s)", s.agents, s.sim_time, s.agent_draw_calls);
    if (ImGui::CollapsingHeader("ms per stage", ImGuiTreeNodeFlags_DefaultOpen)) {
        double total = 0.0;
        for (std::size_t k = 0; k < s.stage_ms.size() && k < s.stage_names.size(); ++k) {
            ImGui::Text("%-17s %8.3f", s.stage_names[k].c_str(), s.stage_ms[k]);
            total += s.stage_ms[k];
        }
        ImGui::Text("%-17s %8.3f", "step", total);
    }
    // drawing
    ImGui::Checkbox("paused (space)", &s.paused);
    float speed = static_cast<float>(s.speed);
    if (ImGui::SliderFloat("speed (+/-)", &speed, 0.05f, 20.f, "%.2fx", ImGuiSliderFlags_Logarithmic)) s.speed = speed;
    int overlay = static_cast<int>(s.draw.overlay);
    ImGui::Combo("overlay (O)", &overlay, "none\0density\0speed\0pressure\0potential\0discomfort\0");
    s.draw.overlay = static_cast<Overlay>(overlay);
    ImGui::SliderInt("potential field (G)", &s.draw.potential_field, 0, s.field_count - 1);
    int colour = static_cast<int>(s.draw.colour);
    ImGui::Combo("agent colour (C)", &colour, "group\0speed\0pressure\0");
    s.draw.colour = static_cast<ColourBy>(colour);
    // seed 003's set-up menu
    if (ImGui::CollapsingHeader("set-up (restarts the scene)", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::InputInt("agents", &s.setup.agents, 100, 1000);
        ImGui::SliderFloat("radius [m]", &s.setup.radius, 0.05f, 0.5f, "%.2f");
        ImGui::SliderFloat("d_min [m]", &s.setup.d_min, 0.f, 1.f, "%.2f");
        ImGui::SliderFloat("vmax [m/s]", &s.setup.vmax, 0.1f, 5.f, "%.2f");
        ImGui::InputInt("grid (cells, long side)", &s.setup.grid, 8, 64);
        // the operational model and its main parameters
        const std::vector<std::string> models = sim::operationalModelNames();
        int model = static_cast<int>(std::find(models.begin(), models.end(), s.setup.local) - models.begin());
        if (ImGui::BeginCombo("model (local)", s.setup.local.c_str())) {
            for (int m = 0; m < static_cast<int>(models.size()); ++m)
                if (ImGui::Selectable(models[m].c_str(), m == model)) s.setup.local = models[m];
            ImGui::EndCombo();
        }
        if (s.setup.local == "social_force") {
            ImGui::SliderFloat("panic p", &s.setup.panic, 0.f, 1.f, "%.2f");
            ImGui::SliderFloat("A [N]", &s.setup.A, 0.f, 5000.f, "%.0f");
            ImGui::SliderFloat("B [m]", &s.setup.B, 0.01f, 0.5f, "%.3f");
        }
        if (s.setup.local == "orca") ImGui::SliderFloat("time horizon [s]", &s.setup.time_horizon, 0.1f, 10.f, "%.1f");
        if (ImGui::Button("Restart (R)")) s.restart = true;
        if (!s.error.empty()) ImGui::TextColored(ImVec4(1.f, 0.4f, 0.4f, 1.f), "%s", s.error.c_str());
    }
    ImGui::End();
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

#else

Panel::Panel(GLFWwindow*) {}
Panel::~Panel() = default;
bool Panel::available() { return false; }
bool Panel::wantsMouse() const { return false; }
bool Panel::wantsKeyboard() const { return false; }
void Panel::draw(PanelState&) {}

#endif

}  // namespace ccrowd::viewer
