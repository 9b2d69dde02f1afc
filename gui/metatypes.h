// The engine's value types cross from the worker thread to the GUI thread inside queued
// signals; Qt copies them, so each must be a registered metatype.
#pragma once

#include <QMetaType>
#include <QString>

#include <memory>

#include "engine/code/user_code.h"
#include "engine/device/device.h"
#include "engine/measure/runner.h"
#include "engine/session/multi_results.h"
#include "engine/session/results.h"
#include "engine/session/timeline.h"
#include "engine/trace/trace.h"

namespace rl::gui {
// A trace recording job's outcome (RunController::record_traces): the traces the GPU recorded
// for the first and, when asked, the second request, or why it could not.
struct TraceRecording {
  quint64 job = 0;
  std::shared_ptr<const Trace> first, second;
  QString error;
  bool cancelled = false;  // RunController::cancel_recording: nothing was recorded
};
// A warp timeline recording's outcome (RunController::record_timelines): the timelines the GPU
// recorded for the first and, when asked, the second request, or why it could not.
struct TimelineRecording {
  quint64 job = 0;
  std::shared_ptr<const MeasuredTimeline> first, second;
  QString error;
  bool cancelled = false;  // RunController::cancel_timeline_recording: its result was dropped
};
// A compile job's outcome (RunController::compile_user_kernel): the compiler's result and the
// kernel's Code view (engine/code/user_code.h), for the shape it was compiled for.
struct UserKernelBuild {
  quint64 job = 0;
  std::shared_ptr<const code::UserCode> code;
  UserKernelSource source;
  UserCompileShape shape;
  double wall_ms = 0;  // compile, SASS and line table together
};
}  // namespace rl::gui

Q_DECLARE_METATYPE(rl::PointResult)
Q_DECLARE_METATYPE(rl::Progress)
Q_DECLARE_METATYPE(rl::Session)
Q_DECLARE_METATYPE(rl::Discovery)
Q_DECLARE_METATYPE(rl::DeviceInfo)
Q_DECLARE_METATYPE(rl::gui::TraceRecording)
Q_DECLARE_METATYPE(rl::gui::TimelineRecording)
Q_DECLARE_METATYPE(rl::MultiSession)
Q_DECLARE_METATYPE(rl::gui::UserKernelBuild)

namespace rl::gui {
// Idempotent; call before the first queued connection carries one of these.
void register_metatypes();
}  // namespace rl::gui
