# The sources of reductionlab-cli that parse `run`'s options into a spec and answer `variants`
# (not its main()), relative to cli/: one list for the CLI (cli/CMakeLists.txt) and the fuzz
# target of its grammar (fuzz/replay.cmake, fuzz/CMakeLists.txt).
set(RL_CLI_GRAMMAR_SOURCES cmd_variants.cpp format.cpp output_files.cpp parse_args.cpp
                           run_counts.cpp run_options.cpp run_settle.cpp run_spec.cpp)
