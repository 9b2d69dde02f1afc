// The entry point the main window uses to add the "Inside a block" tab.
#include "animation/animation_panel.h"

#include "animation/block_animation.h"

namespace rl::gui {

QWidget* create_block_animation_panel(QWidget* parent) {
  return new BlockAnimationPanel(parent);
}

}  // namespace rl::gui
