// The engine's value types cross from the worker thread to the GUI thread inside queued
// signals; Qt copies them, so each must be a registered metatype.
#pragma once

#include <QMetaType>

#include "device.h"
#include "results.h"
#include "runner.h"

Q_DECLARE_METATYPE(rl::PointResult)
Q_DECLARE_METATYPE(rl::Progress)
Q_DECLARE_METATYPE(rl::Session)
Q_DECLARE_METATYPE(rl::Discovery)
Q_DECLARE_METATYPE(rl::DeviceInfo)

namespace rl::gui {
// Idempotent; call before the first queued connection carries one of these.
void register_metatypes();
}  // namespace rl::gui
