# The engine's readers of what people hand over (sessions and spec files: io/export.h,
# experiment/spec.h) and every source they call, relative to engine/src. One list for three builds:
# the engine library (engine/CMakeLists.txt), the fuzz targets' replay binaries in the normal
# build (fuzz/replay.cmake, linked from this list alone, so a reader that starts calling a
# source not listed here fails the build and CI), and the libFuzzer build (fuzz/CMakeLists.txt).
set(RL_READER_SOURCES
    catalog/catalog.cpp
    catalog/catalog_labs.cpp
    catalog/catalog_modern.cpp
    catalog/catalog_segmented.cpp
    catalog/catalog_user.cpp
    core/echo.cpp
    core/error.cpp
    session/metrics.cpp
    session/timeline_analysis.cpp
    session/timeline_checks.cpp
    core/types.cpp
    io/counters_io.cpp
    io/line_samples_io.cpp
    io/export_json.cpp
    io/export_json_read.cpp
    io/spec_json_read.cpp
    io/shapes_json.cpp
    io/timeline_json.cpp
    io/input_file.cpp
    io/json_bounded.cpp
    io/occupancy_json.cpp
    io/session_checks.cpp
    io/model_counts_json.cpp
    experiment/grammar.cpp
    experiment/presets.cpp
    session/results.cpp
    experiment/spec.cpp
    experiment/spec_expand.cpp
    experiment/spec_shapes.cpp
    experiment/spec_validate.cpp
    user/user_contract.cpp
    user/user_registry.cpp
)
# What the CLI's argument grammar (cli/grammar_sources.cmake) adds to them.
set(RL_CLI_GRAMMAR_ENGINE_SOURCES io/output_file.cpp io/output_lock.cpp io/output_plan.cpp
                                  report/format.cpp report/time_basis.cpp device/device.cpp)
