#include "device_panel.h"

#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "engine/multi/multi_run.h"
#include "engine/report/link_text.h"
#include "engine/session/metrics.h"
#include "format.h"

namespace rl::gui {

namespace {

QString bytes(std::size_t b) {
  if (b == 0) return "unknown";
  if (b >= (std::size_t(1) << 30))
    return QString("%1 GiB").arg(double(b) / double(1ull << 30), 0, 'f', 1);
  return QString("%1 MiB").arg(double(b) / double(1ull << 20), 0, 'f', 1);
}

QString row(const QString& k, const QString& v) {
  return QString("<tr><td style='padding-right:18px; color:#555'>%1</td><td>%2</td></tr>")
      .arg(k, v);
}

// What joins each pair of GPUs: NVLink as the driver's NVML says (or why that is unknown), P2P
// access as the runtime says, the measured peer copy where there is one (report/link_text.h).
QString links_html(const std::vector<PeerLink>& links) {
  if (links.empty()) return {};
  QString html = "<h3>Links between GPUs</h3><ul>";
  for (const std::string& line : link_lines(links))
    html += "<li>" + QString::fromStdString(line).toHtmlEscaped() + "</li>";
  return html + "</ul>";
}

QString version(int v) {
  return v > 0 ? QString("%1.%2").arg(v / 1000).arg((v % 1000) / 10) : QString("-");
}

}  // namespace

QString device_html(const DeviceInfo& d) {
  QString html = "<table>";
  html += row("name", QString::fromStdString(d.name).toHtmlEscaped());
  if (d.backend == "cuda") {
    html += row("CUDA ordinal", QString::number(d.index));
    html += row("compute capability", QString("%1.%2 (sm_%1%2)").arg(d.cc_major).arg(d.cc_minor));
    html += row("streaming multiprocessors", QString::number(d.sm_count));
    html += row("L2 cache", bytes(d.l2_bytes));
    html += row("memory",
                d.free_memory
                    ? QString("%1 total, %2 free").arg(bytes(d.total_memory), bytes(d.free_memory))
                    : bytes(d.total_memory));
    html +=
        row("memory bus",
            d.memory_bus_bits
                ? QString("%1 bits at %2 MHz").arg(d.memory_bus_bits).arg(d.memory_clock_khz / 1000)
                : "unknown");
    html +=
        row("theoretical DRAM bandwidth",
            d.theoretical_gbps > 0 ? format_gbps(d.theoretical_gbps) + " (2 × clock × bus width)"
                                   : "unknown");
    html += row("read floor (the roof of a reduction)",
                d.measured_read_gbps > 0
                    ? format_gbps(d.measured_read_gbps) +
                          QString(" (a kernel that only reads %1; per N in the size charts)")
                              .arg(QString::fromStdString(format_bytes(d.read_floor_bytes)))
                    : "measured when a run starts on this GPU");
    html += row("measured copy bandwidth",
                d.measured_copy_gbps > 0
                    ? format_gbps(d.measured_copy_gbps) +
                          " (device-to-device copy, read + write: information, not a roof)"
                    : "measured when a run starts on this GPU");
    html += row("driver / runtime", version(d.driver_version) + " / " + version(d.runtime_version));
  } else {
    html += row("backend",
                "host emulation: every block's algorithm on the CPU; exact results, CPU times");
    if (d.total_memory) html += row("memory", bytes(d.total_memory));
  }
  if (!d.note.empty()) html += row("note", QString::fromStdString(d.note).toHtmlEscaped());
  return html + "</table>";
}

DevicePanel::DevicePanel(QWidget* parent) : QWidget(parent), view_(new QTextBrowser) {
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(view_);
  view_->setOpenLinks(false);
  render();
}

void DevicePanel::set_discovery(const Discovery& discovery) {
  discovery_ = discovery;
  nccl_ = QString::fromStdString(nccl_status().text);
  render();
}

void DevicePanel::update_device(const DeviceInfo& device) {
  if (!discovery_ || device.backend != "cuda") return;
  for (auto& g : discovery_->gpus)
    if (g.index == device.index) g = device;
  render();
}

void DevicePanel::set_session_device(const DeviceInfo* device, const QString& origin) {
  session_device_.reset();
  if (device) session_device_ = *device;
  session_origin_ = origin;
  render();
}

void DevicePanel::set_remote(const QString& name, const QString& launcher,
                             const Discovery* discovery, const QString& status) {
  Remote& r = remotes_[name];
  r.launcher = launcher;
  r.status = status;
  r.discovery.reset();
  if (discovery) r.discovery = *discovery;
  render();
}

void DevicePanel::remove_remote(const QString& name) {
  if (remotes_.erase(name)) render();
}

QString DevicePanel::text() const {
  return view_->toPlainText();
}

void DevicePanel::render() {
  QString html = "<h2>This machine</h2>";
  if (!discovery_) {
    html += "<p>Looking for GPUs...</p>";
  } else if (discovery_->gpus.empty()) {
    html += "<p><b>No GPU is usable here.</b> " +
            QString::fromStdString(discovery_->no_gpu_reason).toHtmlEscaped() + "</p>";
    html +=
        "<p>What still works:</p><ul>"
        "<li><b>Runs on the host backend</b>: every variant's block algorithm executed on the CPU, "
        "block by block, with the GPU's order of additions. Results are exact; times are CPU "
        "times (labelled <i>host emulation</i>), not GPU times.</li>"
        "<li><b>Opening saved sessions</b> (File &gt; Open, Ctrl+O)" +
        QString(QFile::exists(":/sessions/h200-ladder.json")
                    ? ", such as the bundled session measured on an NVIDIA H200 (shown at start)"
                    : "") +
        ", overlaying a second session, and exporting charts and CSV.</li>"
        "<li><b>Inside a block</b>: the step-by-step animation comes from the block model and "
        "needs no GPU.</li>"
        "</ul>";
  } else {
    for (const DeviceInfo& g : discovery_->gpus)
      html += "<h3>" + QString::fromStdString(g.label()).toHtmlEscaped() + "</h3>" + device_html(g);
  }
  if (discovery_) html += links_html(discovery_->links);
  if (discovery_)
    html += "<h3>Several GPUs</h3><p>NCCL: " + nccl_.toHtmlEscaped().replace("\n", "<br>") + "</p>";
  if (discovery_) html += "<h3>Host</h3>" + device_html(discovery_->host);
  for (const auto& [name, r] : remotes_) {
    html += "<h2>" + name.toHtmlEscaped() + " (through <tt>" + r.launcher.toHtmlEscaped() +
            "</tt>)</h2>";
    if (!r.discovery) {
      html +=
          "<p>" +
          (r.status.isEmpty() ? QString("Asking for its devices...") : r.status).toHtmlEscaped() +
          "</p>";
      continue;
    }
    if (r.discovery->gpus.empty())
      html += "<p><b>No GPU there.</b> " +
              QString::fromStdString(r.discovery->no_gpu_reason).toHtmlEscaped() + "</p>";
    for (const DeviceInfo& g : r.discovery->gpus)
      html += "<h3>" + QString::fromStdString(g.label()).toHtmlEscaped() + "</h3>" + device_html(g);
    html += links_html(r.discovery->links);  // a CLI before stream 1.1 sends none
  }
  html += "<h2>Session shown</h2>";
  if (session_device_) {
    html += "<p>" + session_origin_.toHtmlEscaped() + "</p>" + device_html(*session_device_);
  } else {
    html += "<p>None yet: run an experiment or open a session.</p>";
  }
  view_->setHtml(html);
}

}  // namespace rl::gui
