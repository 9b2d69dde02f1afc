// The results table: one row per point, taking whole rl::PointResult values. Display text has
// units; Qt::UserRole holds the raw number for sorting; CopyRole the text copied as TSV.
// Wrong points are red and say so, never with a speed-up.
#pragma once

#include <QAbstractTableModel>

#include <vector>

#include "engine/run/results.h"

namespace rl::gui {

class ResultsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  static constexpr int SortRole = Qt::UserRole;
  static constexpr int CopyRole = Qt::UserRole + 1;

  enum Column {
    Variant,
    Workspace,
    Block,
    Unroll,
    Size,
    Type,
    Status,
    TotalMedian,
    TotalMin,
    TotalMax,
    FirstMedian,
    GpuMedian,
    Samples,
    Noise,
    Bandwidth,
    PctTheoretical,
    PctReadFloor,
    Speedup,
    Value,
    Expected,
    RelError,
    BarrierStall,  // hardware counters: the first kernel's barrier stall (counters_text.h)
    Message,
    ColumnCount
  };

  explicit ResultsModel(QObject* parent = nullptr);

  void set_results(const std::vector<PointResult>& results, const DeviceInfo& device,
                   const std::string& baseline, const std::string& created_utc = {});
  void append(const PointResult& result);
  // Speed-ups change when the baseline arrives or is changed: same rows, new values.
  void update_speedups(const std::vector<PointResult>& results, const std::string& baseline);
  const std::vector<PointResult>& results() const { return rows_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QVariant display(const PointResult& r, int column) const;
  QVariant raw(const PointResult& r, int column) const;
  std::vector<PointResult> rows_;
  DeviceInfo device_;
  std::string created_utc_;  // when the session was measured: its kernels' version (tooltips)
  std::string baseline_;
};

}  // namespace rl::gui
