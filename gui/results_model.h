// The results table: one row per point of a session it shares with the store (SessionStore),
// read in place: a large session is held once in the app, never copied for the table. Display
// text has units; Qt::UserRole holds the raw number for sorting; CopyRole the text copied as
// TSV. Wrong points are red and say so, never with a speed-up.
#pragma once

#include <QAbstractTableModel>

#include <memory>
#include <string>
#include <vector>

#include "engine/session/results.h"

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

  // Shows every point of session (null: none). The session may change in place afterwards, as
  // long as the model is told (the calls below) before anything reads it again.
  void set_session(std::shared_ptr<const Session> session, const std::string& baseline);
  // The session has new points at its end: they become rows.
  void append_new_points();
  // The points' speed-ups changed in place (a new baseline, a point added to a live run): same
  // rows, new speed-ups; only that column is announced, so a sorted view is not re-sorted on
  // every other. A different number of points is a reset.
  void update_speedups(const std::string& baseline);
  // Any of the points' values changed in place (a run's final values): the same for every column.
  void update_values(const std::string& baseline);
  // The session's points; the first rowCount() of them are rows.
  const std::vector<PointResult>& results() const { return session_->results; }
  const Session& session() const { return *session_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QVariant display(const PointResult& r, int column) const;
  QVariant raw(const PointResult& r, int column) const;
  std::shared_ptr<const Session> session_;
  int rows_ = 0;  // points shown as rows, as the views last heard
  std::string baseline_;
};

}  // namespace rl::gui
