#include "multi_gpu_run_form.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/experiment/grammar.h"
#include "format.h"
#include "wrap_row.h"

namespace rl::gui {

namespace {

QLineEdit* field(const QString& text, const QString& tip) {
  auto* f = new QLineEdit(text);
  f->setToolTip(tip);
  f->setMinimumWidth(110);
  return f;
}

}  // namespace

MultiRunForm::MultiRunForm(QWidget* parent)
    : QWidget(parent),
      gpus_(field("all",
                  "Which GPUs: all, a number (the first K) or a list such as "
                  "cuda:0,cuda:1 (the first is the root). Every count from 1 up to them "
                  "runs, so one GPU reducing the whole input is measured beside them.")),
      sizes_(field("2^28", "Input sizes N over all the GPUs, e.g. 2^28,2^30 (each GPU holds N/G)")),
      exchanges_(field("all",
                       "How the partials meet: all, or any of nccl_allreduce, "
                       "nccl_reduce, gather_shards, peer_partials (comma-separated)")),
      variant_(field("single_pass",
                     "The kernel each GPU reduces its shard with (a variant "
                     "name, as reductionlab-cli variants lists them)")),
      run_(new QPushButton("Run on these GPUs")),
      cancel_(new QPushButton("Cancel")),
      save_(new QPushButton("Save session...")),
      status_(new QLabel) {
  // The fields flow onto more lines where the tab is narrow (a dock open on a 1024-pixel
  // screen), each name beside its field; the buttons and the status below them.
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* fields = new WrapRow;
  for (const auto& [label, edit] : QList<QPair<QString, QLineEdit*>>{{"GPUs", gpus_},
                                                                     {"Sizes N", sizes_},
                                                                     {"Exchanges", exchanges_},
                                                                     {"Local kernel", variant_}}) {
    auto* l = new QLabel(label);
    l->setBuddy(edit);
    QHBoxLayout* part = fields->add_part(1);
    part->addWidget(l);
    part->addWidget(edit, 1);
  }
  layout->addWidget(fields);
  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {run_, cancel_, save_}) buttons->addWidget(b);
  status_->setWordWrap(true);
  status_->setTextFormat(Qt::PlainText);  // it echoes what was typed
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  buttons->addWidget(status_, 1);
  layout->addLayout(buttons);
  cancel_->setEnabled(false);
  save_->setEnabled(false);
  save_->setToolTip("Write the multi-GPU session shown as JSON (File > Open reads it back)");
  connect(run_, &QPushButton::clicked, this, &MultiRunForm::ask_to_run);
  for (QLineEdit* f : {gpus_, sizes_, exchanges_, variant_})
    connect(f, &QLineEdit::returnPressed, this, &MultiRunForm::ask_to_run);
  connect(cancel_, &QPushButton::clicked, this, &MultiRunForm::cancel_requested);
  connect(save_, &QPushButton::clicked, this, &MultiRunForm::save_requested);
  set_gpus({}, "looking for GPUs");
}

void MultiRunForm::set_gpus(const std::vector<DeviceInfo>& gpus, const QString& no_gpu_reason) {
  gpus_found_ = gpus;
  no_gpu_reason_ = no_gpu_reason;
  set_running(running_);
  if (gpus.empty())
    set_status(
        "No multi-GPU run here: " + no_gpu_reason +
        ". A session from reductionlab-cli run --devices ... --json opens with File > Open.");
  else if (!running_)
    set_status(QString("%1 GPU(s) found: a run measures every GPU count from 1 to those named.")
                   .arg(gpus.size()));
}

std::optional<MultiSpec> MultiRunForm::spec(QStringList* problems) const {
  MultiSpec s;
  QStringList out;
  const auto text = [](const QLineEdit* f) { return f->text().trimmed().toStdString(); };
  try {
    s.devices = parse_gpus(text(gpus_), int(gpus_found_.size()));
  } catch (const Error& e) {
    out << "GPUs: " + qstr(e.what());
  }
  std::string why;
  if (!parse_size_list(text(sizes_), &s.sizes, &why)) out << "Sizes N: " + qstr(why);
  try {
    s.exchanges = parse_exchange_list(text(exchanges_));
  } catch (const Error& e) {
    out << "Exchanges: " + qstr(e.what());
  }
  const std::optional<VariantRef> v = resolve_variant(text(variant_));
  if (!v || !v->variant)
    out << "Local kernel: " + qstr(echo(text(variant_))) +
               " is not a variant (reductionlab-cli variants lists them)";
  else
    use_local_variant(s, *v->variant, v->unroll);
  if (out.isEmpty())
    for (const std::string& e : validate(s, gpus_found_)) out << qstr(e);
  if (problems) *problems = out;
  if (!out.isEmpty()) return std::nullopt;
  return s;
}

void MultiRunForm::ask_to_run() {
  if (running_ || gpus_found_.empty()) return;
  QStringList problems;
  const std::optional<MultiSpec> s = spec(&problems);
  if (!s) {
    set_status(problems.join("\n"), true);
    return;
  }
  emit run_requested(*s);
}

void MultiRunForm::set_running(bool running) {
  running_ = running;
  if (!running) cancelling_ = false;
  run_->setEnabled(!running && !gpus_found_.empty());
  run_->setToolTip(gpus_found_.empty() ? "No GPU: " + no_gpu_reason_
                                       : "Reduce across the GPUs named, in a worker process");
  cancel_->setEnabled(running);
  for (QLineEdit* f : {gpus_, sizes_, exchanges_, variant_}) f->setEnabled(!running);
}

void MultiRunForm::set_can_save(bool can) {
  save_->setEnabled(can);
}

void MultiRunForm::set_status(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? "color: #b00020;" : "");
}

QString MultiRunForm::status() const {
  return status_->text();
}

}  // namespace rl::gui
