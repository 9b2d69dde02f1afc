# Writes OUT: a C++ header holding each of the device headers a user's kernel may include under
# NVRTC (kernels/include/kernels/timeline_*.cuh) as a string, so the engine hands NVRTC the same
# text nvcc compiles into the built-in kernels' twins. Run by engine/CMakeLists.txt at build time.
set(text "// Generated from kernels/include/kernels/ by engine/src/user/embed_headers.cmake.\n#pragma once\n")
foreach(pair IN ITEMS "kTimelineMarksHeader=timeline_marks.cuh" "kTimelineUserHeader=timeline_user.cuh")
  string(REPLACE "=" ";" parts "${pair}")
  list(GET parts 0 name)
  list(GET parts 1 file)
  file(READ "${SRC_DIR}/${file}" body)
  string(APPEND text "inline constexpr const char* ${name} = R\"rl_embed(${body})rl_embed\";\n")
endforeach()
file(WRITE "${OUT}.tmp" "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
