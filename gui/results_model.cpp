#include "results_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include "counters_text.h"
#include "engine/session/metrics.h"
#include "format.h"

namespace rl::gui {

namespace {

QString text(std::string_view s) {
  return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

}  // namespace

ResultsModel::ResultsModel(QObject* parent)
    : QAbstractTableModel(parent), session_(std::make_shared<const Session>()) {}

void ResultsModel::set_session(std::shared_ptr<const Session> session,
                               const std::string& baseline) {
  beginResetModel();
  session_ = session ? std::move(session) : std::make_shared<const Session>();
  rows_ = int(session_->results.size());
  baseline_ = baseline;
  endResetModel();
}

void ResultsModel::append_new_points() {
  const int points = int(session_->results.size());
  if (points < rows_) return set_session(session_, baseline_);
  if (points == rows_) return;
  beginInsertRows({}, rows_, points - 1);
  rows_ = points;
  endInsertRows();
}

void ResultsModel::update_speedups(const std::string& baseline) {
  baseline_ = baseline;
  if (int(session_->results.size()) != rows_) return set_session(session_, baseline);
  if (rows_ > 0) emit dataChanged(index(0, Speedup), index(rows_ - 1, Speedup));
  emit headerDataChanged(Qt::Horizontal, Speedup, Speedup);
}

void ResultsModel::update_values(const std::string& baseline) {
  baseline_ = baseline;
  if (int(session_->results.size()) != rows_) return set_session(session_, baseline);
  if (rows_ > 0) emit dataChanged(index(0, 0), index(rows_ - 1, ColumnCount - 1));
  emit headerDataChanged(Qt::Horizontal, Speedup, Speedup);
}

int ResultsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : rows_;
}
int ResultsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultsModel::raw(const PointResult& r, int column) const {
  const PointSpec& p = r.point;
  switch (column) {
    case Variant:
      return variant_label(p.variant, p.unroll);
    case Workspace:
      return text(to_string(p.workspace));
    case Block:
      return p.block_size;
    case Unroll:
      return p.unroll;
    case Size:
      return qulonglong(p.size);
    case Type:
      return text(to_string(p.type));
    case Status:
      return text(to_string(r.status));
    case TotalMedian:
      return r.total.empty() ? QVariant() : r.total.median_ms;
    case TotalMin:
      return r.total.empty() ? QVariant() : r.total.min_ms;
    case TotalMax:
      return r.total.empty() ? QVariant() : r.total.max_ms;
    case FirstMedian:
      return r.first_kernel.empty() ? QVariant() : r.first_kernel.median_ms;
    case GpuMedian:
      return r.gpu_time.empty() ? QVariant() : r.gpu_time.median_ms;
    case Samples:
      return r.total.samples;
    case Noise:
      return r.total.empty() ? QVariant() : r.total.noise * 100;
    case Bandwidth:
    case PctTheoretical:
    case PctReadFloor: {
      const PointRates rates = point_rates(r, session_->device, session_->read_floors);
      const double v = column == Bandwidth        ? rates.total_gbps
                       : column == PctTheoretical ? rates.pct_of_theoretical
                                                  : rates.pct_of_read_floor;
      return v > 0 ? QVariant(v) : QVariant();
    }
    case Speedup:
      return r.speedup ? QVariant(*r.speedup) : QVariant();
    case Value:
      return QString::fromStdString(r.value);
    case Expected:
      return QString::fromStdString(r.expected);
    case RelError:
      return p.type == DType::Float32 ? QVariant(r.rel_error) : QVariant();
    case BarrierStall: {
      const std::optional<double> stall = barrier_stall(r);
      return stall ? QVariant(*stall) : QVariant();
    }
    case Message:
      return QString::fromStdString(r.message);
  }
  return {};
}

QVariant ResultsModel::display(const PointResult& r, int column) const {
  const QVariant v = raw(r, column);
  switch (column) {
    case Block:
      return r.point.block_size == 0 ? QString("auto") : v;
    case Size:
      return size_text(r.point);
    case Status:
      return r.status == PointStatus::Ok ? v : v.toString().toUpper();
    case TotalMedian:
    case TotalMin:
    case TotalMax:
    case FirstMedian:
    case GpuMedian:
      return v.isValid() ? format_time_ms(v.toDouble()) : QString("-");
    case Noise:
      if (!v.isValid()) return QString("-");
      return QString("%1%%2").arg(v.toDouble(), 0, 'f', 2).arg(r.noisy ? " noisy" : "");
    case Bandwidth:
      return v.isValid() ? format_gbps(v.toDouble()) : QString("-");
    case PctTheoretical:
      return qstr(rl::format_pct(v.toDouble()));
    case PctReadFloor:
      // Above 100% only within the floor's own noise: marked (the header's tooltip says why).
      return qstr(rl::format_pct_of_floor(v.toDouble()));
    case Speedup:
      if (r.status == PointStatus::Wrong) return QString("wrong result");
      return qstr(rl::format_speedup(r.speedup));
    case RelError:
      return v.isValid() ? QString::number(v.toDouble(), 'g', 3) : QString("-");
    case BarrierStall:
      if (!v.isValid()) return QString("-");
      return QString("%1%%2")
          .arg(v.toDouble(), 0, 'f', 1)
          .arg(barrier_stall_steady(r) ? "" : " unsteady");
    default:
      return v;
  }
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_ || size_t(index.row()) >= session_->results.size())
    return {};
  const PointResult& r = session_->results[size_t(index.row())];
  const int c = index.column();
  switch (role) {
    case Qt::DisplayRole:
      return display(r, c);
    case SortRole:
      return raw(r, c);
    case CopyRole: {
      // Numbers without units (the header says which): spreadsheets read them as numbers.
      const QVariant v = raw(r, c);
      if (c == Speedup && r.status == PointStatus::Wrong) return QString("wrong");
      if (c == Size && r.point.is_matrix()) return size_text(r.point);
      return v.isValid() ? v.toString() : QString();
    }
    case Qt::ToolTipRole:
      return qtext::point_details(r, *session_, baseline_);
    case Qt::ForegroundRole:
      if (r.status == PointStatus::Wrong) return QBrush(QColor("#b3001b"));
      if (r.status != PointStatus::Ok) return QBrush(QColor(120, 120, 120));
      if (r.noisy && c == Noise) return QBrush(QColor("#9a5b00"));
      return {};
    case Qt::BackgroundRole:
      if (r.status == PointStatus::Wrong) return QBrush(QColor("#fde0e0"));
      return {};
    case Qt::FontRole:
      if (r.status == PointStatus::Wrong && (c == Status || c == Speedup)) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::TextAlignmentRole:
      if (c == Variant || c == Workspace || c == Type || c == Status || c == Message)
        return int(Qt::AlignLeft | Qt::AlignVCenter);
      return int(Qt::AlignRight | Qt::AlignVCenter);
  }
  return {};
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal)
    return QAbstractTableModel::headerData(section, orientation, role);
  static const char* names[] = {"variant",
                                "workspace",
                                "block",
                                "unroll",
                                "N",
                                "type",
                                "status",
                                "total median (ms)",
                                "total min (ms)",
                                "total max (ms)",
                                "first kernel median (ms)",
                                "GPU time median (ms)",
                                "samples",
                                "noise (%)",
                                "GB/s",
                                "% of theoretical",
                                "% of read floor",
                                "speed-up",
                                "value",
                                "expected",
                                "rel. error",
                                "barrier stall (%)",
                                "message"};
  if (section < 0 || section >= ColumnCount) return {};
  if (role == Qt::DisplayRole || role == CopyRole) {
    QString name = names[section];
    if (role == Qt::DisplayRole) name.replace(" (ms)", "");  // cells carry their unit
    if (section == Speedup) name += " vs " + QString::fromStdString(baseline_);
    return name;
  }
  if (role == Qt::ToolTipRole && section == Size)
    return QString("N, the elements summed; for a matrix point its shape, rows x cols");
  if (role == Qt::ToolTipRole && section == TotalMedian)
    return "The whole reduction to one value on the device, median of the samples";
  if (role == Qt::ToolTipRole && section == FirstMedian)
    return "The first kernel alone: what the classic ladder's blog series times";
  if (role == Qt::ToolTipRole && section == PctReadFloor)
    return QString::fromStdString(
        "The read floor's time at the same N over the point's time (whole reduction): the read\n"
        "floor is the fastest of a few kernels that only read the input (16-byte loads), timed\n"
        "like every point on the same GPU. 100% = as fast as reading the data allows.\n* " +
        above_floor_note());
  if (role == Qt::ToolTipRole && section == BarrierStall)
    return "Hardware counter (CUPTI, run with counters on a GPU): the share of the first kernel's\n"
           "warp cycles stalled at a __syncthreads() barrier, ncu's\n"
           "smsp__warp_issue_stalled_barrier_per_warp_active.pct; the median of the profiled\n"
           "launches, 'unsteady' where they differ by more than 2 points; hover a row for every\n"
           "counter and its range";
  if (role == Qt::ToolTipRole && section == Noise)
    return "Relative standard error of the mean total time. 'noisy': still above the noise\n"
           "target when the sampling budget (4 x the budget per point) ran out";
  if (role == Qt::ToolTipRole && section == GpuMedian)
    return "The whole reduction with the timestamps' own cost (an empty event pair, measured\n"
           "after every sample) taken out: the kernels' time, as ncu's gpu__time_duration counts "
           "it";
  return {};
}

}  // namespace rl::gui
