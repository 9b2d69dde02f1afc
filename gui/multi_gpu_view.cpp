#include "multi_gpu_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <set>

#include "charts/chart_multi.h"
#include "charts/chart_widget.h"
#include "engine/report/link_text.h"
#include "format.h"
#include "multi_gpu_run_form.h"

namespace rl::gui {

namespace {

// What joins each pair (NVLink as NVML said when the session was run, or why unknown), P2P and
// the measured peer copies: report/link_text.h, as `devices` prints them.
QString links_html(const MultiSession& s) {
  if (s.links.empty()) return "one GPU: no links";
  QStringList rows;
  for (const std::string& line : link_lines(s.links)) rows << qstr(line).toHtmlEscaped();
  return rows.join("<br>");
}

}  // namespace

MultiGpuView::MultiGpuView(QWidget* parent)
    : QWidget(parent), form_(new MultiRunForm), summary_(new QLabel), which_(new QComboBox) {
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(form_);
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::RichText);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel("Size and type"));
  which_->setToolTip("The input size and type the charts show");
  top->addWidget(which_);
  top->addStretch(1);
  layout->addLayout(top);
  auto* grid = new QWidget;
  auto* charts_layout = new QVBoxLayout(grid);
  for (const ChartKind& k : multi_chart_kinds()) {
    auto* w = new charts::ChartWidget;
    w->setMinimumHeight(360);
    charts_layout->addWidget(w);
    charts_ << qMakePair(k.id, w);
  }
  auto* scroll = new QScrollArea;
  scroll->setWidget(grid);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  layout->addWidget(scroll, 1);
  connect(which_, &QComboBox::currentIndexChanged, this, [this] { show_selected(); });
  summary_->setText(
      "<b>No multi-GPU session.</b> Run one reduction across GPUs with the form above, or with "
      "<code>reductionlab-cli run --devices cuda:0,cuda:1 --json multi.json</code> "
      "(docs/multi-gpu.md) and open the file (File &gt; Open).");
  show_selected();
}

void MultiGpuView::set_session(MultiSession session, const QString& path) {
  session_ = std::move(session);
  QStringList gpus;
  for (const DeviceInfo& d : session_->devices)
    gpus << QString("cuda:%1 %2").arg(d.index).arg(qstr(d.name).toHtmlEscaped());
  summary_->setText(QString("<b>%1</b> (%2, commit %3)<br>GPUs: %4<br>NCCL: %5<br>Links: %6")
                        .arg(path.toHtmlEscaped(), qstr(session_->created_utc),
                             qstr(session_->git_commit), gpus.join(", "),
                             qstr(session_->nccl).toHtmlEscaped(), links_html(*session_)));
  const QSignalBlocker block(which_);
  const QVariant shown = which_->currentData();  // kept while a run adds points
  which_->clear();
  std::set<std::pair<std::uint64_t, int>> seen;
  for (const MultiPoint& p : session_->points)
    if (seen.insert({p.point.size, int(p.point.type)}).second)
      which_->addItem(
          format_size(p.point.size) + " " + qstr(std::string(to_string(p.point.type))),
          QVariantList{QVariant::fromValue(qulonglong(p.point.size)), int(p.point.type)});
  const int again = shown.isValid() ? which_->findData(shown) : -1;
  which_->setCurrentIndex(again >= 0 ? again : which_->count() - 1);  // else the largest size
  show_selected();
  emit session_changed(*session_, path);
}

void MultiGpuView::show_selected() {
  MultiSession empty;
  const MultiSession& s = session_ ? *session_ : empty;
  std::uint64_t size = 0;
  DType type = DType::Int32;
  if (const QVariantList v = which_->currentData().toList(); v.size() == 2) {
    size = v[0].toULongLong();
    type = DType(v[1].toInt());
  }
  for (const auto& [id, widget] : charts_) widget->set_chart(build_multi_chart(id, s, size, type));
}

QString MultiGpuView::summary_text() const {
  return summary_->text();
}

void MultiGpuView::show_run_progress(const MultiSession& session) {
  const std::size_t all = expand(session.spec).size();
  set_session(session, "This run (measuring)");
  form_->set_status(QString("Measured %1 of %2 points; %3")
                        .arg(session.points.size())
                        .arg(all)
                        .arg(form_->cancelling() ? "cancelling after the current sample..."
                                                 : "the rest follow."));
}

void MultiGpuView::show_run_finished(const MultiSession& session) {
  set_session(session, "This run");
  int ok = 0, other = 0;
  const MultiPoint* first_problem = nullptr;
  for (const MultiPoint& p : session.points) {
    (p.status == PointStatus::Ok ? ok : other)++;
    if (p.status != PointStatus::Ok && !first_problem) first_problem = &p;
  }
  QString text = QString("%1 points: %2 ok").arg(session.points.size()).arg(ok);
  if (first_problem)
    text +=
        QString(", %1 failed, wrong or skipped (the first: %2 %3: %4)")
            .arg(other)
            .arg(qstr(first_problem->point.label()),
                 qstr(std::string(to_string(first_problem->status))), qstr(first_problem->message));
  if (session.cancelled) text += "; cancelled";
  form_->set_status(text + ". Save session... keeps it.", other > 0);
  form_->set_running(false);
  form_->set_can_save(true);
}

void MultiGpuView::show_run_notice(const QString& message) {
  form_->set_status(message);
}

void MultiGpuView::show_run_failed(const QString& message) {
  form_->set_status("The multi-GPU run could not run: " + message, true);
  form_->set_running(false);
}

charts::ChartWidget* MultiGpuView::chart(const QString& id) const {
  for (const auto& [chart_id, widget] : charts_)
    if (chart_id == id) return widget;
  return nullptr;
}

}  // namespace rl::gui
