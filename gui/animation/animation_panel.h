// The "inside a block" animation: one block of a seed-ladder variant reducing step by step
// (workspace cells, source -> destination arrows, per-warp lane masks, barriers, captions,
// counters), optionally two variants side by side in lock-step. Built from engine traces
// (engine/trace.h); makes no CUDA calls.
#pragma once

class QWidget;

namespace rl::gui {

// A self-contained panel (pickers, view, transport controls, export); the caller owns it
// through Qt parenting.
QWidget* create_block_animation_panel(QWidget* parent);

}  // namespace rl::gui
